package dev.jobqueue.failure;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * Leads PgBouncer ({@code pgbouncer.sh}) to the formation's primary whenever another node becomes primary, as a
 * failover manager's hook does in production (Patroni's {@code on_role_change}, or a script on pg_auto_failover's
 * state changes, rewriting PgBouncer's {@code [databases]} entry and reloading it). Twice a second it asks each
 * node whether it is in recovery: the node that is not takes writes, whatever state the monitor shows.
 */
final class BouncerFollowsPrimary implements AutoCloseable {

    private static final Duration EVERY = Duration.ofMillis(500);

    private final int bouncerPort;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int ledTo;

    private BouncerFollowsPrimary(int bouncerPort) {
        this.bouncerPort = bouncerPort;
        this.thread = new Thread(this::follow, "bouncer-follows-primary");
        this.thread.setDaemon(true);
    }

    /** Leads PgBouncer on {@code bouncerPort} to the primary now, then follows it until closed. */
    static BouncerFollowsPrimary start(int bouncerPort) throws IOException, InterruptedException {
        BouncerFollowsPrimary follower = new BouncerFollowsPrimary(bouncerPort);
        int primary = primaryPort();
        if (primary < 0) {
            throw new IllegalStateException("the formation has no primary to lead PgBouncer to");
        }
        follower.leadTo(primary);
        follower.thread.start();
        return follower;
    }

    private void follow() {
        while (running) {
            try {
                int primary = primaryPort();
                if (primary > 0 && primary != ledTo) {
                    leadTo(primary);
                }
                Thread.sleep(EVERY.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                System.out.println("bouncer-follows-primary: " + e);
            }
        }
    }

    /** The port of the node that takes writes, or -1 while none answers as one. */
    private static int primaryPort() {
        for (String host : Formation.HOSTS.split(",")) {
            try (Connection connection = DriverManager.getConnection("jdbc:postgresql://" + host
                    + "/postgres?connectTimeout=1&socketTimeout=2", "postgres", "");
                 Statement statement = connection.createStatement();
                 ResultSet result = statement.executeQuery("SELECT pg_is_in_recovery()")) {
                if (result.next() && !result.getBoolean(1)) {
                    return Integer.parseInt(host.substring(host.indexOf(':') + 1));
                }
            } catch (SQLException downOrStarting) {
                // not the primary now
            }
        }
        return -1;
    }

    private void leadTo(int primary) throws IOException, InterruptedException {
        Commands.run(List.of(TestDatabase.PGBOUNCER_SCRIPT, "retarget", Integer.toString(bouncerPort),
                Integer.toString(primary)), Duration.ofSeconds(10));
        System.out.printf("bouncer-follows-primary: PgBouncer on %d leads to %d from %d%n", bouncerPort, primary,
                System.currentTimeMillis());
        ledTo = primary;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(5_000);
    }
}

package dev.jobqueue.failure;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The pg_auto_failover formation that {@code pg-auto-failover.sh} runs on this machine: a monitor on port 6440, and
 * PostgreSQL nodes on 6441 and 6442, one primary and one secondary.
 */
final class Formation {

    static final String HOSTS = "127.0.0.1:6441,127.0.0.1:6442";
    private static final String SCRIPT = Path.of("pg-auto-failover.sh").toAbsolutePath().toString();

    private Formation() {
    }

    /** The script's command line for {@code action} and its arguments. */
    static List<String> command(String action, String... arguments) {
        List<String> command = new ArrayList<>(List.of(SCRIPT, action));
        command.addAll(List.of(arguments));
        return command;
    }

    /** Creates the formation, with {@code replication} sync or async, and the database {@code database} in it. */
    static void up(String replication, String database) throws IOException, InterruptedException {
        Commands.run(command("down"), Duration.ofMinutes(2));
        Commands.run(command("up", replication, database), Duration.ofMinutes(6));
    }

    static void down() throws IOException, InterruptedException {
        Commands.run(command("down"), Duration.ofMinutes(2));
    }

    /** Runs one of the script's actions: kill-primary, switchover, rejoin, wait-healthy, async, state. */
    static void run(String action) throws IOException, InterruptedException {
        Commands.run(command(action), Duration.ofMinutes(5));
    }

    /** The port of the node that is primary now, or -1 while none is. */
    static int primaryPort() throws IOException, InterruptedException {
        String out = Commands.output(command("primary")).strip();
        return out.matches("\\d+") ? Integer.parseInt(out) : -1;
    }
}

package dev.jobqueue.internal.wake;

import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.NodeSettings;
import dev.jobqueue.internal.dispatch.Dispatcher;
import dev.jobqueue.internal.store.ListenConnection;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Wakes this node's pollers as soon as another node commits jobs for them, on PostgreSQL. One thread from the
 * server's managed thread factory holds a pooled connection that LISTENs on the wake channel.
 *
 * <p>If the connection breaks, it logs once, tries again after one second, then after twice as long each time up
 * to the poll interval, and logs once when it listens again. Messages sent meanwhile are lost, so every queue is
 * polled once whenever listening starts. Polling stays the safety net: a message is only a hint.
 *
 * <p>LISTEN needs a database session of its own, which a pooler in transaction mode (PgBouncer) does not give:
 * {@value NodeSettings#LISTEN_DATASOURCE} then names a datasource that reaches PostgreSQL directly or through a
 * session-mode pool, or is {@value NodeSettings#NO_LISTEN_DATASOURCE} to leave other nodes' jobs to polling.
 */
@ApplicationScoped
public class NotifyListener {

    private static final Logger LOG = Logger.getLogger(NotifyListener.class.getName());

    /** How long one wait for messages lasts, and so the longest a stop waits for the thread to notice. */
    private static final Duration RECEIVE_WAIT = Duration.ofMillis(500);
    /** After this long without messages the connection is checked, so one dropped silently is noticed. */
    private static final Duration CHECK_AFTER = Duration.ofSeconds(10);
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    /** Unshareable, so a connection given back returns to the pool at once, not when the thread ends. */
    @Resource(lookup = JndiNames.DATASOURCE, shareable = false)
    DataSource dataSource;

    @Resource(lookup = JndiNames.THREAD_FACTORY)
    ManagedThreadFactory threads;

    @Inject
    Dispatcher dispatcher;

    @Inject
    WakeMessages messages;

    @Inject
    NodeSettings settings;

    private volatile boolean stopped;
    private volatile CountDownLatch stopping = new CountDownLatch(0);
    private volatile Thread thread;

    /**
     * Starts listening on a thread of its own; it ends at once if the database is not PostgreSQL.
     *
     * @param longestRetry the longest wait between attempts to listen again after a failure
     */
    public void start(Duration longestRetry) {
        Optional<DataSource> source = listenSource();
        if (source.isEmpty()) {
            return;
        }
        stopped = false;
        stopping = new CountDownLatch(1);
        Thread started = threads.newThread(() -> run(source.get(), longestRetry));
        started.setName("jobqueue-notify-listener");
        thread = started;
        started.start();
    }

    /** Stops listening and gives the connection back, waiting for that a few seconds at most. */
    public void stop() {
        stopped = true;
        stopping.countDown();
        Thread current = thread;
        if (current != null) {
            try {
                current.join(STOP_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The datasource to listen through, or empty if this node does not listen. */
    private Optional<DataSource> listenSource() {
        Optional<String> configured = settings.listenDatasource();
        if (configured.isEmpty()) {
            return Optional.of(dataSource);
        }
        if (configured.get().equals(NodeSettings.NO_LISTEN_DATASOURCE)) {
            LOG.info("jobqueue: not listening for jobs put on other nodes (" + NodeSettings.LISTEN_DATASOURCE + "="
                    + NodeSettings.NO_LISTEN_DATASOURCE + "); they start at the next poll");
            return Optional.empty();
        }
        try {
            return Optional.of(InitialContext.<DataSource>doLookup(configured.get()));
        } catch (NamingException | ClassCastException e) {
            LOG.warning(Messages.listenDatasourceMissing(configured.get(), e));
            return Optional.empty();
        }
    }

    private void run(DataSource source, Duration longestRetry) {
        Duration retry = FIRST_RETRY;
        boolean failing = false;
        while (!stopped) {
            try {
                Optional<ListenConnection> opened = ListenConnection.open(source);
                if (opened.isEmpty()) {
                    return;
                }
                try (ListenConnection listening = opened.get()) {
                    LOG.info(failing ? "jobqueue: listening for jobs put on other nodes again; polling every queue"
                            + " once for those put meanwhile" : "jobqueue: listening for jobs put on other nodes"
                            + " (PostgreSQL LISTEN " + ListenConnection.CHANNEL + ")");
                    failing = false;
                    retry = FIRST_RETRY;
                    dispatcher.wakeAll();
                    listen(listening);
                }
            } catch (SQLFeatureNotSupportedException e) {
                LOG.warning("jobqueue: " + e.getMessage() + "; jobs put on other nodes start at the next poll");
                return;
            } catch (SQLException | RuntimeException e) {
                if (stopped) {
                    return;
                }
                if (!failing) {
                    failing = true;
                    LOG.warning("jobqueue: cannot listen for jobs put on other nodes and tries again, at the latest"
                            + " every " + longestRetry + "; until then they start at the next poll: " + e);
                }
                pause(retry);
                retry = retry.multipliedBy(2).compareTo(longestRetry) > 0 ? longestRetry : retry.multipliedBy(2);
            }
        }
    }

    private void listen(ListenConnection listening) throws SQLException {
        long quietSince = System.nanoTime();
        while (!stopped) {
            List<String> received = listening.receive(RECEIVE_WAIT);
            for (String message : received) {
                messages.queueToWake(message).ifPresent(dispatcher::wake);
            }
            if (!received.isEmpty()) {
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince > CHECK_AFTER.toNanos()) {
                if (!listening.isValid(CHECK_TIMEOUT)) {
                    throw new SQLException("the listening connection no longer answers");
                }
                quietSince = System.nanoTime();
            }
        }
    }

    private void pause(Duration wait) {
        try {
            stopping.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }
}

package dev.jobqueue.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.internal.JndiNames;
import dev.jobqueue.internal.store.ClaimStart;
import dev.jobqueue.internal.store.ClaimStore;
import dev.jobqueue.internal.store.ClaimedJob;
import dev.jobqueue.it.app.Confirmation;
import dev.jobqueue.it.app.ConfirmationConsumer;
import dev.jobqueue.it.app.FlakyConsumer;
import dev.jobqueue.it.app.InstantConsumer;
import dev.jobqueue.it.app.OrderService;
import dev.jobqueue.it.app.PlacedOrder;
import dev.jobqueue.it.app.Recorder;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** How jobs are claimed: never blocked by another claimer's locks, and started at once after a local commit. */
@ExtendWith(ArquillianExtension.class)
class ClaimIT {

    @Deployment
    static WebArchive app() {
        return Deployments.war("claim", Confirmation.class, Confirmation.Line.class, OrderService.class,
                PlacedOrder.class, Recorder.class, ConfirmationConsumer.class, FlakyConsumer.class,
                InstantConsumer.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    ClaimStore store;

    @Inject
    Recorder recorder;

    @EJB
    OrderService orders;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    /** The datasource jobqueue writes through. */
    @Resource(lookup = JndiNames.DATASOURCE)
    DataSource dataSource;

    @Test
    void a_claim_skips_rows_another_transaction_holds_locked_instead_of_waiting_for_them() throws Exception {
        String queue = "skip-locked-" + UUID.randomUUID().toString().substring(0, 8);
        JobId locked = jobs.put(queue, "locked");
        JobId free = jobs.put(queue, "free");
        transaction.begin();
        try {
            orders.lockJobRow(locked);
            // Without SKIP LOCKED each claim waits for the lock, past this timeout. MariaDB once, in .ci/run right
            // after ClaimPlanIT deleted a million rows, answered a claim with no row at all: a claim may skip more
            // than the locked row, and the next one takes it. So up to three claims, none waiting, none taking the
            // locked row, and one of them the free one.
            List<String> claimed = new ArrayList<>();
            for (int attempt = 0; attempt < 3 && claimed.isEmpty(); attempt++) {
                Instant now = Instant.now();
                Future<List<ClaimedJob>> claim = executor.submit(() -> store.claim(queue, 10,
                        UUID.randomUUID().toString(), "claim-it", now, now.plusSeconds(60), true, null));
                claim.get(5, TimeUnit.SECONDS).forEach(job -> claimed.add(job.id()));
            }

            assertEquals(List.of(free.toString()), claimed);
        } finally {
            transaction.rollback();
            orders.deleteJobs(queue);
        }
    }

    @Test
    void a_claim_from_a_start_takes_the_jobs_of_its_priority_due_from_then_and_a_claim_from_the_first_the_rest()
            throws Exception {
        String queue = "claim-start-" + UUID.randomUUID().toString().substring(0, 8);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        JobId oldest = jobs.put(queue, "oldest", JobOptions.defaults().runAt(now.minusSeconds(30)));
        JobId older = jobs.put(queue, "older", JobOptions.defaults().runAt(now.minusSeconds(20)));
        JobId newest = jobs.put(queue, "newest", JobOptions.defaults().runAt(now.minusSeconds(10)));
        JobId urgent = jobs.put(queue, "urgent", JobOptions.defaults().priority(5).runAt(now.minusSeconds(25)));
        JobId later = jobs.put(queue, "later", JobOptions.defaults().runAt(now.plusSeconds(60)));
        try {
            List<String> fromStart = claimIds(queue, new ClaimStart(0, now.minusSeconds(20)));
            if (onMariaDb()) {
                // InnoDB would lock the first entry past the start's range, another queue's or priority's first
                // due job, until the claim commits: MariaDB reads from the first due job always.
                assertEquals(List.of(urgent.toString(), oldest.toString(), older.toString(), newest.toString()),
                        fromStart, "every due job, in claim order");
            } else {
                assertEquals(List.of(older.toString(), newest.toString()), fromStart,
                        "priority 0, due 20 s ago or later");
                assertEquals(List.of(urgent.toString(), oldest.toString()), claimIds(queue, null),
                        "from the first due job: the higher priority first, and the job before the start");
            }
            assertEquals(List.of(), claimIds(queue, null), later + " is not due");
        } finally {
            orders.deleteJobs(queue);
        }
    }

    private boolean onMariaDb() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            return connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("mariadb");
        }
    }

    private List<String> claimIds(String queue, ClaimStart start) {
        Instant now = Instant.now();
        return store.claim(queue, 10, UUID.randomUUID().toString(), "claim-it", now, now.plusSeconds(60), true, start)
                .stream().map(ClaimedJob::id).toList();
    }

    @Test
    void a_job_put_on_this_node_starts_after_commit_without_waiting_for_the_next_poll() throws Exception {
        // The "instant" queue is polled once an hour (see microprofile-config.properties).
        JobId id = jobs.put("instant", "now");

        assertEquals(1, recorder.await(id, 1, Duration.ofSeconds(10)).size());
    }
}

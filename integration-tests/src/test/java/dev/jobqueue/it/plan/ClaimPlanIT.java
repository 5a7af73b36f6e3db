package dev.jobqueue.it.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Deployments;
import jakarta.ejb.EJB;
import java.util.List;
import java.util.Locale;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With 1,000,000 DONE and FAILED jobs, 10,000 PENDING ones and 1,000 WAITING ones in one queue, the claim reads
 * the index of PENDING jobs rather than the table, a claim from a start reads it from there (PostgreSQL), and the counts of the depth gauges and {@code GET /queues}
 * read, for each state, only that state's index entries; on PostgreSQL the finish of a job goes to its row by an
 * index condition. Run on PostgreSQL and MariaDB only (the pom excludes
 * it on H2, the embedded development database).
 */
@ExtendWith(ArquillianExtension.class)
class ClaimPlanIT {

    private static final int FINISHED = 1_000_000;
    private static final int PENDING = 10_000;
    private static final int WAITING = 1_000;
    private static final List<String> STATES = List.of("PENDING", "RUNNING", "WAITING", "DONE", "FAILED",
            "CANCELLED");

    @Deployment
    static WebArchive app() {
        return Deployments.war("plan", "plan", ClaimPlan.class);
    }

    @EJB
    ClaimPlan plan;

    @Test
    void the_claim_and_the_counts_read_indexes_under_a_million_finished_jobs() {
        String database = plan.database().toLowerCase(Locale.ROOT);
        boolean postgres = database.contains("postgres");
        plan.clear();
        try {
            plan.fill(postgres ? "generate_series(1, %d) AS s(n)" : "(SELECT seq AS n FROM seq_1_to_%d) s",
                    FINISHED, PENDING, WAITING);
            if (postgres) {
                System.out.println("jobqueue plan table all-visible after " + plan.vacuumPostgres()
                        + " VACUUM round(s)");
            } else {
                plan.analyzeMariaDb();
            }
            String explained = plan.explainClaim();
            System.out.println("jobqueue claim plan on " + database + " with " + FINISHED + " DONE/FAILED and "
                    + PENDING + " PENDING jobs:\n" + explained);

            assertTrue(explained.contains(postgres ? "jobqueue_job_pending" : "jobqueue_job_state"), explained);
            assertFalse(postgres ? explained.contains("Seq Scan on jobqueue_job j")
                    : explained.matches("(?s).*\\| j \\| ALL \\|.*"), explained);

            if (postgres) {
                // A claim from a start reads an index of PENDING jobs from that start: the due time bounds the scan,
                // in the claim order's index or, where the queue is most of the PENDING jobs, in the index by due
                // time. MariaDB claims from the first due job always (Database.claimsFromAPlace).
                String fromStart = plan.explainClaimFromStart();
                System.out.println("jobqueue claim plan from a start on " + database + ":\n" + fromStart);
                assertTrue(fromStart.matches("(?s).*Index Scan using jobqueue_job_(pending|due) on jobqueue_job j\\s+"
                        + "\\(cost[^\\n]*\\n\\s*Index Cond: [^\\n]*run_at >= .*"), fromStart);

                // The statistics of this table show no RUNNING job: an index of RUNNING jobs then looks empty, and
                // the finish must still go straight to its row rather than read such an index whole.
                String finish = plan.explainFinishPostgres();
                System.out.println("jobqueue finish plan on " + database + ":\n" + finish);
                assertTrue(finish.matches("(?s).*Index Scan using jobqueue_job_(pkey|lease) on jobqueue_job\\s+"
                        + "\\(cost[^\\n]*\\n\\s*Index Cond: .*"), finish);
            }

            for (String state : STATES) {
                String count = plan.explainCount(state);
                System.out.println("jobqueue count plan of " + state + " on " + database + ":\n" + count + "\n"
                        + plan.timeCount(state));
                if (postgres) {
                    // An index of that state only: its partial index, or for RUNNING an index of leases.
                    assertFalse(count.contains("Seq Scan"), count);
                    assertTrue(count.matches("(?s).*Index (Only )?Scan using jobqueue_job_(pending|running_expiry|"
                            + "lease|waiting|done|failed|cancelled).*"), count);
                } else {
                    // A range of the index that starts with the state, read without the rows ("Using index").
                    assertTrue(count.matches("(?s).*\\| range \\|.*jobqueue_job_state.*Using index.*")
                            || count.matches("(?s).*\\| ref \\|.*jobqueue_job_(state|lease_expiry).*Using index.*"),
                            count);
                }
            }
        } finally {
            plan.clear();
        }
    }
}

package dev.jobqueue.it.plan;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Deployments;
import jakarta.ejb.EJB;
import java.util.Locale;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With 1,000,000 DONE and FAILED jobs and 10,000 PENDING ones in one queue, the claim reads the index of
 * PENDING jobs rather than the table. Run on PostgreSQL and MariaDB only (the pom excludes it on H2, the
 * embedded development database).
 */
@ExtendWith(ArquillianExtension.class)
class ClaimPlanIT {

    private static final int FINISHED = 1_000_000;
    private static final int PENDING = 10_000;

    @Deployment
    static WebArchive app() {
        return Deployments.war("plan", "plan", ClaimPlan.class);
    }

    @EJB
    ClaimPlan plan;

    @Test
    void the_claim_uses_the_pending_index_under_a_million_finished_jobs() {
        String database = plan.database().toLowerCase(Locale.ROOT);
        boolean postgres = database.contains("postgres");
        plan.clear();
        try {
            plan.fill(postgres ? "generate_series(1, %d) AS s(n)" : "(SELECT seq AS n FROM seq_1_to_%d) s",
                    FINISHED, PENDING);
            if (postgres) {
                plan.analyzePostgres();
            } else {
                plan.analyzeMariaDb();
            }
            String explained = plan.explainClaim();
            System.out.println("jobqueue claim plan on " + database + " with " + FINISHED + " DONE/FAILED and "
                    + PENDING + " PENDING jobs:\n" + explained);

            assertTrue(explained.contains("jobqueue_job_pending"), explained);
            assertFalse(postgres ? explained.contains("Seq Scan on jobqueue_job j")
                    : explained.matches("(?s).*\\| j \\| ALL \\|.*"), explained);
        } finally {
            plan.clear();
        }
    }
}

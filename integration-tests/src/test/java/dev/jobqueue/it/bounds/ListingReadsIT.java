package dev.jobqueue.it.bounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobId;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin listing of dead letters does not read their payloads. PostgreSQL keeps a large value out of line,
 * in the table's TOAST relation, and counts every block read from it: listing 200 jobs whose payloads are
 * 64 KB each reads none, while showing one job's whole payload does. Tagged {@code postgresql}: the other
 * databases have no such counter.
 */
@Tag("postgresql")
@ExtendWith(ArquillianExtension.class)
class ListingReadsIT {

    private static final String QUEUE = "bounds-toasted";
    private static final String TOAST_BLOCKS = "SELECT COALESCE(toast_blks_read, 0) + COALESCE(toast_blks_hit, 0)"
            + " FROM pg_statio_user_tables WHERE relname = 'jobqueue_job'";

    @Deployment
    static WebArchive app() {
        return Deployments.war("bounds-listing", "bounds-plain", JobRows.class);
    }

    @Inject
    JobAdmin admin;

    @EJB
    JobRows rows;

    @Test
    void listing_dead_letters_reads_none_of_their_payloads() throws Exception {
        rows.execute("DELETE FROM jobqueue_job WHERE queue = ?1", QUEUE);
        // 2,000 md5 hashes: 64 KB that compress too little to stay in the row.
        rows.execute("""
                INSERT INTO jobqueue_job (id, queue, state, payload, attempts, priority, run_at, created_at, finished_at,
                    last_error)
                SELECT gen_random_uuid()::text, ?1, 'FAILED',
                    '"' || (SELECT string_agg(md5(random()::text || n || g), '') FROM generate_series(1, 2000) g) || '"',
                    1, 0, now(), now(), now(), 'failed'
                FROM generate_series(1, 200) n""", QUEUE);
        try {
            // The counter is the whole table's, and other work on the shared database can add to it while the
            // listing runs. A listing that read the 200 payloads would add some 1,600 blocks every time, so one
            // quiet try out of three shows it reads none.
            List<Long> readByListing = new ArrayList<>();
            for (int attempt = 0; attempt < 3 && !readByListing.contains(0L); attempt++) {
                long before = settledToastBlocks();
                assertEquals(200, admin.failed(QUEUE, 0, 500).size());
                readByListing.add(settledToastBlocks() - before);
            }
            long afterListing = settledToastBlocks();

            JobId one = admin.failed(QUEUE, 0, 1).get(0).id();
            assertEquals(64_002, admin.job(one).orElseThrow().payloadLength());
            assertTrue(Await.until(() -> rows.countSql(TOAST_BLOCKS) > afterListing, Duration.ofSeconds(15)),
                    "showing one whole payload reads the TOAST relation, so the counter works");
            assertTrue(readByListing.contains(0L), "every listing read TOAST blocks, so it read payloads: "
                    + readByListing);
        } finally {
            rows.execute("DELETE FROM jobqueue_job WHERE queue = ?1", QUEUE);
        }
    }

    /** The counter once the server's connections have reported their reads (PostgreSQL flushes within a second or so of idling). */
    private long settledToastBlocks() throws Exception {
        long last = rows.countSql(TOAST_BLOCKS);
        while (true) {
            Thread.sleep(2_500);
            long now = rows.countSql(TOAST_BLOCKS);
            if (now == last) {
                return now;
            }
            last = now;
        }
    }
}

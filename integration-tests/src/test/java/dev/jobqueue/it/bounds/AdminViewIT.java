package dev.jobqueue.it.bounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.AttemptError;
import dev.jobqueue.JobAdmin.JobDetails;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.AdminHttp;
import dev.jobqueue.it.Deployments;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin job view shows a large payload only when asked, and a job's error history is bounded and paged.
 */
@ExtendWith(ArquillianExtension.class)
class AdminViewIT {

    private static final String APP = "bounds-admin";

    @Deployment
    static WebArchive app() {
        return Deployments.war(APP, "bounds-admin", FailingConsumer.class, JobRows.class, AdminHttp.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @EJB
    JobRows rows;

    @Test
    void the_job_view_cuts_a_large_payload_and_says_so_unless_the_whole_payload_is_asked_for() throws Exception {
        String payload = "p".repeat(100_000);
        JobId id = jobs.put("bounds-parked", payload);
        try {
            JsonObject cut = AdminHttp.json(AdminHttp.get(APP, "/jobs/" + id)).asJsonObject();
            JsonObject whole = AdminHttp.json(AdminHttp.get(APP, "/jobs/" + id + "?payload=full")).asJsonObject();

            assertEquals(65_536, cut.getString("payload").length());
            assertTrue(cut.getString("payload").startsWith("\"ppp"), "the payload's beginning");
            assertTrue(cut.getBoolean("payloadTruncated"));
            assertEquals(100_002, cut.getJsonNumber("payloadLength").longValue(), "the JSON string, quotes included");
            // Compared without printing 100,000 characters if they differ.
            assertTrue(("\"" + payload + "\"").equals(whole.getString("payload")),
                    "the whole payload, " + whole.getString("payload").length() + " characters");
            assertFalse(whole.getBoolean("payloadTruncated"));
            assertEquals(400, AdminHttp.get(APP, "/jobs/" + id + "?payload=all").statusCode());
        } finally {
            rows.execute("DELETE FROM jobqueue_job WHERE id = ?1", id.toString());
        }
    }

    @Test
    void a_small_payload_is_shown_whole() throws Exception {
        JobId id = jobs.put("bounds-parked", "small");
        try {
            JobDetails details = admin.job(id, 65_536).orElseThrow();

            assertEquals("\"small\"", details.payload());
            assertFalse(details.payloadTruncated());
            assertEquals(7, details.payloadLength());
        } finally {
            rows.execute("DELETE FROM jobqueue_job WHERE id = ?1", id.toString());
        }
    }

    @Test
    void a_job_keeps_its_first_5_and_last_20_errors_and_they_are_paged() throws Exception {
        JobId id = jobs.put("bounds-failing", "doomed");
        assertTrue(Await.until(() -> admin.job(id, 0).map(job -> job.summary().state().equals("FAILED"))
                .orElse(false), Duration.ofSeconds(60)), "the job used its 40 attempts");

        JobDetails details = admin.job(id, 0).orElseThrow();
        List<Integer> kept = details.errors().stream().map(AttemptError::attempt).toList();
        List<Integer> expected = IntStream.concat(IntStream.rangeClosed(1, 5), IntStream.rangeClosed(21, 40))
                .boxed().toList();
        assertEquals(expected, kept);
        assertEquals(25, details.errorCount());
        assertEquals(25, rows.countSql("SELECT COUNT(*) FROM jobqueue_job_error WHERE job_id = ?1", id.toString()));
        assertTrue(details.errors().get(24).error().contains("attempt 40 fails"), details.errors().get(24).error());

        assertEquals(List.of(26, 27, 28, 29, 30, 31, 32, 33, 34, 35),
                admin.errors(id, 1, 10).stream().map(AttemptError::attempt).toList());
        JsonArray page = AdminHttp.json(AdminHttp.get(APP, "/jobs/" + id + "/errors?page=2&size=10")).asJsonArray();
        assertEquals(List.of(36, 37, 38, 39, 40),
                page.stream().map(error -> error.asJsonObject().getInt("attempt")).toList());
        assertEquals(404, AdminHttp.get(APP, "/jobs/" + JobId.random() + "/errors").statusCode());
    }
}

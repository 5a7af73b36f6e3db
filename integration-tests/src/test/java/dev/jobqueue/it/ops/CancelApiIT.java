package dev.jobqueue.it.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Deployments;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin API's cancels, of one job, of jobs by id and of the jobs that match a filter, with the roles and the
 * CSRF header of every change. The jobs go on queues no consumer takes, so they stay PENDING until cancelled.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class CancelApiIT {

    private static final String APP = "ops-cancel";
    private static final String ADMIN = "/" + APP + "/jobqueue/admin";
    private static final ProbeClient OPS = new ProbeClient(APP, "CancelApiIT");

    @Deployment(testable = false)
    static WebArchive app() {
        return Deployments.war(APP, "ops", OpsProbe.class, OpsProbeApplication.class);
    }

    @Test
    void an_admin_cancels_one_job_and_the_answer_says_what_changed() throws Exception {
        String queue = held();
        String id = OPS.probe("/" + queue);
        String child = OPS.probe("/" + queue + "/after/" + id);

        HttpResponse<String> cancelled = OPS.admin("POST", "/jobs/" + id + "/cancel", null);

        assertEquals("CANCELLED", OPS.json(cancelled).getString("outcome"), cancelled.body());
        assertEquals("CANCELLED 0", OPS.row(id));
        assertEquals("FAILED 0", OPS.row(child), "the job that waited for it");
        assertEquals("FINISHED", OPS.json(OPS.admin("POST", "/jobs/" + id + "/cancel", null)).getString("outcome"));
        HttpResponse<String> unknown = OPS.admin("POST", "/jobs/" + UUID.randomUUID() + "/cancel", null);
        assertEquals(404, unknown.statusCode(), unknown.body());
        assertTrue(unknown.body().contains("JQ071"), unknown.body());

        assertEquals(204, OPS.admin("POST", "/jobs/" + id + "/retry", null).statusCode(), "a CANCELLED job retried");
        assertEquals("PENDING 0", OPS.row(id));
    }

    @Test
    void cancels_by_id_and_by_filter_take_only_the_jobs_that_have_not_started() throws Exception {
        String queue = held();
        String first = OPS.probe("/" + queue);
        String second = OPS.probe("/" + queue);
        String other = OPS.probe("/" + held());

        HttpResponse<String> byId = OPS.admin("POST", "/jobs/cancel", "{\"ids\":[\"" + first + "\",\"" + first
                + "\",\"" + UUID.randomUUID() + "\"]}");
        assertEquals(1, OPS.json(byId).getInt("count"), byId.body());

        HttpResponse<String> byFilter = OPS.admin("POST", "/jobs/cancel-matching?queue=" + queue, null);
        assertEquals(1, OPS.json(byFilter).getInt("count"), byFilter.body());
        assertEquals("CANCELLED 0", OPS.row(first));
        assertEquals("CANCELLED 0", OPS.row(second));
        assertEquals("PENDING 0", OPS.row(other), "another queue's job");

        for (String refused : new String[] {"", "?state=PENDING", "?queue=", "?queue=" + queue + "&state=DONE"}) {
            HttpResponse<String> answer = OPS.admin("POST", "/jobs/cancel-matching" + refused, null);
            assertEquals(400, answer.statusCode(), refused + ": " + answer.body());
            assertTrue(answer.body().contains("JQ070"), answer.body());
        }
        assertEquals("PENDING 0", OPS.row(other));
    }

    @Test
    void a_cancel_by_a_viewer_an_outsider_or_without_the_header_is_refused_and_changes_nothing() throws Exception {
        String id = OPS.probe("/" + held());
        String path = ADMIN + "/jobs/" + id + "/cancel";

        assertEquals(403, Http.send("POST", path, "viewer", "viewer-secret", Map.of("X-Requested-By", "test"), null)
                .statusCode());
        assertEquals(403, Http.send("POST", path, "outsider", "outsider-secret", Map.of("X-Requested-By", "test"),
                null).statusCode());
        HttpResponse<String> withoutHeader = Http.send("POST", path, "admin", "admin-secret");
        assertEquals(403, withoutHeader.statusCode(), withoutHeader.body());
        assertTrue(withoutHeader.body().contains("JQ080"), withoutHeader.body());
        assertEquals(403, Http.send("POST", ADMIN + "/jobs/cancel-matching?id=" + id, "viewer", "viewer-secret",
                Map.of("X-Requested-By", "test"), null).statusCode());

        assertEquals("PENDING 0", OPS.row(id));
    }

    /** A queue of its own that no consumer takes. */
    private static String held() {
        return "cancel-held-" + UUID.randomUUID().toString().substring(0, 8);
    }
}

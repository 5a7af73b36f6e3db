package dev.jobqueue.it.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.ops.Http;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With {@code jobqueue.dashboard.show-payloads=false}, for queues that carry personal data, a job's payload is in
 * neither the dashboard's page nor any answer of the admin API, however it is asked for.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag("any-database")
class DashboardHiddenPayloadIT {

    private static final String APP = "dashboard-private";
    private static final String ADMIN_API = "/" + APP + "/jobqueue/admin";

    @Deployment(testable = false)
    static WebArchive app() {
        return Deployments.war(APP, "dashboard-private", DashboardApp.class, DashboardApp.RootApplication.class,
                DashboardApp.PrivateConsumer.class, DashboardApp.Probe.class, DashboardApp.Actions.class);
    }

    @Test
    void a_payload_is_in_neither_the_page_nor_any_response() throws Exception {
        String secret = "card-" + UUID.randomUUID();
        HttpResponse<String> put = Http.send("POST", "/" + APP + "/probe/put?queue=dash-private&count=1&payload="
                + secret, null, null);
        assertEquals(200, put.statusCode(), put.body());
        String id = put.body().strip();
        assertTrue(Await.until(() -> get("/jobs/" + id + "?payload=none").contains("\"FAILED\""),
                Duration.ofSeconds(20)), get("/jobs/" + id + "?payload=none"));

        for (String path : List.of("/jobs/" + id, "/jobs/" + id + "?payload=full", "/jobs/" + id + "?payload=truncated",
                "/jobs/" + id + "/options", "/jobs/" + id + "/errors", "/jobs?queue=dash-private",
                "/jobs?queue=dash-private&state=FAILED", "/failed?queue=dash-private", "/overview", "/me")) {
            String body = get(path);
            assertFalse(body.contains(secret), path + ": " + body);
        }
        assertTrue(get("/me").contains("\"showPayloads\":false"), get("/me"));

        try (Browser admin = new Browser().as("admin", "admin-secret")) {
            admin.open(APP, "#/job/" + id);
            assertTrue(admin.text("#payload-hidden").contains("show-payloads=false"));
            assertEquals(List.of(), admin.all("#show-payload"));
            Thread.sleep(1_000);
            assertFalse(admin.pageSource().contains(secret), "the job page holds no payload");
            admin.screenshot("job-payload-hidden");
        }
    }

    private static String get(String path) throws Exception {
        HttpResponse<String> response = Http.send("GET", ADMIN_API + path, "admin", "admin-secret");
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return response.body();
    }
}

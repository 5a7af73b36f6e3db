package dev.jobqueue.it.shutdown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Deployments;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Stopping an application mid-job: the job is released within the grace period, keeps its attempt and its due
 * time, and the next deployment picks it up at start-up.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ShutdownIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "shutdown-slow", managed = false, testable = false)
    static WebArchive slow() {
        return Deployments.war("shutdown-slow", "shutdown", JobProbe.class, Started.class, ProbeApplication.class,
                SlowShutdownConsumer.class);
    }

    @Deployment(name = "shutdown-fast", managed = false, testable = false)
    static WebArchive fast() {
        return Deployments.war("shutdown-fast", "shutdown", JobProbe.class, Started.class, ProbeApplication.class,
                FastShutdownConsumer.class);
    }

    @Test
    void stopping_the_application_releases_running_jobs_which_the_next_start_runs() throws Exception {
        deployer.deploy("shutdown-slow");
        String id = send("POST", "shutdown-slow", "jobs");
        awaitRow("shutdown-slow", id, "RUNNING 1 true true");

        long stopping = System.nanoTime();
        deployer.undeploy("shutdown-slow");
        Duration stopTook = Duration.ofNanos(System.nanoTime() - stopping);
        System.out.println("ShutdownIT: the application stopped in " + stopTook.toMillis() + " ms with a 1 s grace");
        assertTrue(stopTook.compareTo(Duration.ofSeconds(10)) < 0, "stopped within the grace plus a few seconds: "
                + stopTook);

        deployer.deploy("shutdown-fast");
        try {
            // Polls are an hour apart here, so only the poll at start-up can have found the released job;
            // its attempt was given back, so the new run is attempt 1 again, and it kept its due time.
            awaitRow("shutdown-fast", id, "DONE 1 true true");
        } finally {
            deployer.undeploy("shutdown-fast");
        }
    }

    private static void awaitRow(String app, String id, String expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String row = send("GET", app, "jobs/" + id);
        while (!row.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            row = send("GET", app, "jobs/" + id);
        }
        assertEquals(expected, row);
    }

    private static String send(String method, String app, String path) throws Exception {
        URI uri = URI.create("http://localhost:" + System.getProperty("it.http.port") + "/" + app + "/probe/" + path);
        HttpRequest request = HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), uri + " answered " + response.body());
        return response.body().trim();
    }
}

package dev.jobqueue.it.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * A client-side test's hands on an application of {@link OpsProbe}'s: its admin API, called as an admin with the
 * CSRF header, and its probe, which puts jobs and reads their rows.
 */
final class ProbeClient {

    private final String app;
    private final String caller;

    /** @param caller the {@code X-Requested-By} of the admin calls: the test's name */
    ProbeClient(String app, String caller) {
        this.app = app;
        this.caller = caller;
    }

    HttpResponse<String> admin(String method, String path, String body) {
        try {
            return Http.send(method, "/" + app + "/jobqueue/admin" + path, "admin", "admin-secret",
                    Map.of("X-Requested-By", caller), body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The body of a 200 answer. */
    JsonObject json(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    /** POSTs to the probe; returns what it answered, the id of the job it put. */
    String probe(String path) throws Exception {
        HttpResponse<String> response = Http.send("POST", "/" + app + "/test/ops-probe" + path, null, null);
        assertEquals(200, response.statusCode(), response.body());
        return response.body().trim();
    }

    /** "state attempts" of the job's row, or "missing". */
    String row(String id) throws Exception {
        return Http.send("GET", "/" + app + "/test/ops-probe/jobs/" + id, null, null).body().trim();
    }

    /** Waits up to 20 s for the job's row to read {@code expected}. */
    void awaitRow(String id, String expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        String row = row(id);
        while (!row.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            row = row(id);
        }
        assertEquals(expected, row, "job " + id);
    }
}

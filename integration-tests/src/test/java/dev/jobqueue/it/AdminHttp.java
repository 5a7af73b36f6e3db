package dev.jobqueue.it;

import jakarta.json.Json;
import jakarta.json.JsonStructure;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.eclipse.microprofile.config.ConfigProvider;

/** Calls the admin REST API of a test application, from the test or inside the server, as the admin user. */
public final class AdminHttp {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private AdminHttp() {
    }

    /** GETs {@code path} under {@code /<app>/jobqueue/admin}; returns the response. */
    public static HttpResponse<String> get(String app, String path) throws Exception {
        return CLIENT.send(request(app, path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** DELETEs {@code path} under {@code /<app>/jobqueue/admin}, as an admin tool does; returns the response. */
    public static HttpResponse<String> delete(String app, String path) throws Exception {
        return CLIENT.send(request(app, path).header("X-Requested-By", "jobqueue-it").DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs to {@code path} under {@code /<app>/jobqueue/admin}, as an admin tool does; returns the response. */
    public static HttpResponse<String> post(String app, String path) throws Exception {
        return CLIENT.send(request(app, path).header("X-Requested-By", "jobqueue-it")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs a JSON body to {@code path} under {@code /<app>/jobqueue/admin}, as an admin tool does. */
    public static HttpResponse<String> postJson(String app, String path, String json) throws Exception {
        return CLIENT.send(request(app, path).header("X-Requested-By", "jobqueue-it")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** PUTs a JSON body to {@code path} under {@code /<app>/jobqueue/admin}, as an admin tool does. */
    public static HttpResponse<String> put(String app, String path, String json) throws Exception {
        return CLIENT.send(request(app, path).header("X-Requested-By", "jobqueue-it")
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String app, String path) {
        String port = System.getProperty("jobqueue.it.http.port." + app, System.getProperty("it.http.port"));
        if (port == null) {
            port = ConfigProvider.getConfig().getOptionalValue("jobqueue.it.http.port", String.class).orElse("9181");
        }
        String credentials = Base64.getEncoder()
                .encodeToString("admin:admin-secret".getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/" + app + "/jobqueue/admin" + path))
                .header("Authorization", "Basic " + credentials);
    }

    public static JsonStructure json(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            throw new AssertionError("expected 200, got " + response.statusCode() + ": " + response.body());
        }
        return Json.createReader(new StringReader(response.body())).read();
    }
}

package dev.jobqueue.it.ops;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/** A small HTTP client for the tests that talk to the server as operators do. */
public final class Http {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private Http() {
    }

    public static String base() {
        return "http://localhost:" + port("it.http.port", "9181");
    }

    /**
     * Where the server answers MicroProfile Health's {@code /health}: on the HTTP port on Liberty, on the
     * management interface on WildFly. The build names its port in {@code it.health.port}, and in
     * {@code jobqueue.it.health.port} for tests inside the server; without either it is the HTTP port.
     */
    public static String healthBase() {
        return "http://localhost:" + port("it.health.port", port("it.http.port", "9181"));
    }

    /** A port from a system property (outside the server), or its MicroProfile Config key {@code jobqueue.<name>}. */
    private static String port(String property, String otherwise) {
        String port = System.getProperty(property);
        if (port == null) {
            port = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                    .getOptionalValue("jobqueue." + property, String.class).orElse(otherwise);
        }
        return port;
    }

    /** GETs a MicroProfile Health path, such as {@code /health/ready}, where the server serves it. */
    public static HttpResponse<String> health(String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(healthBase() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The server of the application that {@code path} starts with: on Payara each deployment runs in a server of
     * its own, and one deployed beside another gets the next port, which the container publishes as the system
     * property {@code jobqueue.it.http.port.<application>}.
     */
    static String base(String path) {
        String application = path.replaceFirst("^/", "").split("[/?]", 2)[0];
        String port = System.getProperty("jobqueue.it.http.port." + application);
        return port == null ? base() : "http://localhost:" + port;
    }

    public static HttpResponse<String> send(String method, String path, String user, String password)
            throws Exception {
        return send(method, path, user, password, Map.of());
    }

    public static HttpResponse<String> send(String method, String path, String user, String password,
            Map<String, String> headers) throws Exception {
        return send(method, path, user, password, headers, null);
    }

    /** Sends {@code body}, if not null, as JSON. */
    public static HttpResponse<String> send(String method, String path, String user, String password,
            Map<String, String> headers, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base(path) + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (user != null) {
            String credentials = Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
            request.header("Authorization", "Basic " + credentials);
        }
        headers.forEach(request::header);
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    public static HttpResponse<String> get(String path) throws Exception {
        return send("GET", path, null, null);
    }
}

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
        String port = System.getProperty("it.http.port");
        if (port == null) {
            port = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                    .getOptionalValue("jobqueue.it.http.port", String.class).orElse("9181");
        }
        return "http://localhost:" + port;
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
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path))
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

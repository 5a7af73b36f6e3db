package dev.jobqueue.it.ops;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/** A small HTTP client for the tests that talk to the server as operators do. */
final class Http {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private Http() {
    }

    static String base() {
        String port = System.getProperty("it.http.port");
        if (port == null) {
            port = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                    .getOptionalValue("jobqueue.it.http.port", String.class).orElse("9181");
        }
        return "http://localhost:" + port;
    }

    static HttpResponse<String> send(String method, String path, String user, String password) throws Exception {
        return send(method, path, user, password, Map.of());
    }

    static HttpResponse<String> send(String method, String path, String user, String password,
            Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (user != null) {
            String credentials = Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
            request.header("Authorization", "Basic " + credentials);
        }
        headers.forEach(request::header);
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(String path) throws Exception {
        return send("GET", path, null, null);
    }
}

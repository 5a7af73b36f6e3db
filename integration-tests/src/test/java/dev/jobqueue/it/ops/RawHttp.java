package dev.jobqueue.it.ops;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP/1.0 client that sends a request target exactly as given, byte for byte: invalid percent-encoding, bytes
 * that are not UTF-8, anything a hostile client can send and {@link java.net.http.HttpClient} refuses to.
 */
final class RawHttp {

    /**
     * An answer.
     *
     * @param status  its status code
     * @param headers its headers, names in lower case
     * @param body    its body as UTF-8
     */
    record Answer(int status, Map<String, String> headers, String body) {
    }

    private RawHttp() {
    }

    /** Sends {@code method target} with Basic credentials, the X-Requested-By header and {@code json} as the body, if any. */
    static Answer send(String method, byte[] target, String user, String password, byte[] json) throws IOException {
        URI base = URI.create(Http.base());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(60_000);
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.write((method + " ").getBytes(StandardCharsets.US_ASCII));
            request.write(target);
            StringBuilder head = new StringBuilder(" HTTP/1.0\r\nHost: " + base.getHost() + ":" + base.getPort() + "\r\n");
            head.append("Authorization: Basic ").append(Base64.getEncoder().encodeToString((user + ":" + password)
                    .getBytes(StandardCharsets.UTF_8))).append("\r\n");
            head.append("X-Requested-By: fuzz\r\n");
            if (json != null) {
                head.append("Content-Type: application/json\r\nContent-Length: ").append(json.length).append("\r\n");
            }
            head.append("\r\n");
            request.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            if (json != null) {
                request.write(json);
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toByteArray());
            out.flush();
            return read(socket.getInputStream());
        }
    }

    private static Answer read(InputStream in) throws IOException {
        String whole = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        int end = whole.indexOf("\r\n\r\n");
        String[] lines = (end < 0 ? whole : whole.substring(0, end)).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1)
                        .trim());
            }
        }
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        return new Answer(status, headers, end < 0 ? "" : whole.substring(end + 4));
    }
}

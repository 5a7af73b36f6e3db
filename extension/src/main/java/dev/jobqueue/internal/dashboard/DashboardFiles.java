package dev.jobqueue.internal.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The dashboard's files in this jar, under {@code dev/jobqueue/dashboard/}, read once each. Only a plain file name
 * with a known extension is looked up, so a request cannot reach any other resource on the class path.
 */
final class DashboardFiles {

    /** The page itself. */
    static final String PAGE = "index.html";

    private static final String FOLDER = "/dev/jobqueue/dashboard/";
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*\\.(html|js|css|svg)");
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=UTF-8",
            "js", "text/javascript; charset=UTF-8", "css", "text/css; charset=UTF-8", "svg", "image/svg+xml");

    /**
     * A file.
     *
     * @param content     its bytes
     * @param contentType its media type
     * @param etag        a strong validator of its content
     */
    record File(byte[] content, String contentType, String etag) {
    }

    private final Map<String, Optional<File>> read = new ConcurrentHashMap<>();

    /** The file of that name, or empty if there is none. */
    Optional<File> find(String name) {
        if (!NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return read.computeIfAbsent(name, DashboardFiles::load);
    }

    private static Optional<File> load(String name) {
        try (InputStream in = DashboardFiles.class.getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                return Optional.empty();
            }
            byte[] content = in.readAllBytes();
            String extension = name.substring(name.lastIndexOf('.') + 1);
            return Optional.of(new File(content, TYPES.get(extension), etag(content)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String etag(byte[] content) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(content);
            return "\"" + HexFormat.of().formatHex(hash, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

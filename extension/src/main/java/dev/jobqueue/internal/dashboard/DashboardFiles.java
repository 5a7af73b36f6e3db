package dev.jobqueue.internal.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The dashboard's files in this jar, under {@code dev/jobqueue/dashboard/}: a fixed set, each read once, when the
 * filter starts. A request names one of them or gets nothing: it cannot reach any other resource on the class
 * path, and a name that is not served is not remembered, so no request can grow the heap.
 */
final class DashboardFiles {

    /** The page itself. */
    static final String PAGE = "index.html";

    private static final String FOLDER = "/dev/jobqueue/dashboard/";
    /** Every file served; a test holds this list to the folder's contents. */
    private static final List<String> SERVED = List.of(PAGE, "api.js", "app.js", "confirm.js", "dom.js", "failed.js",
            "favicon.svg", "format.js", "job.js", "jobs.js", "nodes.js", "overview.js", "queues.js", "schedules.js",
            "style.css");
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

    private final Map<String, File> files;

    /** Reads every file served. */
    DashboardFiles() {
        files = SERVED.stream().collect(Collectors.toUnmodifiableMap(name -> name, DashboardFiles::load));
    }

    /** The file of that name, or empty if there is none. */
    Optional<File> find(String name) {
        return Optional.ofNullable(files.get(name));
    }

    /** The names of the files served. */
    Set<String> names() {
        return files.keySet();
    }

    private static File load(String name) {
        try (InputStream in = DashboardFiles.class.getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new IllegalStateException("jobqueue: the dashboard's file " + name + " is missing from the jar");
            }
            byte[] content = in.readAllBytes();
            String extension = name.substring(name.lastIndexOf('.') + 1);
            return new File(content, TYPES.get(extension), etag(content));
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

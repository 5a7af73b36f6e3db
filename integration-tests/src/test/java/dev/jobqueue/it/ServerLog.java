package dev.jobqueue.it;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads what the Liberty server under test writes to messages.log, from a given offset on. */
final class ServerLog {

    private ServerLog() {
    }

    static long length() {
        try {
            return Files.size(path());
        } catch (IOException e) {
            return 0;
        }
    }

    static String since(long offset) {
        try (RandomAccessFile file = new RandomAccessFile(path().toFile(), "r")) {
            long start = Math.min(offset, file.length());
            byte[] bytes = new byte[(int) (file.length() - start)];
            file.seek(start);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path(), e);
        }
    }

    private static Path path() {
        return Path.of(System.getProperty("wlp.server.dir"), "logs", "messages.log");
    }
}

package dev.jobqueue.it;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Reads what the Liberty server under test writes to messages.log, from a given offset on. */
public final class ServerLog {

    private ServerLog() {
    }

    public static long length() {
        try {
            return Files.size(path());
        } catch (IOException e) {
            return 0;
        }
    }

    public static String since(long offset) {
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

    /** The names of the incident (FFDC) files the server has written. */
    public static Set<String> incidents() {
        Path folder = logs().resolve("ffdc");
        if (!Files.isDirectory(folder)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.startsWith("ffdc_"))
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + folder, e);
        }
    }

    private static Path path() {
        return logs().resolve("messages.log");
    }

    private static Path logs() {
        return Path.of(System.getProperty("wlp.server.dir"), "logs");
    }
}

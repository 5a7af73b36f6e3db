package dev.jobqueue.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads what the server under test writes to its log after a {@link Mark}. The system property
 * {@code jobqueue.it.server.log} names the log: a file (Liberty's messages.log, WildFly's server.log), or a folder
 * whose files, in name order, make one log (a Payara Micro per deployment, each writing a file of its own).
 * {@code jobqueue.it.server.incidents} names the folder of incident reports (Liberty's FFDC), if the server writes
 * them.
 */
public final class ServerLog {

    /** Liberty: {@code [25/11/26, 16:40:00:123 UTC] 0000004a dev.jobqueue.Foo   W JQ036: ...}. */
    private static final Pattern LIBERTY_LEVEL = Pattern.compile("^\\[[^]]*\\] \\S+ \\S+ +([A-Z]) .*");
    /** Payara: {@code [2026-11-25T16:40:00.123+0000] [Payara 6.2025.10] [WARNING] ...}. */
    private static final Pattern PAYARA_LEVEL = Pattern.compile("^\\[[^]]*\\] \\[[^]]*\\] \\[([A-Z]+)\\].*");
    /**
     * WildFly: {@code 2026-11-25 16:40:00,123 WARNING [dev.jobqueue.Foo] (thread) JQ036: ...}, with the level names of
     * java.util.logging (SEVERE, WARNING) for what jobqueue logs, and JBoss Logging's (ERROR, WARN) for the server.
     */
    private static final Pattern WILDFLY_LEVEL = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}"
            + " (FATAL|SEVERE|ERROR|WARNING|WARN|INFO|CONFIG|DEBUG|FINE|FINER|FINEST|TRACE) +\\[.*");
    /** The start of a record: a bracketed date (Liberty, Payara) or a date (WildFly). */
    private static final Pattern RECORD_START = Pattern.compile("^(\\[\\d|\\d{4}-\\d\\d-\\d\\d ).*");
    /** Payara Micro colours its log file's levels with ANSI escapes; they are dropped from what is read. */
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[;\\d]*m");

    /** The system property that names the log. */
    public static final String PROPERTY = "jobqueue.it.server.log";

    private ServerLog() {
    }

    /**
     * Whether this JVM can read the server's log: the test JVM can, and so can each Payara Micro; Liberty and WildFly,
     * which run every node of a test in one JVM, are not told where their log is.
     */
    public static boolean readable() {
        return System.getProperty(PROPERTY) != null;
    }

    /** Where each file of the log ends now, for {@link #since} to read what comes after. */
    public record Mark(Map<Path, Long> ends) {

        /** Before the server wrote anything. */
        public static final Mark START = new Mark(Map.of());
    }

    public static Mark mark() {
        Map<Path, Long> ends = new HashMap<>();
        for (Path file : files()) {
            try {
                ends.put(file, Files.size(file));
            } catch (IOException e) {
                // not written yet
            }
        }
        return new Mark(Map.copyOf(ends));
    }

    /**
     * What the server wrote after {@code mark}: file by file, what each gained since, so that a log file that grows
     * while a later one is written (one Payara Micro beside another) loses nothing.
     */
    public static String since(Mark mark) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        for (Path file : files()) {
            try (RandomAccessFile log = new RandomAccessFile(file.toFile(), "r")) {
                long from = mark.ends().getOrDefault(file, 0L);
                long length = log.length();
                if (length > from) {
                    byte[] bytes = new byte[(int) (length - from)];
                    log.seek(from);
                    log.readFully(bytes);
                    text.writeBytes(bytes);
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + file, e);
            }
        }
        return ANSI.matcher(text.toString(StandardCharsets.UTF_8)).replaceAll("");
    }

    /**
     * The log's records, each with the lines that continue it (a stack trace, Payara's multi-line messages): a
     * record starts with a line that starts with a date, as Liberty's, Payara's and WildFly's do.
     */
    public static List<String> records(String log) {
        List<String> records = new ArrayList<>();
        StringBuilder record = null;
        for (String line : log.lines().toList()) {
            if (RECORD_START.matcher(line).matches() || record == null) {
                if (record != null) {
                    records.add(record.toString());
                }
                record = new StringBuilder(line);
            } else {
                record.append('\n').append(line);
            }
        }
        if (record != null) {
            records.add(record.toString());
        }
        return records;
    }

    /** Whether a record, or its first line, is one the server logged as a warning. */
    public static boolean isWarning(String record) {
        return level(record) == 'W';
    }

    /** Whether a record, or its first line, is one the server logged as an error. */
    public static boolean isError(String record) {
        return level(record) == 'E';
    }

    /** The level of a record's first line as one letter, E, W, I..., or a space for a line that starts none. */
    private static char level(String record) {
        String first = record.lines().findFirst().orElse("");
        Matcher liberty = LIBERTY_LEVEL.matcher(first);
        if (liberty.matches()) {
            return liberty.group(1).charAt(0);
        }
        Matcher named = PAYARA_LEVEL.matcher(first);
        if (!named.matches()) {
            named = WILDFLY_LEVEL.matcher(first);
            if (!named.matches()) {
                return ' ';
            }
        }
        String level = named.group(1);
        return level.equals("FATAL") || level.equals("SEVERE") || level.equals("ERROR") ? 'E' : level.charAt(0);
    }

    /** The names of the incident (FFDC) files the server has written; none on a server that writes none. */
    public static Set<String> incidents() {
        String property = System.getProperty("jobqueue.it.server.incidents", "");
        if (property.isBlank()) {
            return Set.of();
        }
        Path folder = Path.of(property);
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

    private static List<Path> files() {
        String property = System.getProperty(PROPERTY);
        if (property == null) {
            throw new IllegalStateException("system property jobqueue.it.server.log must name the server's log");
        }
        Path log = Path.of(property);
        if (!Files.isDirectory(log)) {
            return List.of(log);
        }
        try (Stream<Path> files = Files.list(log)) {
            return files.filter(Files::isRegularFile).filter(file -> !file.toString().endsWith(".lck")).sorted()
                    .toList();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + log, e);
        }
    }
}

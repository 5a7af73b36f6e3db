package dev.jobqueue.bench.runner;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * PostgreSQL's own benchmark, where it is installed: its simple-update transaction (three UPDATEs, a SELECT and
 * an INSERT) from as many clients as the runner's limit uses, for a figure anyone can compare with theirs.
 */
final class Pgbench {

    private static final File PROGRAM = new File("/usr/bin/pgbench");
    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+)");

    private Pgbench() {
    }

    /** Transactions per second, or empty where pgbench is not installed. */
    static Optional<Double> simpleUpdateTps(String host, String user, String database, int clients, int seconds)
            throws Exception {
        if (!PROGRAM.canExecute()) {
            return Optional.empty();
        }
        List<String> connection = List.of("-h", host, "-U", user);
        run(concat(List.of(PROGRAM.getPath(), "-i", "-s", "1", "-q"), connection, List.of(database)));
        String output = run(concat(List.of(PROGRAM.getPath(), "-n", "-b", "simple-update", "-c",
                String.valueOf(clients), "-j", String.valueOf(Math.min(clients, 2)), "-T", String.valueOf(seconds)),
                connection, List.of(database)));
        Matcher tps = TPS.matcher(output);
        if (!tps.find()) {
            throw new IllegalStateException("pgbench printed no tps: " + output);
        }
        return Optional.of(Double.parseDouble(tps.group(1)));
    }

    private static List<String> concat(List<String> a, List<String> b, List<String> c) {
        return Stream.of(a, b, c).flatMap(List::stream).toList();
    }

    private static String run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
        return output;
    }
}

package dev.jobqueue.it.payara;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;

/**
 * A Payara Micro root directory ({@code --rootdir}) made once per test run, from which every Payara Micro starts
 * in a copy of its own. Making it unpacks the runtime with the JDBC drivers and writes its launcher jar
 * ({@code --outputlauncher}), then starts it once ({@code --warmup}) to apply the post-boot commands to its
 * configuration, to deploy and undeploy a small application, and to write a class data sharing archive of the
 * classes that took. A start from a copy then unpacks nothing, runs no command, and maps most of its classes from
 * the archive instead of loading them.
 */
final class PayaraMicroRoot {

    private static final String LAUNCHER = "launch-micro.jar";
    private static final String CLASSES = "classes.jsa";
    private static final Duration WARMUP_TIMEOUT = Duration.ofMinutes(5);

    private final Path directory;
    private final List<String> jvmOptions;

    private PayaraMicroRoot(Path directory, List<String> jvmOptions) {
        this.directory = directory;
        this.jvmOptions = jvmOptions;
    }

    /**
     * Makes the root in {@code directory}, anew. {@code warmup} is deployed and undeployed once, so that the
     * archive has what deploying an application loads.
     */
    static PayaraMicroRoot make(PayaraMicroConfiguration configuration, Archive<?> warmup) {
        Path directory = Path.of(configuration.getRootDirectory());
        List<String> jvmOptions = configuration.jvmOptions();
        try {
            delete(directory);
            Files.createDirectories(directory);
            run(directory, List.of(java(), "-jar", configuration.getMicroJar(), "--rootdir", directory.toString(),
                    "--addlibs", configuration.getLibraries(), "--outputlauncher"));
            Path war = directory.resolve(warmup.getName());
            warmup.as(ZipExporter.class).exportTo(war.toFile(), true);
            Path undeploy = directory.resolve("undeploy-warmup.asadmin");
            Files.writeString(undeploy, "undeploy " + warmup.getName().replaceFirst("\\.war$", "") + "\n");
            List<String> command = new ArrayList<>(List.of(java()));
            command.addAll(jvmOptions);
            command.addAll(List.of("-XX:ArchiveClassesAtExit=" + CLASSES, "-jar", LAUNCHER));
            command.addAll(configuration.microOptions());
            command.addAll(List.of("--postbootcommandfile", configuration.getPostBootCommands(), "--deploy",
                    war.toString(), "--postdeploycommandfile", undeploy.toString(), "--warmup"));
            run(directory, command);
            Files.delete(war);
            Files.delete(undeploy);
            if (!Files.isRegularFile(directory.resolve(CLASSES))) {
                throw new IllegalStateException("the warm-up wrote no class data sharing archive: " + command);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make Payara Micro's root directory " + directory, e);
        }
        return new PayaraMicroRoot(directory, jvmOptions);
    }

    /**
     * The command that starts Payara Micro in a copy of this root, {@code java ... -jar launch-micro.jar}, with
     * the class data sharing archive; relative to the copy, as the archive's class path was.
     */
    List<String> command() {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-XX:SharedArchiveFile=" + directory.resolve(CLASSES), "-jar", LAUNCHER));
        return command;
    }

    /**
     * Copies this root to {@code target}: jar files and the archive, which nothing writes, as hard links, and the
     * rest (the configuration, which Payara Micro rewrites) as files of its own. Each keeps its time of change: the
     * archive is used only if the class path's files (the runtime's {@code .rar} files too) are those it was made
     * from.
     */
    void copyTo(Path target) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path source : (Iterable<Path>) files::iterator) {
                Path copy = target.resolve(directory.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(copy);
                } else if (source.toString().endsWith(".jar") || source.endsWith(CLASSES)) {
                    Files.createLink(copy, source);
                } else {
                    Files.copy(source, copy, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    static void delete(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(file);
            }
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs a step of making the root to its end, failing with its output if it fails. */
    private static void run(Path directory, List<String> command) throws IOException {
        try {
            PayaraMicroProcess step = PayaraMicroProcess.start(command, directory);
            if (!step.awaitEnd(WARMUP_TIMEOUT)) {
                throw new IllegalStateException("Payara Micro failed: " + command + "\n" + step.output());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + command, e);
        }
    }
}

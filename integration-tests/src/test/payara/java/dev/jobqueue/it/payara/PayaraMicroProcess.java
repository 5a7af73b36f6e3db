package dev.jobqueue.it.payara;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One Payara Micro process, started in a directory of its own. Its console is read until Payara Micro says it is
 * ready or the process ends, whichever comes first: a start that fails is known as soon as the process gives up,
 * not when a timeout runs out.
 */
final class PayaraMicroProcess {

    /** The last line of a start: {@code Payara Micro 6.2025.10 #badassmicrofish (build 1) ready in 9,876 (ms)}. */
    private static final String READY = "ready in";

    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final CountDownLatch readyOrEnded = new CountDownLatch(1);
    private volatile boolean ready;

    private PayaraMicroProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::readConsole, "payara-micro-console-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static PayaraMicroProcess start(List<String> command, Path directory) throws IOException {
        return new PayaraMicroProcess(new ProcessBuilder(command).directory(directory.toFile())
                .redirectErrorStream(true).start());
    }

    /** Whether Payara Micro said it was ready within {@code timeout}; false if its process ended first. */
    boolean awaitReady(Duration timeout) throws InterruptedException {
        readyOrEnded.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return ready;
    }

    /** Whether the process ended well (exit code 0) within {@code timeout}; it is killed if it had not ended. */
    boolean awaitEnd(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
            return false;
        }
        return process.exitValue() == 0;
    }

    /** What Payara Micro wrote to its console so far. */
    String output() {
        return output.toString();
    }

    /**
     * Stops Payara Micro as a user would (its shutdown hook undeploys). If it takes over {@code grace}, its threads
     * are written to {@code threadDump} (by the JDK's {@code jcmd}), and it is killed.
     */
    void stop(Duration grace, Path threadDump) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            dumpThreads(threadDump);
            kill();
        }
    }

    private void dumpThreads(Path file) throws InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            new ProcessBuilder(jcmd.toString(), String.valueOf(process.pid()), "Thread.print")
                    .redirectErrorStream(true).redirectOutput(file.toFile()).start()
                    .waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            output.append("[no thread dump: ").append(e).append("]\n");
        }
    }

    /** Ends the process at once, and waits until it has. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    private void readConsole() {
        try (BufferedReader console = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = console.readLine(); line != null; line = console.readLine()) {
                output.append(line).append('\n');
                if (line.contains("Payara Micro") && line.contains(READY)) {
                    ready = true;
                    readyOrEnded.countDown();
                }
            }
        } catch (IOException e) {
            output.append("[console unreadable: ").append(e).append("]\n");
        } finally {
            readyOrEnded.countDown();
        }
    }
}

package dev.jobqueue.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads what the Liberty server under test reported, for assertions on deployment errors and warnings. */
final class ServerLog {

    private ServerLog() {
    }

    /** The messages of an exception's cause chain, followed by the server's messages.log. */
    static String causeChainAndLog(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            text.append(cause).append('\n');
        }
        return text.append(messagesLog()).toString();
    }

    static String messagesLog() {
        Path log = Path.of(System.getProperty("wlp.server.dir"), "logs", "messages.log");
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + log, e);
        }
    }
}

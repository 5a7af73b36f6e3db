package dev.jobqueue.it.lifecycle;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Captures what one java.util.logging logger records while a test runs. */
public final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    public LogCapture(String loggerName) {
        logger = Logger.getLogger(loggerName);
        logger.addHandler(this);
    }

    public List<LogRecord> recordsMentioning(String text) {
        return records.stream().filter(record -> record.getMessage() != null && record.getMessage().contains(text))
                .toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
        // nothing buffered
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}

package dev.jobqueue.internal.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.internal.store.DatabaseReachability;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OutageLogTest {

    private final Logger logger = Logger.getLogger("OutageLogTest");
    private final List<String> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final OutageLog outage = new OutageLog(logger, "the test task", "tries again later");
    private final Database database = new Database();
    private final AtomicInteger rounds = new AtomicInteger();
    private boolean failing;

    /** A database whose answer to the plain check the test sets. */
    static final class Database extends DatabaseReachability {
        boolean up = true;

        @Override
        public boolean reachable() {
            return up;
        }
    }

    @BeforeEach
    void capture() {
        logger.setUseParentHandlers(false);
        logger.addHandler(capture);
    }

    @AfterEach
    void release() {
        logger.removeHandler(capture);
    }

    private void round() {
        outage.attempt(database, () -> {
            rounds.incrementAndGet();
            if (failing) {
                throw new IllegalStateException("connection refused");
            }
        });
    }

    @Test
    void an_outage_of_any_length_is_logged_once_when_it_starts_and_once_when_it_ends() {
        round();
        failing = true;
        database.up = false;
        for (int i = 0; i < 100; i++) {
            round();
        }
        assertEquals(2, rounds.get(), "after the first failure, rounds wait for the plain check to pass");

        failing = false;
        database.up = true;
        round();
        round();

        assertEquals(4, rounds.get());
        assertEquals(2, logged.size(), logged::toString);
        assertTrue(logged.get(0).startsWith("WARNING jobqueue: the test task cannot use the database and tries"
                + " again later: java.lang.IllegalStateException: connection refused"), logged.get(0));
        assertEquals("INFO jobqueue: the test task uses the database again", logged.get(1));
    }

    @Test
    void a_round_that_fails_while_the_check_passes_is_tried_every_time_and_logged_once() {
        failing = true;
        for (int i = 0; i < 5; i++) {
            round();
        }
        assertEquals(5, rounds.get());
        assertEquals(1, logged.size(), logged::toString);
    }
}

package dev.jobqueue.it.keys;

import dev.jobqueue.Consumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Consumers for the key tests; they record what ran in {@link KeyRuns}. */
@ApplicationScoped
public class KeyConsumers {

    @Inject
    KeyRuns runs;

    /** A payload starting with "hold-" runs until the test lets it go, holding its ordering key. */
    @Consumer(queue = "keys-ordered", concurrency = 6)
    public void ordered(String payload) throws InterruptedException {
        runs.started(payload);
        if (payload.startsWith("hold-")) {
            runs.awaitRelease();
        }
    }

    @Consumer(queue = "keys-grouped")
    public void grouped(String payload) {
        runs.started(payload);
    }

    /** Only holds jobs put with a delay, for the dedupe tests; they never run during the test. */
    @Consumer(queue = "keys-deduped")
    public void deduped(String payload) {
        runs.started(payload);
    }

    /** Fails with a message that contains a NUL character, which PostgreSQL cannot store in text. */
    @Consumer(queue = "keys-nul-error")
    public void nulError(String payload) {
        runs.started(payload);
        throw new IllegalStateException("refused \0" + payload);
    }
}

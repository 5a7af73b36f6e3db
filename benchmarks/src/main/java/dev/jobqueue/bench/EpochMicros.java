package dev.jobqueue.bench;

import java.time.Instant;

/** The wall clock in microseconds: comparable between two JVMs on one machine, unlike {@code nanoTime}. */
final class EpochMicros {

    private EpochMicros() {
    }

    static long now() {
        return of(Instant.now());
    }

    static long of(Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1_000;
    }
}

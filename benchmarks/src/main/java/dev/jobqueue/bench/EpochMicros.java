package dev.jobqueue.bench;

import java.time.Instant;

/** The wall clock in microseconds: comparable between two JVMs on one machine, unlike {@code nanoTime}. */
final class EpochMicros {

    private EpochMicros() {
    }

    static long now() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }
}

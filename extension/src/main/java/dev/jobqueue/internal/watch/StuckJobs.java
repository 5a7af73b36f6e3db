package dev.jobqueue.internal.watch;

import dev.jobqueue.internal.dispatch.RunningJobs;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/** Which running jobs have run longer than their queue's {@code max-execute-time}. */
final class StuckJobs {

    private StuckJobs() {
    }

    static List<RunningJobs.Entry> over(Collection<RunningJobs.Entry> running, Instant now,
            Function<String, Duration> maxExecuteTimeOf) {
        return running.stream()
                .filter(entry -> entry.startedAt() != null)
                .filter(entry -> Duration.between(entry.startedAt(), now)
                        .compareTo(maxExecuteTimeOf.apply(entry.job().queue())) > 0)
                .toList();
    }
}

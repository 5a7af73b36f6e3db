package dev.jobqueue.it.bounds;

import dev.jobqueue.Consumer;
import dev.jobqueue.GroupFinished;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Consumers of grouped jobs whose rows go in each of the ways a job's row can go, and a record of finished groups. */
public final class GroupConsumers {

    private GroupConsumers() {
    }

    /** Its DONE jobs are deleted as they finish. */
    @ApplicationScoped
    public static class Deleted {
        @Consumer(queue = "groups-deleted", retention = "0s")
        public void run(String payload) {
            // nothing to do
        }
    }

    /** Its DONE jobs are kept for a day. */
    @ApplicationScoped
    public static class Kept {
        @Consumer(queue = "groups-kept")
        public void run(String payload) {
            // nothing to do
        }
    }

    /** Gives up at once: its jobs become FAILED, for an operator to purge. */
    @ApplicationScoped
    public static class Failing {
        @Consumer(queue = "groups-failing", maxAttempts = 1)
        public void run(String payload) {
            throw new IllegalStateException("fails for good");
        }
    }

    /** Every GroupFinished seen. */
    @ApplicationScoped
    public static class Finished {
        private final List<GroupFinished> seen = new CopyOnWriteArrayList<>();

        void finished(@Observes GroupFinished event) {
            seen.add(event);
        }

        public long count(String group) {
            return seen.stream().filter(event -> event.group().equals(group)).count();
        }
    }
}

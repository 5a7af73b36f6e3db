package dev.jobqueue.it.dashboard;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.OperatorAction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The application the dashboard tests open: consumers, a probe to put jobs, and, as many applications have, its
 * own Jakarta REST application at {@code /} that serves every resource it finds.
 */
public final class DashboardApp {

    private DashboardApp() {
    }

    /** The application's own REST application, at the root of its context. */
    @ApplicationPath("/")
    public static class RootApplication extends Application {
    }

    /** Fails each job's first run ever, also after an operator's retry resets its attempts; then succeeds. */
    @ApplicationScoped
    public static class FailsOnceConsumer {
        static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

        @Consumer(queue = "dash-fails-once", maxAttempts = 1)
        public void run(String payload, JobContext context) {
            if (SEEN.add(context.id().toString())) {
                throw new IllegalStateException("the first run of " + payload + " fails");
            }
        }
    }

    /** Fails every attempt, each with its own message, and gives up after three. */
    @ApplicationScoped
    public static class AlwaysFailsConsumer {
        @Consumer(queue = "dash-always-fails", maxAttempts = 3)
        public void run(String payload, JobContext context) {
            throw new IllegalStateException("attempt " + context.attempt() + " of " + payload + " failed");
        }
    }

    /** Fails every job without naming its payload, which may hold personal data. */
    @ApplicationScoped
    public static class PrivateConsumer {
        @Consumer(queue = "dash-private", maxAttempts = 1)
        public void run(String payload) {
            throw new IllegalStateException("the customer could not be reached");
        }
    }

    /** Reports 40 %, with a note in markup, then runs until the probe lets it end. */
    @ApplicationScoped
    public static class ProgressConsumer {
        static final CountDownLatch END = new CountDownLatch(1);

        @Consumer(queue = "dash-progress")
        public void run(String payload, JobContext context) throws InterruptedException {
            context.progress(0.4, "<b>row</b> 4 of 10");
            END.await(30, TimeUnit.SECONDS);
        }
    }

    /** Succeeds. */
    @ApplicationScoped
    public static class OkConsumer {
        @Consumer(queue = "dash-ok")
        public void run(String payload) {
            // nothing to do
        }
    }

    /** Keeps the operator actions the admin API reported. */
    @ApplicationScoped
    public static class Actions {
        static final List<OperatorAction> SEEN = new CopyOnWriteArrayList<>();

        void on(@Observes OperatorAction action) {
            SEEN.add(action);
        }
    }

    /** Puts jobs for the client-side tests, and reports what observers saw. */
    @Path("probe")
    @Produces(MediaType.TEXT_PLAIN)
    public static class Probe {

        @Inject
        JobQueue jobs;

        /** Puts {@code count} jobs in one transaction; a dedupe prefix gives job i the key prefix-i. Returns the ids. */
        @POST
        @Path("put")
        @Transactional
        public String put(@QueryParam("queue") String queue, @QueryParam("count") int count,
                @QueryParam("payload") String payload, @QueryParam("dedupePrefix") String dedupePrefix,
                @QueryParam("after") String after) {
            StringBuilder ids = new StringBuilder();
            for (int i = 0; i < Math.max(count, 1); i++) {
                JobOptions options = JobOptions.defaults();
                if (dedupePrefix != null) {
                    options = options.key(dedupePrefix + "-" + i);
                }
                if (after != null) {
                    options = options.after(JobId.parse(after));
                }
                JobId id = jobs.put(queue, payload == null ? "job " + i : payload, options);
                ids.append(i == 0 ? "" : "\n").append(id);
            }
            return ids.toString();
        }

        /** Lets the job of {@link ProgressConsumer} end. */
        @POST
        @Path("progress/end")
        public String endProgress() {
            ProgressConsumer.END.countDown();
            return "ended";
        }

        /** The operator actions seen so far, one per line: user action target count. */
        @GET
        @Path("actions")
        public String actions() {
            StringBuilder lines = new StringBuilder();
            for (OperatorAction action : Actions.SEEN) {
                lines.append(action.user()).append(' ').append(action.action()).append(' ').append(action.target())
                        .append(' ').append(action.count()).append('\n');
            }
            return lines.toString();
        }
    }
}

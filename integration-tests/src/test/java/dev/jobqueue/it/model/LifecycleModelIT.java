package dev.jobqueue.it.model;

import static org.junit.jupiter.api.Assertions.fail;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.AdminHttp;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.model.ModelConsumers.Scripts;
import dev.jobqueue.test.JobQueueTester;
import dev.jobqueue.test.TestClock;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A model-based test of the job lifecycle (issue 40, item 7): random sequences of puts (dedupe keys, ordering keys,
 * groups, dependencies, delays), drains of a single, a batch and a jobs-per-transaction consumer whose attempts follow
 * scripts, clock steps and admin actions, each step checked against a model of what it must do and the invariants
 * of every row. A failing sequence is shrunk and printed as steps to paste into a regression test.
 *
 * <p>{@code -Dmodel.seed=...}, {@code -Dmodel.sequences=...}, {@code -Dmodel.steps=...} reach the server in the
 * deployment, since the test runs there; without a seed, each run takes a fresh one.
 */
@ExtendWith(ArquillianExtension.class)
class LifecycleModelIT {

    private static final String SETTINGS = "model-settings.properties";

    @Deployment
    static WebArchive app() {
        StringBuilder settings = new StringBuilder();
        for (String key : List.of("model.seed", "model.sequences", "model.steps")) {
            if (System.getProperty(key) != null) {
                settings.append(key).append('=').append(System.getProperty(key)).append('\n');
            }
        }
        return Deployments.war("model", "model", ModelConsumers.class, ModelConsumers.ModelJob.class,
                ModelConsumers.CountedAsSuccess.class, ModelConsumers.Call.class, ModelConsumers.Scripts.class,
                ModelConsumers.Outcome.class, ModelConsumers.Script.class, ModelConsumers.Single.class,
                ModelConsumers.Batch.class, ModelConsumers.PerTransaction.class, ModelConsumers.Limited.class, ModelRows.class, ModelRows.Row.class,
                ModelRows.QueueRow.class, ModelRows.Snapshot.class, ModelRun.class, ModelRun.Services.class,
                Step.class, Step.Put.class, Step.PutAll.class, Step.Drain.class, Step.Advance.class, Step.Admin.class, Step.Action.class,
                ModelGenerator.class, Drains.class, AdminSteps.class, Invariants.class, Shrinker.class,
                ShrunkSequences.class,
                AdminHttp.class)
                .addAsLibrary(Deployments.testKitJar())
                .addAsResource(new StringAsset(settings.toString()), SETTINGS);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobQueueTester tester;

    @Inject
    TestClock clock;

    @Inject
    JobAdmin admin;

    @Inject
    Scripts scripts;

    @Inject
    ModelRows rows;

    @Test
    void random_sequences_of_puts_drains_clock_steps_and_admin_actions_keep_every_promise_of_the_lifecycle() {
        Properties settings = settings();
        long seed = settings.containsKey("model.seed") ? Long.parseLong(settings.getProperty("model.seed"))
                : new Random().nextLong();
        int sequences = Integer.parseInt(settings.getProperty("model.sequences", "200"));
        int steps = Integer.parseInt(settings.getProperty("model.steps", "25"));
        System.out.println("LifecycleModelIT: -Dmodel.seed=" + seed + " -Dmodel.sequences=" + sequences
                + " -Dmodel.steps=" + steps);
        Random random = new Random(seed);
        ModelRun.Services services = new ModelRun.Services(jobs, tester, clock, admin, scripts, rows);
        long started = System.nanoTime();
        long putAlls = 0;
        long limitedSteps = 0;
        for (int i = 0; i < sequences; i++) {
            List<Step> sequence = ModelGenerator.sequence(random, steps);
            putAlls += sequence.stream().filter(Step.PutAll.class::isInstance).count();
            limitedSteps += sequence.stream().filter(step -> step.toString().contains(ModelConsumers.LIMITED)).count();
            String failure = failure(services, sequence);
            if (failure != null) {
                List<Step> shrunk = Shrinker.shrink(sequence, candidate -> failure(services, candidate) != null, 150);
                String again = failure(services, shrunk);
                String report = "seed " + seed + ", sequence " + i + ": " + failure + "\nshrunk from "
                        + sequence.size() + " to " + shrunk.size() + " steps, which "
                        + (again == null ? "passed when run once more (a race?)" : "fail with: " + again) + "\n"
                        + shrunk.stream().map(Step::toString).collect(Collectors.joining(",\n    ", "    ", ""));
                System.out.println("LifecycleModelIT: " + report);
                fail(report);
            }
        }
        System.out.println(String.format("LifecycleModelIT: seed %d, %d sequences of %d steps (%d of them putAll, %d on"
                + " the rate-limited queue) passed in %.1f s", seed, sequences, steps, putAlls, limitedSteps,
                (System.nanoTime() - started) / 1e9));
    }

    @Test
    void the_sequences_the_model_once_found_failing_now_keep_every_promise() {
        ModelRun.Services services = new ModelRun.Services(jobs, tester, clock, admin, scripts, rows);
        for (List<Step> sequence : ShrunkSequences.ALL) {
            String failure = failure(services, sequence);
            if (failure != null) {
                fail(failure + "\n" + sequence);
            }
        }
    }

    /** Runs a sequence on cleared queues: null if it kept every promise, else the first broken one. */
    private static String failure(ModelRun.Services services, List<Step> sequence) {
        try {
            new ModelRun(services).run(sequence);
            return null;
        } catch (AssertionError e) {
            return e.getMessage();
        }
    }

    private static Properties settings() {
        Properties settings = new Properties();
        try (InputStream in = LifecycleModelIT.class.getClassLoader().getResourceAsStream(SETTINGS)) {
            if (in != null) {
                settings.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return settings;
    }
}

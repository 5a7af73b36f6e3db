package dev.jobqueue.it.model;

import dev.jobqueue.DuplicatePolicy;
import dev.jobqueue.it.model.Step.Action;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random sequences of steps from a seed. Small key spaces make dedupe keys, ordering keys and groups collide;
 * short scripts with three attempts make jobs fail for good within a few clock steps.
 */
public final class ModelGenerator {

    private static final DuplicatePolicy[] POLICIES = DuplicatePolicy.values();
    /** Retries twice as often as the other actions: they are where most promises meet. */
    private static final Action[] ACTIONS = {Action.RETRY_ONE, Action.RETRY_IDS, Action.RETRY_IDS, Action.RETRY_FILTER,
        Action.RETRY_FILTER, Action.RETRY_QUEUE, Action.RETRY_QUEUE, Action.DELETE_ONE, Action.DELETE_IDS,
        Action.DELETE_FILTER, Action.PURGE, Action.PAUSE, Action.RESUME, Action.LIMITS, Action.CANCEL_ONE,
        Action.CANCEL_ONE, Action.CANCEL_IDS, Action.CANCEL_FILTER};

    private ModelGenerator() {
    }

    public static List<Step> sequence(Random random, int steps) {
        List<Step> sequence = new ArrayList<>();
        int puts = 0;
        // Most steps of a sequence are on one queue, so that its jobs meet: batches fill, keys collide, jobs fail.
        String home = ModelConsumers.QUEUES.get(random.nextInt(ModelConsumers.QUEUES.size()));
        for (int i = 0; i < steps; i++) {
            int roll = random.nextInt(100);
            String queue = random.nextInt(100) < 70 ? home
                    : ModelConsumers.QUEUES.get(random.nextInt(ModelConsumers.QUEUES.size()));
            if (roll < 32 || puts == 0) {
                sequence.add(put(random, queue, puts++));
            } else if (roll < 38) {
                // Dependencies of a putAll's jobs name jobs put before the call, and earlier jobs of the call.
                Step[] call = new Step[2 + random.nextInt(3)];
                for (int j = 0; j < call.length; j++) {
                    call[j] = j > 0 && random.nextInt(100) < 40 ? afterEarlier(random, (Step.Put) put(random, queue,
                            puts), puts, j) : put(random, queue, puts);
                }
                puts += call.length;
                sequence.add(Step.putAll(call));
            } else if (roll < 65) {
                sequence.add(Step.drain(queue));
            } else if (roll < 77) {
                sequence.add(Step.advance(1 + random.nextInt(2)));
            } else {
                sequence.add(admin(random, queue, puts));
            }
        }
        return sequence;
    }

    private static Step put(Random random, String queue, int puts) {
        String key = random.nextInt(100) < 50 ? random.nextInt(100) < 70 ? "k0" : "k1" : null;
        String orderingKey = random.nextInt(100) < 15 ? "o" + random.nextInt(2) : null;
        String group = random.nextInt(100) < 30 ? "g" + random.nextInt(2) : null;
        List<Integer> after = new ArrayList<>();
        if (puts > 0 && random.nextInt(100) < 30) {
            after.add(random.nextInt(puts));
            if (puts > 1 && random.nextBoolean()) {
                int other = random.nextInt(puts);
                if (!after.contains(other)) {
                    after.add(other);
                }
            }
        }
        int delay = random.nextInt(100) < 15 ? 1 + random.nextInt(2) : 0;
        return Step.put(queue, key, POLICIES[random.nextInt(POLICIES.length)], orderingKey, group, after, delay,
                script(random));
    }

    /** The put, waiting also for one of the {@code index} jobs of its call before it, which start at put {@code first}. */
    private static Step afterEarlier(Random random, Step.Put put, int first, int index) {
        List<Integer> after = new ArrayList<>(put.after());
        after.add(first + random.nextInt(index));
        return Step.put(put.queue(), put.key(), put.policy(), put.orderingKey(), put.group(), after,
                put.delayHours(), put.script());
    }

    /** Outcomes of each attempt, mostly OK or a failure; sometimes a backoff at one attempt. */
    private static String script(Random random) {
        StringBuilder script = new StringBuilder();
        for (int attempt = 1; attempt <= ModelConsumers.MAX_ATTEMPTS; attempt++) {
            int roll = random.nextInt(100);
            script.append(roll < 35 ? 'O' : roll < 78 ? 'F' : roll < 86 ? 'S' : 'R');
        }
        if (random.nextInt(100) < 10) {
            script.append("/b").append(1 + random.nextInt(2));
        }
        return script.toString();
    }

    private static Step admin(Random random, String queue, int puts) {
        Action action = ACTIONS[random.nextInt(ACTIONS.length)];
        List<Integer> jobs = new ArrayList<>();
        int count = action == Action.RETRY_IDS || action == Action.DELETE_IDS || action == Action.CANCEL_IDS
                ? 1 + random.nextInt(4) : 1;
        for (int i = 0; i < count; i++) {
            int job = random.nextInt(puts);
            if (!jobs.contains(job)) {
                jobs.add(job);
            }
        }
        String key = random.nextBoolean() ? "k" + random.nextInt(2) : null;
        return Step.admin(action, random.nextBoolean(), jobs, queue, key);
    }
}

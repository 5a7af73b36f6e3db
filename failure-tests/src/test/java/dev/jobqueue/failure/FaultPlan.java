package dev.jobqueue.failure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The faults of one random run, drawn from its seed before the run starts, so that a seed always plans the same
 * faults in the same order with the same parameters. The first four are the four kinds in a random order, so
 * that every run injects each kind at least once; the rest are drawn at random. How many of them fit in the
 * run depends on how long each takes, mostly on how long a killed node takes to start again.
 */
final class FaultPlan {

    /** What a fault does. */
    enum Kind {
        /** SIGSTOP of a node's JVM for longer than the lease, then SIGCONT: a long GC pause. */
        PAUSE("pause"),
        /** The database ends some of the connections in use by jobqueue, as a failover or an operator would. */
        TERMINATE("terminate"),
        /** SIGKILL of a node's JVM, and a restart. */
        KILL("kill-9"),
        /** The database server is stopped, and started again after a while. */
        DB_RESTART("db-restart");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /**
     * One planned fault.
     *
     * @param index    its place in the plan, from 1
     * @param kind     what it does
     * @param node     the node it hits (A or B), for a pause or a kill
     * @param gap      how long after the previous fault ended (or the workload started) it begins
     * @param hold     how long a pause lasts, or the database stays down
     * @param pickSeed which connections a terminate ends: each in-use one with probability one half
     */
    record Planned(int index, Kind kind, String node, Duration gap, Duration hold, long pickSeed) {

        @Override
        public String toString() {
            return "#" + index + " " + kind.label + (kind == Kind.PAUSE || kind == Kind.KILL ? " node " + node : "")
                    + (kind == Kind.PAUSE || kind == Kind.DB_RESTART ? " for " + hold.toMillis() + "ms" : "")
                    + " after " + gap.toMillis() + "ms";
        }
    }

    private FaultPlan() {
    }

    /** More faults than fit in a run; the injector stops at the workload's end. */
    static List<Planned> of(long seed, Duration lease) {
        Random random = new Random(seed);
        List<Kind> kinds = new ArrayList<>(Arrays.asList(Kind.values()));
        Collections.shuffle(kinds, random);
        while (kinds.size() < 40) {
            kinds.add(Kind.values()[random.nextInt(Kind.values().length)]);
        }
        List<Planned> plan = new ArrayList<>();
        for (int i = 0; i < kinds.size(); i++) {
            Kind kind = kinds.get(i);
            String node = random.nextBoolean() ? "A" : "B";
            // The first fault lets the workload build up; later ones let the cluster catch its breath.
            Duration gap = Duration.ofMillis(i == 0 ? 12_000 + random.nextInt(8_000) : 5_000 + random.nextInt(10_000));
            Duration hold = switch (kind) {
                case PAUSE -> lease.plusMillis(2_000 + random.nextInt(4_000));
                case DB_RESTART -> Duration.ofMillis(2_000 + random.nextInt(10_000));
                default -> Duration.ZERO;
            };
            plan.add(new Planned(i + 1, kind, node, gap, hold, random.nextLong()));
        }
        return plan;
    }
}

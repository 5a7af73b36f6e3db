package dev.jobqueue.failure;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The random run's workload, put through both nodes' HTTP endpoints: every second a mix drawn from the seed.
 * Every draw is made on one thread in a fixed order, whatever the answers, so a seed always asks for the same
 * puts; which of them commit depends on the faults. What must happen to a committed job is in its manifest row
 * ({@code rf_job}), so the workload keeps only what the database cannot tell: the ids a keyed put answered.
 */
final class Workload {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** The parent of a slow dependent put runs this long at least, and the put keeps its transaction open this long. */
    private static final int SLOW_PARENT_MILLIS = 12_000;

    private final Random random;
    private final List<ServerNode> nodes;
    private final Predicate<ServerNode> available;
    private final int holdMillis;
    /** Most puts: they may run at once. */
    private final ExecutorService requests = Executors.newFixedThreadPool(16);
    /** Puts with ordering keys, one at a time, so that the order they were put in is the order they committed in. */
    private final ExecutorService orderedPuts = Executors.newSingleThreadExecutor();
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, int[]> requestsByKind = Collections.synchronizedMap(new TreeMap<>());
    private int next;

    /**
     * @param holdMillis how long a slow dependent put keeps its transaction open: longer than the lease
     */
    Workload(long seed, List<ServerNode> nodes, Predicate<ServerNode> available, int holdMillis) {
        this.random = new Random(seed);
        this.nodes = nodes;
        this.available = available;
        this.holdMillis = holdMillis;
    }

    /** Puts for {@code duration}, then waits for the last answers. */
    void run(Duration duration) throws InterruptedException {
        long start = System.nanoTime();
        for (int tick = 0; System.nanoTime() - start < duration.toNanos(); tick++) {
            tick();
            long nextTick = start + TimeUnit.SECONDS.toNanos(tick + 1);
            TimeUnit.NANOSECONDS.sleep(Math.max(0, nextTick - System.nanoTime()));
        }
        for (ExecutorService executor : List.of(requests, orderedPuts)) {
            executor.shutdown();
            // Each request times out, but a slow machine may have queued many; the checks must not race them.
            if (!executor.awaitTermination(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the workload's last requests did not finish within 5 minutes");
            }
        }
    }

    /** What the answers showed to be wrong: keyed puts that did not answer the ids their keys call for. */
    List<String> violations() {
        return List.copyOf(violations);
    }

    /** Requests by kind: {sent, answered 200}. */
    Map<String, int[]> requestsByKind() {
        synchronized (requestsByKind) {
            return new TreeMap<>(requestsByKind);
        }
    }

    private void tick() {
        batch("tx", "rf-short", 3 + random.nextInt(6), random.nextInt(30), false);
        batch("plain", "rf-plain", 2 + random.nextInt(4), random.nextInt(20), false);
        if (random.nextInt(2) == 0) {
            batch("rollback", "rf-short", 1, 10, true);
        }
        if (random.nextInt(4) == 0) {
            batch("long", "rf-long", 1, 8_000 + random.nextInt(4_000), false);
        }
        if (random.nextInt(5) < 2) {
            keyed();
        }
        if (random.nextInt(5) < 3) {
            ordered();
        }
        if (random.nextInt(5) == 0) {
            group();
        }
        if (random.nextInt(4) == 0) {
            chain();
        }
        if (random.nextInt(16) == 0) {
            slowDependent();
        }
    }

    private void batch(String kind, String queue, int count, int millis, boolean rollbackFirst) {
        String path = "/chaos/rf/batch?kind=" + kind + "&queue=" + queue + "&from=" + take(count) + "&count=" + count
                + "&millis=" + millis + "&rollbackFirst=" + rollbackFirst;
        ServerNode node = pickNode();
        requests.execute(() -> post(kind, node, path));
    }

    /**
     * A key put three times in one transaction must answer one id three times; its lower-case form, if put too,
     * is another key and must answer another id. A few seconds later the key is put again through the other
     * node: while its job is unfinished, that answers the same id.
     */
    private void keyed() {
        int n = take(3);
        String key = "Key-" + n;
        boolean lowerCaseToo = random.nextBoolean();
        ServerNode node = pickNode();
        int delay = 1_000 + random.nextInt(3_000);
        requests.execute(() -> {
            Optional<List<String>> ids = post("keyed", node, "/chaos/rf/keyed?n=" + n + "&key=" + key
                    + "&times=3&lowerCaseToo=" + lowerCaseToo);
            ids.ifPresent(answered -> checkKeyed(key, lowerCaseToo, answered));
            sleep(delay);
            ServerNode other = nodes.get(1 - nodes.indexOf(node));
            post("keyed", available.test(other) ? other : node, "/chaos/rf/keyed?n=" + (n + 2) + "&key=" + key
                    + "&times=1&lowerCaseToo=false");
        });
    }

    private void checkKeyed(String key, boolean lowerCaseToo, List<String> ids) {
        if (ids.size() != (lowerCaseToo ? 4 : 3) || !ids.get(0).equals(ids.get(1)) || !ids.get(0).equals(ids.get(2))) {
            violations.add("[keys] three puts of key " + key + " in one transaction answered " + ids + ", not one id");
        } else if (lowerCaseToo && ids.get(3).equals(ids.get(0))) {
            violations.add("[keys] key " + key.toLowerCase() + " answered the job of key " + key + " (" + ids.get(0)
                    + "): keys that differ in case were taken for one key, and the second job was not written");
        }
    }

    private void ordered() {
        String key = "ord-" + random.nextInt(3);
        int count = 1 + random.nextInt(3);
        boolean rollbackFirst = random.nextInt(5) == 0;
        String path = "/chaos/rf/ordered?key=" + key + "&from=" + take(count) + "&count=" + count + "&rollbackFirst="
                + rollbackFirst;
        ServerNode node = pickNode();
        orderedPuts.execute(() -> post("ordered", node, path));
    }

    private void group() {
        int size = 3 + random.nextInt(4);
        int from = take(size + 1);
        String path = "/chaos/rf/group?group=g-" + from + "&from=" + from + "&size=" + size + "&rollbackMember="
                + random.nextBoolean() + "&doomedMember=" + (random.nextInt(10) < 3);
        ServerNode node = pickNode();
        requests.execute(() -> post("group", node, path));
    }

    private void chain() {
        String path = "/chaos/rf/chain?from=" + take(3) + "&doomedParent=" + (random.nextInt(10) < 3);
        ServerNode node = pickNode();
        requests.execute(() -> post("chain", node, path));
    }

    /**
     * A long job, then, while it runs, a put of a job after it whose transaction stays open longer than the lease:
     * the put locks the long job's row, and the long job must keep its lease all the same.
     */
    private void slowDependent() {
        int parentN = take(2);
        int millis = SLOW_PARENT_MILLIS + random.nextInt(3_000);
        ServerNode node = pickNode();
        ServerNode putter = pickNode();
        requests.execute(() -> post("long", node, "/chaos/rf/batch?kind=long&queue=rf-long&from=" + parentN
                + "&count=1&millis=" + millis + "&rollbackFirst=false").ifPresent(parent -> {
                    sleep(1_500);
                    post("after", available.test(putter) ? putter : node, "/chaos/rf/after?parent=" + parent.get(0)
                            + "&n=" + (parentN + 1) + "&holdMillis=" + holdMillis);
                }));
    }

    /** Numbers for {@code count} jobs. */
    private int take(int count) {
        int first = next;
        next += count;
        return first;
    }

    /** The node the draw chooses, or the other one while the chosen one is paused or down. */
    private ServerNode pickNode() {
        ServerNode chosen = nodes.get(random.nextInt(nodes.size()));
        return available.test(chosen) ? chosen : nodes.get(1 - nodes.indexOf(chosen));
    }

    /** POSTs; the ids answered, or empty if the put failed or its answer was lost. */
    private Optional<List<String>> post(String kind, ServerNode node, String path) {
        int[] counts = requestsByKind.computeIfAbsent(kind, k -> new int[2]);
        synchronized (counts) {
            counts[0]++;
        }
        try {
            HttpResponse<String> response = node.post(path, REQUEST_TIMEOUT);
            if (response.statusCode() != 200) {
                return Optional.empty();
            }
            synchronized (counts) {
                counts[1]++;
            }
            return Optional.of(List.of(response.body().split(",")));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

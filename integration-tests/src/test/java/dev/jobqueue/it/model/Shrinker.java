package dev.jobqueue.it.model;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Makes a failing sequence short: drops halves, then quarters, and so on down to single steps, keeping each cut
 * while the sequence still fails. A put that is dropped renumbers the puts after it, so steps that name jobs by
 * put number still name jobs (maybe others): a cut that no longer fails is simply not kept.
 */
final class Shrinker {

    private Shrinker() {
    }

    static List<Step> shrink(List<Step> failing, Predicate<List<Step>> fails, int maxRuns) {
        List<Step> smallest = failing;
        int runs = 0;
        for (int size = Math.max(1, smallest.size() / 2); size >= 1 && runs < maxRuns; size /= 2) {
            boolean cut = true;
            while (cut && runs < maxRuns) {
                cut = false;
                for (int from = smallest.size() - size; from >= 0 && runs < maxRuns; from -= size) {
                    List<Step> candidate = new ArrayList<>(smallest.subList(0, from));
                    candidate.addAll(smallest.subList(from + size, smallest.size()));
                    runs++;
                    if (!candidate.isEmpty() && fails.test(candidate)) {
                        smallest = candidate;
                        cut = true;
                        from = Math.min(from, smallest.size() - size + 1);
                    }
                }
            }
        }
        return smallest;
    }
}

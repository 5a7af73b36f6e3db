package dev.jobqueue.internal.store;

import dev.jobqueue.internal.config.RateLimit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The starts of a rate-limited queue in its last period, as its row in {@code jobqueue_queue} keeps them: one
 * entry per claim, written {@code <epoch millis>:<count>,...}, oldest first. A claim may start as many jobs as
 * the window has room for, so a period never sees more than the limit's permits, however the claims fall.
 *
 * <p>The text stays short: past {@link #MAX_ENTRIES} the two oldest entries merge into one at the later time. That
 * makes their starts look later than they were, so it can only hold jobs back, never let more start.
 */
public final class StartWindow {

    static final int MAX_ENTRIES = 64;

    /** One claim's starts. */
    private record Entry(long millis, int count) {
    }

    private final List<Entry> entries;

    private StartWindow(List<Entry> entries) {
        this.entries = entries;
    }

    /**
     * Reads a window as {@link #toString()} wrote it; null or empty is a window without starts.
     *
     * @throws IllegalArgumentException if the text is not such a window
     */
    public static StartWindow parse(String text) {
        List<Entry> entries = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return new StartWindow(entries);
        }
        for (String part : text.split(",")) {
            int colon = part.indexOf(':');
            try {
                Entry entry = new Entry(Long.parseLong(part.substring(0, colon).trim()),
                        Integer.parseInt(part.substring(colon + 1).trim()));
                if (entry.count() < 1) {
                    throw new IllegalArgumentException("a count below 1");
                }
                entries.add(entry);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("not a window of starts: '" + text + "'", e);
            }
        }
        return new StartWindow(entries);
    }

    /**
     * A window that lets nothing start for one period from {@code now}: what an unreadable window is taken for,
     * since what it held cannot be known and the limit must not be exceeded.
     */
    public static StartWindow full(RateLimit limit, Instant now) {
        List<Entry> entries = new ArrayList<>();
        entries.add(new Entry(now.toEpochMilli(), limit.permits()));
        return new StartWindow(entries);
    }

    /** How many starts the window has seen in the period up to {@code now}. */
    public int startsInPeriod(RateLimit limit, Instant now) {
        long after = now.toEpochMilli() - limit.period().toMillis();
        long total = 0;
        for (Entry entry : entries) {
            if (entry.millis() > after) {
                total += entry.count();
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, total);
    }

    /** How many more jobs may start at {@code now}. */
    public int room(RateLimit limit, Instant now) {
        return Math.max(0, limit.permits() - startsInPeriod(limit, now));
    }

    /**
     * The first time after {@code now} at which one more job may start, as far as the starts so far go; {@code now}
     * if one may start already.
     */
    public Instant nextRoomAt(RateLimit limit, Instant now) {
        long period = limit.period().toMillis();
        long after = now.toEpochMilli() - period;
        int inPeriod = startsInPeriod(limit, now);
        for (Entry entry : entries) {
            if (inPeriod < limit.permits()) {
                break;
            }
            if (entry.millis() > after) {
                inPeriod -= entry.count();
                if (inPeriod < limit.permits()) {
                    return Instant.ofEpochMilli(entry.millis() + period);
                }
            }
        }
        return now;
    }

    /** This window with {@code count} starts more at {@code now}, and without the starts older than one period. */
    public StartWindow plus(RateLimit limit, Instant now, int count) {
        return plus(limit, now, count, now, 0);
    }

    /**
     * This window with {@code count} starts more at {@code now} and {@code laterCount} that may come at any time up
     * to {@code startBy}, and without the starts older than one period. Those are counted at {@code startBy}: every
     * period that may hold one of them counts it, and the last periods count it longer than it needed.
     */
    public StartWindow plus(RateLimit limit, Instant now, int count, Instant startBy, int laterCount) {
        long after = now.toEpochMilli() - limit.period().toMillis();
        List<Entry> kept = new ArrayList<>();
        for (Entry entry : entries) {
            if (entry.millis() > after) {
                kept.add(entry);
            }
        }
        if (count > 0) {
            kept.add(new Entry(now.toEpochMilli(), count));
        }
        if (laterCount > 0) {
            kept.add(new Entry(startBy.toEpochMilli(), laterCount));
        }
        // Entries written by nodes whose clocks differ by a little may be out of order: merging assumes order.
        kept.sort((a, b) -> Long.compare(a.millis(), b.millis()));
        while (kept.size() > MAX_ENTRIES) {
            Entry oldest = kept.remove(0);
            Entry next = kept.get(0);
            kept.set(0, new Entry(next.millis(), (int) Math.min(Integer.MAX_VALUE, (long) oldest.count() + next.count())));
        }
        return new StartWindow(kept);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Entry entry : entries) {
            if (!text.isEmpty()) {
                text.append(',');
            }
            text.append(entry.millis()).append(':').append(entry.count());
        }
        return text.toString();
    }
}

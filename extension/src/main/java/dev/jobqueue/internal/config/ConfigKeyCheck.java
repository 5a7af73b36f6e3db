package dev.jobqueue.internal.config;

import dev.jobqueue.internal.Messages;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Checks the per-queue keys ({@code jobqueue.queue.<queue>.<option>}) for typos: an unknown option, or a
 * queue that has no consumer here and is not marked {@code producer-only}. Such a key would otherwise be
 * silently ignored. The caller passes only the application's own keys: environment variables and server
 * variables are shared by every application on the server.
 */
public final class ConfigKeyCheck {

    private ConfigKeyCheck() {
    }

    /** A per-queue key split into its queue and option. */
    public record QueueKey(String key, String queue, String option) {
    }

    /** Returns one message per problem found. */
    public static List<String> problems(Iterable<String> keys, Set<String> consumedQueues,
            Function<String, Optional<String>> lookup) {
        List<String> problems = new ArrayList<>();
        for (String key : keys) {
            if (!key.startsWith(QueueOptionsResolver.QUEUE_PREFIX)) {
                continue;
            }
            Optional<QueueKey> parsed = parse(key);
            if (parsed.isEmpty()) {
                problems.add(Messages.badConfigValue(key, lookup.apply(key).orElse(""),
                        "unknown option; the options are " + new TreeSet<>(QueueOptionsResolver.OPTIONS)));
                continue;
            }
            String queue = parsed.get().queue();
            if (!consumedQueues.contains(queue) && !isProducerOnly(queue, lookup)) {
                problems.add(Messages.badConfigValue(key, lookup.apply(key).orElse(""), "no @Consumer in this"
                        + " application consumes queue '" + queue + "'; if it only puts jobs on that queue, set "
                        + QueueOptionsResolver.QUEUE_PREFIX + queue + "." + QueueOptionsResolver.PRODUCER_ONLY
                        + "=true"));
            }
        }
        return problems;
    }

    /** The queues marked producer-only among {@code keys}. */
    public static Set<String> producerOnlyQueues(Iterable<String> keys, Function<String, Optional<String>> lookup) {
        Set<String> queues = new TreeSet<>();
        for (String key : keys) {
            parse(key).filter(parsed -> parsed.option().equals(QueueOptionsResolver.PRODUCER_ONLY))
                    .filter(parsed -> isProducerOnly(parsed.queue(), lookup))
                    .ifPresent(parsed -> queues.add(parsed.queue()));
        }
        return queues;
    }

    /** Splits a per-queue key; queue names may contain dots, so the longest known option suffix wins. */
    static Optional<QueueKey> parse(String key) {
        if (!key.startsWith(QueueOptionsResolver.QUEUE_PREFIX)) {
            return Optional.empty();
        }
        String rest = key.substring(QueueOptionsResolver.QUEUE_PREFIX.length());
        return QueueOptionsResolver.OPTIONS.stream()
                .filter(option -> rest.endsWith("." + option) && rest.length() > option.length() + 1)
                .max(Comparator.comparingInt(String::length))
                .map(option -> new QueueKey(key, rest.substring(0, rest.length() - option.length() - 1), option));
    }

    private static boolean isProducerOnly(String queue, Function<String, Optional<String>> lookup) {
        return lookup.apply(QueueOptionsResolver.QUEUE_PREFIX + queue + "." + QueueOptionsResolver.PRODUCER_ONLY)
                .map(value -> value.trim().equalsIgnoreCase("true")).orElse(false);
    }
}

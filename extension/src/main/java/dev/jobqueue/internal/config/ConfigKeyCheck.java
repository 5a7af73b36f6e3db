package dev.jobqueue.internal.config;

import dev.jobqueue.internal.Messages;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the keys in the application's own configuration that jobqueue would not read, usually typos: an unknown
 * {@code jobqueue.<key>}, an unknown option of a queue or a schedule, a queue this application neither consumes
 * nor marks {@code producer-only}, or a schedule no {@code @Recurring} here declares. Such a key would otherwise be
 * silently ignored. The caller passes only the application's own keys: environment variables and server variables
 * are shared by every application on the server.
 */
public final class ConfigKeyCheck {

    private ConfigKeyCheck() {
    }

    /** A per-queue or per-schedule key split into the queue's or schedule's name and the option. */
    public record ScopedKey(String name, String option) {
    }

    /**
     * Returns one JQ014 message for each key that would have no effect.
     *
     * @param ownQueues         the queues this application consumes or marks {@code producer-only}
     * @param declaredSchedules the names of the schedules this application declares with {@code @Recurring}
     */
    public static List<String> problems(Iterable<String> ownKeys, Set<String> ownQueues,
            Set<String> declaredSchedules) {
        List<String> problems = new ArrayList<>();
        for (String key : ownKeys) {
            problemWith(key, ownQueues, declaredSchedules)
                    .ifPresent(problem -> problems.add(Messages.unreadConfigKey(key, problem)));
        }
        return problems;
    }

    /** The queues that have a {@code producer-only} key among {@code keys}, whatever its value. */
    public static Set<String> queuesWithProducerOnlyKey(Iterable<String> keys) {
        Set<String> queues = new TreeSet<>();
        for (String key : keys) {
            parse(key, ConfigKeys.QUEUE_PREFIX, ConfigKeys.QUEUE_OPTIONS)
                    .filter(parsed -> parsed.option().equals(QueueOptionsResolver.PRODUCER_ONLY))
                    .ifPresent(parsed -> queues.add(parsed.name()));
        }
        return queues;
    }

    private static Optional<String> problemWith(String key, Set<String> ownQueues, Set<String> declaredSchedules) {
        if (key.startsWith(ConfigKeys.QUEUE_PREFIX)) {
            return queueKeyProblem(key, ownQueues);
        }
        if (key.startsWith(ConfigKeys.SCHEDULE_PREFIX)) {
            return scheduleKeyProblem(key, declaredSchedules);
        }
        if (key.startsWith(ConfigKeys.PREFIX)) {
            return globalKeyProblem(key);
        }
        return Optional.empty();
    }

    private static Optional<String> queueKeyProblem(String key, Set<String> ownQueues) {
        Optional<ScopedKey> parsed = parse(key, ConfigKeys.QUEUE_PREFIX, ConfigKeys.QUEUE_OPTIONS);
        if (parsed.isEmpty()) {
            return Optional.of("no such queue option; the options are " + new TreeSet<>(ConfigKeys.QUEUE_OPTIONS));
        }
        String queue = parsed.get().name();
        if (ownQueues.contains(queue) || parsed.get().option().equals(QueueOptionsResolver.PRODUCER_ONLY)) {
            return Optional.empty();
        }
        return Optional.of("no @Consumer in this application consumes queue '" + queue + "'; if it only puts jobs on"
                + " that queue, set " + ConfigKeys.QUEUE_PREFIX + queue + "." + QueueOptionsResolver.PRODUCER_ONLY
                + "=true");
    }

    private static Optional<String> scheduleKeyProblem(String key, Set<String> declaredSchedules) {
        Optional<ScopedKey> parsed = parse(key, ConfigKeys.SCHEDULE_PREFIX, ConfigKeys.SCHEDULE_OPTIONS);
        if (parsed.isEmpty()) {
            return Optional.of("no such schedule option; the options are "
                    + new TreeSet<>(ConfigKeys.SCHEDULE_OPTIONS));
        }
        String schedule = parsed.get().name();
        if (declaredSchedules.contains(schedule)) {
            return Optional.empty();
        }
        return Optional.of("no @Recurring in this application declares schedule '" + schedule + "', and"
                + " configuration changes only declared schedules; the declared ones are "
                + new TreeSet<>(declaredSchedules));
    }

    private static Optional<String> globalKeyProblem(String key) {
        String option = key.substring(ConfigKeys.PREFIX.length());
        if (ConfigKeys.NODE.contains(key) || ConfigKeys.GLOBAL_OPTIONS.contains(option)) {
            return Optional.empty();
        }
        if (ConfigKeys.PER_QUEUE_ONLY.contains(option)) {
            return Optional.of("jobs-per-call, jobs-per-transaction, transactional, producer-only, rate-limit and"
                    + " max-running are read per queue only, as " + ConfigKeys.QUEUE_PREFIX + "<queue>." + option
                    + ", since each must fit one consumer's method, marks one queue or limits one queue");
        }
        if (option.startsWith("db.") || option.startsWith("h2.")) {
            return Optional.of("it is a server variable of jobqueue's Liberty datasource files, which Liberty reads"
                    + " from server.xml, bootstrap.properties or the environment, never from an application's"
                    + " microprofile-config.properties");
        }
        return Optional.of("no such key; the keys for the whole node are " + new TreeSet<>(ConfigKeys.NODE)
                + ", and the queue options " + new TreeSet<>(ConfigKeys.GLOBAL_OPTIONS) + " are also read as"
                + " jobqueue.<option>, a default for every queue");
    }

    /** Splits a per-queue or per-schedule key; names may contain dots, so the longest known option suffix wins. */
    static Optional<ScopedKey> parse(String key, String prefix, Set<String> options) {
        if (!key.startsWith(prefix)) {
            return Optional.empty();
        }
        String rest = key.substring(prefix.length());
        return options.stream()
                .filter(option -> rest.endsWith("." + option) && rest.length() > option.length() + 1)
                .max(Comparator.comparingInt(String::length))
                .map(option -> new ScopedKey(rest.substring(0, rest.length() - option.length() - 1), option));
    }
}

package dev.jobqueue.internal.admin;

import dev.jobqueue.JobId;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.SafeText;
import dev.jobqueue.internal.config.Durations;
import dev.jobqueue.internal.store.JobCursor;
import dev.jobqueue.internal.store.JobFilter;
import dev.jobqueue.internal.store.JobSort;
import dev.jobqueue.internal.store.JobState;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** Reads the admin API's parameters, refusing a bad one with {@link BadRequest} and a message that names it. */
final class AdminParams {

    /** How many jobs a listing page or a request naming jobs by id may hold. */
    static final int MAX_PAGE_SIZE = DefaultJobAdmin.MAX_PAGE_SIZE;
    /** The longest dedupe key, ordering key or group, as the schema stores them. */
    private static final int MAX_KEY_LENGTH = 200;

    private AdminParams() {
    }

    static String queue(String name) {
        if (!QueueNames.isValid(name)) {
            throw new BadRequest(Messages.invalidQueueName(name));
        }
        return name;
    }

    /** A schedule's name, which follows the rule of queue names. */
    static String scheduleName(String name) {
        if (!QueueNames.isValid(name)) {
            throw new BadRequest("schedule name '" + SafeText.of(name) + "' is not valid: schedule names match"
                    + " [a-z0-9][a-z0-9._-]* and are at most " + QueueNames.MAX_LENGTH + " characters");
        }
        return name;
    }

    static String group(String name) {
        if (name != null && (name.length() > MAX_KEY_LENGTH || name.indexOf('\0') >= 0)) {
            // Checked here, so that the message shows the name escaped and cut, not as the put's rule echoes it.
            throw new BadRequest(Messages.invalidGroupName(name, "a group is 1 to " + MAX_KEY_LENGTH
                    + " characters and holds no NUL"));
        }
        try {
            return DefaultJobAdmin.requireValidGroup(name);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(e.getMessage());
        }
    }

    static int number(String name, String value, int min, int max) {
        try {
            int number = Integer.parseInt(value);
            if (number < min || number > max) {
                throw new BadRequest(name + " must be between " + min + " and " + max + ", was " + number);
            }
            return number;
        } catch (NumberFormatException e) {
            throw new BadRequest(name + " must be a whole number, was '" + SafeText.of(value) + "'");
        }
    }

    static Duration duration(String name, String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(name + " '" + SafeText.of(value) + "': " + e.getMessage());
        }
    }

    static JobId id(String id) {
        if (id == null) {
            throw new BadRequest("a job id is null; job ids are UUIDs");
        }
        try {
            return JobId.parse(id);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("'" + SafeText.of(id) + "' is not a job id; job ids are UUIDs");
        }
    }

    /** Job ids from a request body: 1 to {@value #MAX_PAGE_SIZE} of them. */
    static List<String> ids(List<String> ids) {
        if (ids == null || ids.isEmpty() || ids.size() > MAX_PAGE_SIZE) {
            throw new BadRequest("the body must be {\"ids\":[...]} with 1 to " + MAX_PAGE_SIZE + " job ids");
        }
        return ids.stream().map(id -> id(id).toString()).distinct().toList();
    }

    /** A filter from query parameters, each optional; a blank one is no filter. */
    static JobFilter filter(String queue, String state, String id, String dedupeKey, String orderingKey,
            String group) {
        return new JobFilter(present(queue) ? queue(queue) : null, present(state) ? state(state) : null,
                present(id) ? id(id).toString() : null, key("dedupeKey", dedupeKey), key("orderingKey", orderingKey),
                present(group) ? group(group) : null);
    }

    static JobSort sort(String sort) {
        return switch (sort) {
            case "put" -> JobSort.PUT;
            case "due" -> JobSort.DUE;
            default -> throw new BadRequest("sort must be 'put' or 'due', was '" + SafeText.of(sort) + "'");
        };
    }

    /** The page token, or null for the first page. */
    static JobCursor cursor(String after) {
        if (!present(after)) {
            return null;
        }
        try {
            return JobCursor.parse(after);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("after: " + e.getMessage());
        }
    }

    private static JobState state(String state) {
        try {
            return JobState.valueOf(state.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new BadRequest("state must be WAITING, PENDING, RUNNING, DONE or FAILED, was '" + SafeText.of(state)
                    + "'");
        }
    }

    private static String key(String name, String value) {
        if (!present(value)) {
            return null;
        }
        if (value.length() > MAX_KEY_LENGTH) {
            throw new BadRequest(name + " is at most " + MAX_KEY_LENGTH + " characters");
        }
        if (value.indexOf('\0') >= 0) {
            // PostgreSQL refuses a NUL in any text, as a parameter too, so no key can hold one.
            throw new BadRequest(name + " '" + SafeText.of(value) + "' holds a NUL character, which no key can");
        }
        return value;
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }
}

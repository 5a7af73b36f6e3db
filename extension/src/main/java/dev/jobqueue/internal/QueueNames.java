package dev.jobqueue.internal;

import java.util.regex.Pattern;

/** The rule for queue names: they appear in config keys, metric tags and URLs, so they stay plain. */
public final class QueueNames {

    public static final int MAX_LENGTH = 100;

    private static final Pattern VALID = Pattern.compile("[a-z0-9][a-z0-9._-]*");

    private QueueNames() {
    }

    public static boolean isValid(String queue) {
        return queue != null && queue.length() <= MAX_LENGTH && VALID.matcher(queue).matches();
    }

    /** Throws {@link IllegalArgumentException} with a clear message when the name is not valid. */
    public static String requireValid(String queue) {
        if (!isValid(queue)) {
            throw new IllegalArgumentException(Messages.invalidQueueName(queue));
        }
        return queue;
    }
}

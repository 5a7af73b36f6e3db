package dev.jobqueue.internal;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Every user-facing error message, each with a code a user can search for. Keeping them in one
 * place keeps their wording consistent.
 */
public final class Messages {

    private Messages() {
    }

    public static String invalidSignature(Method method, String problem) {
        return "JQ001: @Consumer method " + describe(method) + " has an invalid signature: " + problem
                + ". Expected: public void <name>(<PayloadType> payload[, dev.jobqueue.JobContext context])";
    }

    public static String duplicateQueue(String queue, Method first, Method second) {
        return "JQ002: queue '" + queue + "' has two @Consumer methods, " + describe(first) + " and "
                + describe(second) + "; a queue has exactly one consumer";
    }

    public static String invalidQueueName(String queue, Method method) {
        return "JQ003: @Consumer method " + describe(method) + " names the invalid queue '" + queue
                + "'; queue names match [a-z0-9][a-z0-9._-]* and are at most " + QueueNames.MAX_LENGTH
                + " characters";
    }

    public static String invalidQueueName(String queue) {
        return "JQ003: invalid queue name '" + queue + "'; queue names match [a-z0-9][a-z0-9._-]* and are at most "
                + QueueNames.MAX_LENGTH + " characters";
    }

    public static String nullPayload(String queue) {
        return "JQ010: cannot put a null payload on queue '" + queue + "'";
    }

    public static String unserialisablePayload(String queue, Class<?> type, Throwable cause) {
        return "JQ011: cannot serialise payload of type " + type.getName() + " for queue '" + queue
                + "' with JSON-B: " + cause.getMessage();
    }

    public static String undeserialisablePayload(Method method, Throwable cause) {
        return "JQ012: payload cannot be deserialised into the first parameter of " + describe(method) + ": "
                + cause.getMessage();
    }

    public static String badConfigValue(String key, String value, String problem) {
        return "JQ020: configuration key " + key + " has the invalid value '" + value + "': " + problem;
    }

    public static String missingTable(String table, String script) {
        return "JQ030: the table " + table + " or one of its companions does not exist, or lacks a column. Create them with the script "
                + script + " from the jobqueue-extension jar, or set jobqueue.schema.create=true";
    }

    public static String describe(Method method) {
        String params = Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", "));
        return method.getDeclaringClass().getName() + "#" + method.getName() + "(" + params + ")";
    }
}

package dev.jobqueue.internal;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
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
                + ". Expected: public void <name>(<PayloadType> payload[, dev.jobqueue.JobContext context]), or with"
                + " jobsPerCall set: public void <name>(java.util.List<PayloadType> payloads[,"
                + " java.util.List<dev.jobqueue.JobContext> contexts])";
    }

    /** A batch option that does not fit the consumer: jobs-per-call on a single-job one, or a non-transactional one. */
    public static String batchOptionMismatch(String describedConsumer, String problem) {
        return "JQ004: " + describedConsumer + ": " + problem;
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

    public static String payloadTooLarge(String queue, long size, long limit, String setBy) {
        return "JQ013: the payload for queue '" + queue + "' is " + size + " bytes of JSON, more than the " + limit
                + " bytes allowed by " + setBy + "; nothing was written. Put a reference to the data instead, or"
                + " raise the limit with jobqueue.queue." + queue + ".max-payload-size or jobqueue.max-payload-size";
    }

    public static String badConfigValue(String key, String value, String problem) {
        return "JQ020: configuration key " + key + " has the invalid value '" + value + "': " + problem;
    }

    public static String missingTable(String table, String script) {
        return "JQ030: the table " + table + " or one of its companions does not exist, or lacks a column. Create them with the script "
                + script + " from the jobqueue-extension jar, or set jobqueue.schema.create=true";
    }

    public static String rollbackOnly(Method method) {
        return "JQ040: " + describe(method) + " returned normally, but its transaction was marked rollback-only,"
                + " so its writes were rolled back and the attempt counts as failed. Something in it called"
                + " setRollbackOnly(), or an exception it caught marked the transaction: a PersistenceException at"
                + " flush or commit (a duplicate key, a constraint) does, even when caught. Let such exceptions"
                + " propagate, or run that work in a REQUIRES_NEW transaction of its own";
    }

    public static String databaseUnreachable(String problem) {
        return "JQ031: cannot reach the jobqueue database: " + problem;
    }

    public static String unsupportedDatabase(String product) {
        return "JQ032: jobqueue does not support the database " + product + "; it supports PostgreSQL, MariaDB and H2";
    }

    public static String missingScript(String script) {
        return "JQ033: cannot read the schema script " + script + " from the jobqueue-extension jar";
    }

    public static String inexactKeyColumns(String columns, String upgradeScript) {
        return "JQ034: the columns " + columns + " do not compare byte for byte (their collation is not"
                + " utf8mb4_nopad_bin), so keys such as 'Ab1' and 'ab1', or 'a' and 'a ', can be taken for one."
                + " Convert them with the script " + upgradeScript + " from the jobqueue-extension jar, or set"
                + " jobqueue.schema.create=true to have jobqueue run it";
    }

    public static String wrongIsolation(String level) {
        return "JQ035: jobqueue's datasource (java:comp/DefaultDataSource) runs transactions at " + level
                + "; jobqueue needs READ COMMITTED, or a job that waits for two jobs finishing together can wait"
                + " forever, and GroupFinished can be lost. Set it on the datasource; on Liberty:"
                + " <dataSource isolationLevel=\"TRANSACTION_READ_COMMITTED\" ...>, as jobqueue/datasource-mariadb.xml"
                + " does";
    }

    // The admin API, the readiness check and the shipped datasources: JQ080 to JQ089.

    public static String missingRequestedByHeader(String header) {
        return "JQ080: a request that changes something must carry the header " + header + " (any value), which a"
                + " form or link on another site cannot send; this one did not, and nothing was changed";
    }

    public static String retryBlockedByFailedDependency(String job, String dependency) {
        return "JQ081: job " + job + " cannot be retried: it waits for job " + dependency + ", which is FAILED, so it"
                + " would wait forever. Retry job " + dependency + " first, or delete it";
    }

    public static String unknownQueue(String queue) {
        return "JQ082: no queue '" + queue + "' here: no @Consumer in this application consumes it, it has no jobs"
                + " and it is not paused";
    }

    public static String olderThanRequired() {
        return "JQ083: olderThan is required, such as olderThan=7d; olderThan=0s purges every FAILED job of the queue";
    }

    public static String invalidGroupName(String group, String problem) {
        return "JQ084: invalid group name '" + group + "': " + problem;
    }

    /** What readiness tells anyone who asks; the detail, which can name hosts and users, goes to the log only. */
    public static String databaseNotReady() {
        return "JQ085: the database cannot be reached, or jobqueue's tables cannot be read; the server log has the"
                + " detail";
    }

    public static String databaseNotReadyDetail(String detail) {
        return "JQ085: jobqueue readiness is DOWN, and stays DOWN without further log lines until the database"
                + " answers again: " + detail;
    }

    public static String missingDatasourceVariable(String datasourceFile, String variable) {
        return "JQ086: " + datasourceFile + " needs the server variable " + variable + ", which is not set. Set it in"
                + " bootstrap.properties, in server.xml (<variable name=\"" + variable + "\" value=\"...\"/>) or"
                + " in the environment (" + variable.toUpperCase().replace('.', '_') + ")"
                + (variable.endsWith(".password") ? "; for an empty password, set it to the empty string" : "");
    }

    public static String operatorAction(String user, String action, String target, int count) {
        return "JQ087: " + user + " did " + action + " on " + target + ": " + count + " changed";
    }

    public static String viewerCannotChange(String adminRole) {
        return "JQ088: the role " + adminRole + " is required to change anything; this user may only look";
    }

    public static String dedupeKeyRace(String queue, String dedupeKey, int retries) {
        return "JQ041: the dedupe key " + dedupeKey + " of queue " + queue + " was taken and freed " + retries
                + " times during one put; try again";
    }

    public static String duplicateRejected(String queue, Object existing, String dedupeKey) {
        return "JQ042: queue " + queue + " already has unfinished job " + existing + " with dedupe key " + dedupeKey;
    }

    public static String duplicateRunning(String queue, Object existing, String dedupeKey) {
        return "JQ043: job " + existing + " with dedupe key " + dedupeKey + " on queue " + queue
                + " is already running, so it cannot be replaced";
    }

    /** The error of a job that fails because a job it waits for failed. */
    public static String dependencyFailed(String dependencyId) {
        return "JQ045: job " + dependencyId + ", which this job waits for, is FAILED";
    }

    public static String payloadDoesNotMatch(Method method, List<String> differences) {
        return "JQ044: the payload does not match the first parameter of " + describe(method)
                + ", and its queue has strict-payload=true: " + String.join(", ", differences);
    }

    public static String notPgjdbc(Throwable cause) {
        return "JQ050: the PostgreSQL driver does not offer org.postgresql.PGConnection.getNotifications; use"
                + " PostgreSQL's JDBC driver (pgjdbc) to wake nodes with LISTEN/NOTIFY: " + cause;
    }

    public static String describe(Method method) {
        String params = Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", "));
        return method.getDeclaringClass().getName() + "#" + method.getName() + "(" + params + ")";
    }

    public static String badScheduleName(String name, String source) {
        return "JQ060: schedule name '" + name + "' of @Recurring on " + source + " is not valid: use up to "
                + QueueNames.MAX_LENGTH + " of a-z, 0-9, '.', '_' and '-', starting with a letter or digit";
    }

    public static String badScheduleTimes(String name, String source, String problem) {
        return "JQ060: schedule " + name + " (@Recurring on " + source + "): " + problem;
    }

    public static String badScheduleValue(String name, String from, String value, String problem) {
        return "JQ060: schedule " + name + ": " + from + " has the invalid value '" + value + "': " + problem;
    }

    public static String duplicateSchedule(String name) {
        return "JQ060: two @Recurring declarations are named " + name + "; give one another name with"
                + " @Recurring(name = ...)";
    }
}

package dev.jobqueue.internal;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Every user-facing error message, each with a code a user can search for. Keeping them in one
 * place keeps their wording consistent.
 */
public final class Messages {

    private static final Pattern CODE = Pattern.compile("JQ\\d{3}:");

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

    /** A queue name that is not valid, shown with its control characters escaped (a NUL as \u0000) and cut. */
    public static String invalidQueueName(String queue) {
        return "JQ003: invalid queue name '" + SafeText.of(queue) + "'; queue names match [a-z0-9][a-z0-9._-]* and"
                + " are at most " + QueueNames.MAX_LENGTH + " characters";
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

    /** A put's message for one job of a {@code putAll}: which of its jobs. */
    public static String inPutAll(String message, int index, int jobs) {
        return message + " (the job at index " + index + " of a putAll of " + jobs + ")";
    }

    public static String payloadTooLarge(String queue, long size, long limit, String setBy) {
        return "JQ013: the payload for queue '" + queue + "' is " + size + " bytes of JSON, more than the " + limit
                + " bytes allowed by " + setBy + "; nothing was written. Put a reference to the data instead, or"
                + " raise the limit with jobqueue.queue." + queue + ".max-payload-size or jobqueue.max-payload-size";
    }

    /** A key in the application's own configuration that jobqueue would not read: usually a typo. */
    public static String unreadConfigKey(String key, String problem) {
        return "JQ014: configuration key " + key + " would have no effect: " + problem;
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

    /** A job's completion lost its database connection again after it was handed back as often as it may be. */
    public static String completionNotWritten(String id, String queue, int handBacks, Duration window) {
        return "JQ046: the completion of job " + id + " on queue " + queue + " could not be written: its database"
                + " connection was lost again after it was handed back " + handBacks + " times in "
                + window.toMinutes() + " minutes, so this attempt counts as failed";
    }

    public static String databaseFailedAtStart(String problem) {
        return "JQ031: an SQL error at start-up, while reaching jobqueue's database, checking its tables or running"
                + " the schema script: " + problem;
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
                + " does; on Payara: create-jdbc-connection-pool --isolationlevel read-committed, as"
                + " jobqueue/datasource-mariadb.asadmin does; on WildFly: transaction-isolation=TRANSACTION_READ_COMMITTED"
                + " on the data-source, as jobqueue/datasource-mariadb.cli does";
    }

    /** The test kit is in the application: jobs run only when a test drains them. */
    public static String testKitPresent() {
        return "JQ036: jobqueue-test is in this application, so jobs run only when a test drains their queue."
                + " It belongs in test deployments only: if this is not a test, remove it from the WAR (give the"
                + " dependency <scope>test</scope>)";
    }

    // The admin API's refusals of a request: JQ070 to JQ079.

    /** A query, path or header parameter of an admin request that is not valid; {@code problem} names it. */
    public static String badParameter(String problem) {
        return "JQ070: " + problem;
    }

    public static String notFound(String what) {
        return "JQ071: " + what;
    }

    /** A request that cannot be read: broken percent-encoding, or a body that is not the JSON it takes. */
    public static String unreadableRequest(String problem) {
        return "JQ072: the request cannot be read: " + problem;
    }

    /** A request Jakarta REST refused before any admin method ran: no such path, or a method the path does not take. */
    public static String requestRefused(int status, String reason) {
        return "JQ073: " + status + " " + reason;
    }

    public static String authenticationRequired() {
        return "JQ074: authentication required";
    }

    public static String roleRequired(String viewerRole, String adminRole) {
        return "JQ075: the role " + viewerRole + " or " + adminRole + " is required";
    }

    public static String adminDisabled(String key) {
        return "JQ076: the jobqueue admin API is disabled (" + key + "=false)";
    }

    /** An admin request that failed for a reason of the server's own: the log has the cause, the caller only this. */
    public static String adminFailed(String reference) {
        return "JQ079: the request failed on the server; its log has the cause under reference " + reference;
    }

    /** The code a message starts with, such as {@code JQ070}; JQ079 for one that has none. */
    public static String codeOf(String message) {
        return message != null && CODE.matcher(message).lookingAt() ? message.substring(0, 5) : "JQ079";
    }

    // Node identity: JQ090 to JQ091.

    /** Another live process holds leases under this node's name: {@code renewed} of them moved while it watched. */
    public static String sharedNodeName(String node, int renewed, Duration watched) {
        return "JQ090: another live process uses this node's name, '" + node + "': the leases of " + renewed
                + " jobs recorded as running under it were renewed in the " + watched.toSeconds() + " s after this"
                + " node started, so they were left to it. Nodes that run at the same time must not share a name; give"
                + " each its own jobqueue.node-name (a copied configuration, or two containers with one server and"
                + " host name, share one). Until then this node takes back at start-up only the jobs whose leases no"
                + " process renews, and the dashboard shows the processes as one node";
    }

    public static String cannotReadDatabaseClock(Throwable cause) {
        return "JQ091: cannot read the database's clock at start-up, which leases are measured against; until the"
                + " lease keeper reads it, this node writes leases by its own clock: " + cause;
    }

    // Flow control: JQ093 to JQ094.

    public static String badLimitOverride(String queue, String column, String value, String problem) {
        return "JQ093: queue " + queue + " has the override " + column + " = '" + SafeText.of(value) + "' in"
                + " jobqueue_queue, which is not valid (" + problem + "); it is cleared, and the configured limit"
                + " applies until an admin sets another";
    }

    public static String badStartWindow(String queue, String value) {
        return "JQ094: queue " + queue + " has an unreadable start_window '" + SafeText.of(value) + "' in"
                + " jobqueue_queue; its rate limit counts a full period of starts from now, so that it cannot be"
                + " exceeded, and the window is written anew";
    }

    // The wake-up between nodes: JQ092.

    public static String listenDatasourceMissing(String jndiName, Exception cause) {
        return "JQ092: jobqueue.notify.listen-datasource names " + jndiName + ", which is not a datasource here;"
                + " this node does not listen, and jobs put on other nodes start at its next poll: " + cause;
    }

    // The admin API, the readiness check and the shipped datasources: JQ080 to JQ089.

    public static String missingRequestedByHeader(String header) {
        return "JQ080: a request that changes something must carry the header " + header + " (any value), which a"
                + " form or link on another site cannot send; this one did not, and nothing was changed";
    }

    public static String retryBlockedByFailedDependency(String job, String dependency) {
        return "JQ081: job " + job + " cannot be retried: it waits for job " + dependency + ", which is FAILED or"
                + " CANCELLED, so it would wait forever. Retry job " + dependency + " first, or delete it";
    }

    public static String unknownQueue(String queue) {
        return "JQ082: no queue '" + SafeText.of(queue) + "' here: no @Consumer in this application consumes it, it has no jobs"
                + " and it is not paused";
    }

    public static String olderThanRequired() {
        return "JQ083: olderThan is required, such as olderThan=7d; olderThan=0s purges every FAILED job of the queue";
    }

    public static String invalidGroupName(String group, String problem) {
        return "JQ084: invalid group name '" + SafeText.of(group) + "': " + problem;
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

    /** What an operator changed; every part that came from the request is escaped, so none can forge a line. */
    public static String operatorAction(String user, String action, String target, int count) {
        return "JQ087: " + SafeText.of(user) + " did " + action + " on " + SafeText.of(target, 2_000) + ": " + count
                + " changed";
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

    public static String dependencyCancelled(String dependencyId) {
        return "JQ095: job " + dependencyId + ", which this job waits for, is CANCELLED";
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

    /** A declared schedule turned off because no running node has declared it for the grace. */
    public static String undeclaredScheduleTurnedOff(String name, String queue, Duration grace) {
        return "JQ061: schedule " + name + " of queue " + queue + " is turned off: no running node has declared it"
                + " with @Recurring for " + grace(grace) + ". It fires again when a node declares it again;"
                + " delete it with DELETE /jobqueue/admin/schedules/" + name + " or JobSchedules.delete";
    }

    /** This node's declaration of a schedule waits, because a newer one is in force. */
    public static String newerDeclarationInForce(String name, Instant declaredAt, Duration grace) {
        return "JQ062: schedule " + name + " stays as a newer @Recurring declaration, first declared at " + declaredAt
                + " and still declared by a running node, defines it; this node's declaration takes effect once no"
                + " running node has declared that one for " + grace(grace);
    }

    private static String grace(Duration grace) {
        return grace.toSeconds() + "s (jobqueue.undeclared-schedule-grace)";
    }
}

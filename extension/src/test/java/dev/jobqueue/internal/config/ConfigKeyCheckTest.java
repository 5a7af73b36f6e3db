package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConfigKeyCheckTest {

    private static List<String> problems(List<String> ownKeys, Set<String> ownQueues) {
        return ConfigKeyCheck.problems(ownKeys, ownQueues, Set.of("nightly-report"));
    }

    private static String onlyProblem(String key) {
        List<String> found = problems(List.of(key), Set.of("email"));
        assertEquals(1, found.size(), found.toString());
        return found.get(0);
    }

    @Test
    void queue_names_with_dots_are_split_at_the_longest_known_option() {
        assertEquals(Optional.of(new ConfigKeyCheck.ScopedKey("mail.eu", "backoff.max")), ConfigKeyCheck.parse(
                "jobqueue.queue.mail.eu.backoff.max", ConfigKeys.QUEUE_PREFIX, ConfigKeys.QUEUE_OPTIONS));
    }

    @Test
    void known_keys_of_every_scope_are_fine() {
        assertEquals(List.of(), problems(List.of("jobqueue.queue.email.max-attempts", "jobqueue.lease",
                "jobqueue.shutdown-grace", "jobqueue.node-name", "jobqueue.schedule.nightly-report.cron",
                "jobqueue.schedule.nightly-report.missed-after", "other.library.key"), Set.of("email")));
    }

    @Test
    void a_key_for_a_queue_without_a_consumer_is_a_problem_unless_the_queue_is_producer_only() {
        String problem = onlyProblem("jobqueue.queue.emial.max-attempts");

        assertTrue(problem.startsWith("JQ014: configuration key jobqueue.queue.emial.max-attempts would have no"
                + " effect: no @Consumer in this application consumes queue 'emial'"), problem);
        assertTrue(problem.contains("jobqueue.queue.emial.producer-only=true"), problem);
        assertEquals(List.of(), problems(List.of("jobqueue.queue.sms.max-attempts",
                "jobqueue.queue.sms.producer-only"), Set.of("email", "sms")));
    }

    @Test
    void an_unknown_queue_option_is_a_problem_that_lists_the_options() {
        String problem = onlyProblem("jobqueue.queue.email.max-attempt");

        assertTrue(problem.startsWith("JQ014: configuration key jobqueue.queue.email.max-attempt would have no"
                + " effect: no such queue option; the options are [backoff.delays, "), problem);
        assertTrue(problem.contains("max-attempts"), problem);
    }

    @Test
    void a_misspelt_global_key_is_a_problem_that_lists_the_node_keys_and_the_global_options() {
        String problem = onlyProblem("jobqueue.max-attempt");

        assertTrue(problem.startsWith("JQ014: configuration key jobqueue.max-attempt would have no effect: no such"
                + " key; the keys for the whole node are [jobqueue.admin.enabled, "), problem);
        assertTrue(problem.contains("jobqueue.shutdown-grace"), problem);
        assertTrue(problem.contains("max-attempts"), problem);
    }

    @Test
    void a_global_key_for_an_option_read_per_queue_only_is_a_problem_naming_the_per_queue_key() {
        for (String option : List.of("jobs-per-call", "jobs-per-transaction", "transactional", "producer-only",
                "rate-limit", "max-running")) {
            assertEquals("JQ014: configuration key jobqueue." + option + " would have no effect: jobs-per-call,"
                    + " jobs-per-transaction, transactional, producer-only, rate-limit and max-running are read per"
                    + " queue only, as jobqueue.queue.<queue>." + option + ", since each must fit one consumer's"
                    + " method, marks one queue or limits one queue",
                    onlyProblem("jobqueue." + option));
        }
    }

    @Test
    void a_datasource_server_variable_in_the_applications_own_file_is_a_problem_that_says_where_it_belongs() {
        String problem = onlyProblem("jobqueue.db.user");

        assertTrue(problem.startsWith("JQ014: configuration key jobqueue.db.user would have no effect: it is a"
                + " server variable"), problem);
        assertTrue(problem.contains("server.xml"), problem);
    }

    @Test
    void an_unknown_schedule_option_is_a_problem_that_lists_the_options() {
        String problem = onlyProblem("jobqueue.schedule.nightly-report.crom");

        assertEquals("JQ014: configuration key jobqueue.schedule.nightly-report.crom would have no effect: no such"
                + " schedule option; the options are [catch-up-limit, cron, enabled, missed, missed-after, overlap,"
                + " zone]", problem);
    }

    @Test
    void a_key_for_a_schedule_no_recurring_declares_is_a_problem_that_lists_the_declared_ones() {
        String problem = onlyProblem("jobqueue.schedule.nightly-reports.cron");

        assertEquals("JQ014: configuration key jobqueue.schedule.nightly-reports.cron would have no effect: no"
                + " @Recurring in this application declares schedule 'nightly-reports', and configuration changes"
                + " only declared schedules; the declared ones are [nightly-report]", problem);
    }

    @Test
    void the_queues_with_a_producer_only_key_are_found_whatever_its_value() {
        assertEquals(Set.of("sms", "push.eu"), ConfigKeyCheck.queuesWithProducerOnlyKey(List.of(
                "jobqueue.queue.sms.producer-only", "jobqueue.queue.push.eu.producer-only",
                "jobqueue.queue.email.max-attempts", "JOBQUEUE_QUEUE_FAX_PRODUCER_ONLY")));
    }
}

package dev.jobqueue.it;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.broken.BadBatchOptionsConsumers;
import dev.jobqueue.it.broken.BadBatchSignatureConsumer;
import dev.jobqueue.it.broken.BadCronConsumer;
import dev.jobqueue.it.broken.BadQueueNameConsumer;
import dev.jobqueue.it.broken.BrokenConfigConsumer;
import dev.jobqueue.it.broken.DuplicateQueueConsumers;
import dev.jobqueue.it.broken.MisspeltKeysConsumer;
import dev.jobqueue.it.broken.WrongSignatureConsumer;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A broken consumer fails the deployment, with a message that names the method and the problem. */
@Tag("any-database")
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class BrokenDeploymentIT {

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "wrong-signature", managed = false, testable = false)
    static WebArchive wrongSignature() {
        return Deployments.war("wrong-signature", WrongSignatureConsumer.class);
    }

    @Deployment(name = "duplicate-queue", managed = false, testable = false)
    static WebArchive duplicateQueue() {
        return Deployments.war("duplicate-queue", DuplicateQueueConsumers.class);
    }

    @Deployment(name = "bad-queue-name", managed = false, testable = false)
    static WebArchive badQueueName() {
        return Deployments.war("bad-queue-name", BadQueueNameConsumer.class);
    }

    @Deployment(name = "bad-config", managed = false, testable = false)
    static WebArchive badConfig() {
        return Deployments.war("bad-config", "broken", BrokenConfigConsumer.class);
    }

    @Deployment(name = "unread-keys", managed = false, testable = false)
    static WebArchive unreadKeys() {
        return Deployments.war("unread-keys", "broken-keys", MisspeltKeysConsumer.class);
    }

    @Deployment(name = "bad-cron", managed = false, testable = false)
    static WebArchive badCron() {
        return Deployments.war("bad-cron", BadCronConsumer.class);
    }

    @Deployment(name = "bad-batch-signature", managed = false, testable = false)
    static WebArchive badBatchSignature() {
        return Deployments.war("bad-batch-signature", BadBatchSignatureConsumer.class);
    }

    @Deployment(name = "bad-batch-options", managed = false, testable = false)
    static WebArchive badBatchOptions() {
        return Deployments.war("bad-batch-options", "broken-batch", BadBatchOptionsConsumers.class);
    }

    @Test
    void a_batch_consumer_that_does_not_take_a_list_fails_the_deployment_naming_the_method() {
        assertDeploymentFailsWith("bad-batch-signature", "JQ001",
                BadBatchSignatureConsumer.class.getName() + "#handle(String)",
                "first parameter must be a java.util.List of the payload type, not java.lang.String");
    }

    @Test
    void batch_options_that_do_not_fit_the_consumer_fail_the_deployment_naming_each_method() {
        assertDeploymentFailsWith("bad-batch-options",
                "JQ004: " + BadBatchOptionsConsumers.class.getName() + "#notTransactional",
                "a batch consumer (jobsPerCall is set) must be transactional",
                "JQ004: " + BadBatchOptionsConsumers.class.getName() + "#single",
                "jobs-per-call is 5 in the configuration, but the consumer takes one payload",
                "JQ004: " + BadBatchOptionsConsumers.class.getName() + "#groupedNotTransactional",
                "jobs-per-transaction is 4, but the consumer is not transactional",
                "JQ004: " + BadBatchOptionsConsumers.class.getName() + "#groupedBatch",
                "jobs-per-transaction is 4, but the consumer is a batch consumer");
    }

    @Test
    void a_bad_cron_expression_or_zone_fails_the_deployment_naming_the_schedule() {
        assertDeploymentFailsWith("bad-cron",
                "JQ060: schedule nightly-cleanup (@Recurring on " + BadCronConsumer.class.getName() + "#cleanup",
                "cron expression '61 2 * * *' cannot be read",
                "JQ060: schedule lost-zone", "unknown time zone 'Europe/Atlantis'");
    }

    @Test
    void bad_configuration_values_fail_the_deployment_naming_each_key_and_value() {
        assertDeploymentFailsWith("bad-config",
                "JQ020: configuration key jobqueue.queue.broken-config.lease has the invalid value '-5s'",
                "jobqueue.queue.broken-config.success-on has the invalid value 'com.example.NoSuchException'",
                "JQ020: configuration key jobqueue.shutdown-grace has the invalid value 'soon'",
                "JQ020: configuration key jobqueue.notify.enabled has the invalid value 'maybe': expected true or false",
                "JQ020: configuration key jobqueue.dashboard.enabled has the invalid value 'on': expected true or"
                        + " false",
                "JQ020: configuration key jobqueue.queue.only-puts.producer-only has the invalid value 'yes': expected"
                        + " true or false");
    }

    @Test
    void keys_in_the_applications_file_that_would_have_no_effect_fail_the_deployment_naming_each_key() {
        assertDeploymentFailsWith("unread-keys",
                "JQ014: configuration key jobqueue.max-attempt would have no effect: no such key; the keys for the"
                        + " whole node are [jobqueue.admin.enabled,",
                "JQ014: configuration key jobqueue.queue.keys-report.max-attempt would have no effect: no such queue"
                        + " option; the options are [",
                "JQ014: configuration key jobqueue.queue.nobody-consumes-this.max-attempts would have no effect: no"
                        + " @Consumer in this application consumes queue 'nobody-consumes-this'",
                "JQ014: configuration key jobqueue.schedule.keys-report.crom would have no effect: no such schedule"
                        + " option; the options are [catch-up-limit, cron,",
                "JQ014: configuration key jobqueue.schedule.nobody-declares-this.cron would have no effect: no"
                        + " @Recurring in this application declares schedule 'nobody-declares-this'",
                "JQ014: configuration key jobqueue.jobs-per-call would have no effect: jobs-per-call,"
                        + " jobs-per-transaction, transactional, producer-only, rate-limit and max-running are read"
                        + " per queue only",
                "JQ014: configuration key jobqueue.db.pool.max would have no effect: it is a server variable");
    }

    @Test
    void a_consumer_with_a_bad_signature_fails_the_deployment_naming_the_method() {
        assertDeploymentFailsWith("wrong-signature",
                "JQ001", WrongSignatureConsumer.class.getName() + "#handle(String, int)", "JobContext");
    }

    @Test
    void two_consumers_for_one_queue_fail_the_deployment_naming_both() {
        assertDeploymentFailsWith("duplicate-queue",
                "JQ002", "'twice'", DuplicateQueueConsumers.class.getName() + "#first",
                DuplicateQueueConsumers.class.getName() + "#second");
    }

    @Test
    void an_invalid_queue_name_fails_the_deployment_naming_the_method() {
        assertDeploymentFailsWith("bad-queue-name",
                "JQ003", "'Emails!'", BadQueueNameConsumer.class.getName() + "#handle");
    }

    private static String causeChain(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            text.append(cause).append('\n');
        }
        return text.toString();
    }

    private void assertDeploymentFailsWith(String deployment, String... fragments) {
        ServerLog.Mark logMark = ServerLog.mark();
        Exception error = assertThrows(Exception.class, () -> deployer.deploy(deployment));
        try {
            // Liberty's Arquillian container keeps only the first line of a multi-line CDI error, so the
            // server's own report of this deployment is read too.
            String messages = causeChain(error) + ServerLog.since(logMark);
            for (String fragment : fragments) {
                assertTrue(messages.contains(fragment), "expected '" + fragment + "' in:\n" + messages);
            }
        } finally {
            try {
                deployer.undeploy(deployment);
            } catch (RuntimeException ignored) {
                // a deployment that failed may not be there to undeploy
            }
        }
    }
}

package dev.jobqueue.it.bounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobId;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Deployments;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.UserTransaction;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A put whose payload is larger than its queue's {@code max-payload-size} is refused before anything is
 * written, with a message naming the size, the limit and the key that sets it, and the caller's transaction
 * goes on. The limit is measured on the payload's JSON in UTF-8.
 */
@ExtendWith(ArquillianExtension.class)
class PayloadLimitIT {

    private static final int MIB = 1 << 20;

    @Deployment(name = "limits")
    static WebArchive app() {
        return Deployments.war("bounds-limits", "bounds", LimitedConsumers.class, LimitedConsumers.Annotated.class,
                LimitedConsumers.Configured.class, LimitedConsumers.Defaulted.class, JobRows.class);
    }

    /** An application that only puts jobs, with a global limit. */
    @Deployment(name = "global")
    static WebArchive producer() {
        return Deployments.war("bounds-global", "bounds-global", JobRows.class);
    }

    @Inject
    JobQueue jobs;

    @EJB
    JobRows rows;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    /** A string payload whose JSON ("..." with its quotes) is exactly {@code bytes} long in UTF-8. */
    private static String jsonOfSize(int bytes) {
        return "x".repeat(bytes - 2);
    }

    @Test
    @OperateOnDeployment("limits")
    void a_ten_mib_payload_is_refused_by_the_default_limit_naming_size_limit_and_key() {
        long before = rows.count("limit-default");

        InvalidPayloadException refused = assertThrows(InvalidPayloadException.class,
                () -> jobs.put("limit-default", jsonOfSize(10 * MIB)));

        assertEquals("JQ013: the payload for queue 'limit-default' is 10485760 bytes of JSON, more than the 1048576"
                + " bytes allowed by jobqueue.max-payload-size (the default); nothing was written. Put a reference to"
                + " the data instead, or raise the limit with jobqueue.queue.limit-default.max-payload-size or"
                + " jobqueue.max-payload-size", refused.getMessage());
        assertEquals(before, rows.count("limit-default"), "nothing was written");
    }

    @Test
    @OperateOnDeployment("limits")
    void a_payload_of_exactly_the_limit_is_accepted_and_one_byte_more_is_refused() {
        JobId atLimit = jobs.put("limit-default", jsonOfSize(MIB));

        assertEquals(1, rows.countSql("SELECT COUNT(*) FROM jobqueue_job WHERE id = ?1", atLimit.toString()));
        assertThrows(InvalidPayloadException.class, () -> jobs.put("limit-default", jsonOfSize(MIB + 1)));
    }

    @Test
    @OperateOnDeployment("limits")
    void the_limit_counts_utf8_bytes_not_characters() {
        // 700 two-byte characters: 702 characters of JSON, but 1,402 bytes; the annotation allows 2,048.
        jobs.put("limit-annotated", "é".repeat(700));

        InvalidPayloadException refused = assertThrows(InvalidPayloadException.class,
                () -> jobs.put("limit-annotated", "é".repeat(1024)));

        assertTrue(refused.getMessage().contains("is 2050 bytes of JSON, more than the 2048 bytes allowed by"
                + " max-payload-size on @Consumer"), refused.getMessage());
    }

    @Test
    @OperateOnDeployment("limits")
    void a_per_queue_key_sets_the_limit_and_is_named_when_it_refuses() {
        jobs.put("limit-configured", jsonOfSize(8 * 1024));

        InvalidPayloadException refused = assertThrows(InvalidPayloadException.class,
                () -> jobs.put("limit-configured", jsonOfSize(8 * 1024 + 1)));

        assertTrue(refused.getMessage().contains("more than the 8192 bytes allowed by"
                + " jobqueue.queue.limit-configured.max-payload-size;"), refused.getMessage());
    }

    @Test
    @OperateOnDeployment("limits")
    void a_refused_put_leaves_the_callers_transaction_usable_and_writes_nothing() throws Exception {
        long before = rows.count("limit-annotated");
        transaction.begin();
        JobId first;
        JobId second;
        try {
            first = jobs.put("limit-annotated", "before");
            assertThrows(InvalidPayloadException.class, () -> jobs.put("limit-annotated", jsonOfSize(4096)));
            assertEquals(Status.STATUS_ACTIVE, transaction.getStatus(), "not marked for rollback");
            second = jobs.put("limit-annotated", "after");
        } catch (RuntimeException e) {
            transaction.rollback();
            throw e;
        }
        transaction.commit();

        assertEquals(before + 2, rows.count("limit-annotated"));
        assertEquals(2, rows.countSql("SELECT COUNT(*) FROM jobqueue_job WHERE id IN (?1, ?2)", first.toString(),
                second.toString()));
    }

    @Test
    @OperateOnDeployment("limits")
    void a_queue_without_a_consumer_here_uses_the_global_limit() {
        InvalidPayloadException refused = assertThrows(InvalidPayloadException.class,
                () -> jobs.put("limit-consumed-elsewhere", jsonOfSize(MIB + 1)));

        assertTrue(refused.getMessage().contains("allowed by jobqueue.max-payload-size (the default)"),
                refused.getMessage());
    }

    @Test
    @OperateOnDeployment("global")
    void a_global_key_limits_every_queue_of_a_producer_only_application() {
        JobId accepted = jobs.put("limit-anywhere", jsonOfSize(1024));
        try {
            InvalidPayloadException refused = assertThrows(InvalidPayloadException.class,
                    () -> jobs.put("limit-anywhere", jsonOfSize(1025)));

            assertTrue(refused.getMessage().contains("is 1025 bytes of JSON, more than the 1024 bytes allowed by"
                    + " jobqueue.max-payload-size;"), refused.getMessage());
        } finally {
            rows.execute("DELETE FROM jobqueue_job WHERE id = ?1", accepted.toString());
        }
    }
}

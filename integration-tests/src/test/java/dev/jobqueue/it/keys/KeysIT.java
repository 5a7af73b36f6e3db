package dev.jobqueue.it.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.DuplicatePolicy;
import dev.jobqueue.GroupFinished;
import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.GroupProgress;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Keys, ordering keys, group names and queue names are compared exactly, on every database: names that differ
 * only in case, accents or trailing spaces are different names. A NUL character is refused in a name before
 * anything is written, and removed from a consumer's error before it is stored.
 */
@ExtendWith(ArquillianExtension.class)
class KeysIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Deployment
    static WebArchive app() {
        return Deployments.war("keys", "keys", KeyConsumers.class, KeyRuns.class, KeyPuts.class,
                KeyPuts.Attempts.class, PlacedOrder.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    KeyRuns runs;

    @EJB
    KeyPuts puts;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    /** A name, and three names a case- and accent-insensitive, space-padding comparison would take for it. */
    private static List<String> lookalikes(String tag) {
        return List.of("Key-" + tag, "key-" + tag, "Kéy-" + tag, "Key-" + tag + " ");
    }

    @Test
    void dedupe_keys_differing_in_case_accents_or_trailing_spaces_make_separate_jobs() {
        String tag = UUID.randomUUID().toString();
        List<JobId> ids = lookalikes(tag).stream().map(key -> jobs.put("keys-deduped", "ignore-" + key,
                JobOptions.defaults().key(key).delay(Duration.ofHours(1)))).toList();

        assertEquals(4, new HashSet<>(ids).size(), "IGNORE made one job per key: " + ids);
        for (int i = 0; i < ids.size(); i++) {
            assertEquals("\"ignore-" + lookalikes(tag).get(i) + "\"", puts.payload(ids.get(i)));
        }
        ids.forEach(admin::delete);
    }

    @Test
    void replace_does_not_overwrite_the_job_of_a_key_differing_in_case_accents_or_trailing_spaces() {
        String tag = UUID.randomUUID().toString();
        List<String> keys = lookalikes(tag);
        JobId first = jobs.put("keys-deduped", "first-" + tag, JobOptions.defaults().key(keys.get(0))
                .delay(Duration.ofHours(1)));
        List<JobId> others = keys.subList(1, 4).stream().map(key -> jobs.put("keys-deduped", "replacing-" + key,
                JobOptions.defaults().key(key, DuplicatePolicy.REPLACE).delay(Duration.ofHours(1)))).toList();

        assertFalse(others.contains(first), "REPLACE returned another key's job");
        assertEquals(3, new HashSet<>(others).size());
        assertEquals("\"first-" + tag + "\"", puts.payload(first), "the first key's job kept its payload");
        admin.delete(first);
        others.forEach(admin::delete);
    }

    @Test
    void ordering_keys_differing_in_case_accents_or_trailing_spaces_do_not_wait_for_each_other() throws Exception {
        String tag = UUID.randomUUID().toString();
        List<String> keys = lookalikes(tag);
        try {
            jobs.put("keys-ordered", "hold-" + tag, JobOptions.defaults().orderingKey(keys.get(0)));
            assertTrue(Await.until(() -> runs.hasStarted("hold-" + tag), WAIT), "the holding job started");
            for (String key : keys.subList(1, 4)) {
                jobs.put("keys-ordered", "free-" + key, JobOptions.defaults().orderingKey(key));
            }
            for (String key : keys.subList(1, 4)) {
                assertTrue(Await.until(() -> runs.hasStarted("free-" + key), WAIT),
                        "the job of ordering key '" + key + "' ran while '" + keys.get(0) + "' was held");
            }
        } finally {
            runs.release();
        }
    }

    @Test
    void groups_differing_in_case_accents_or_trailing_spaces_are_separate_groups_each_with_its_own_event()
            throws Exception {
        String tag = UUID.randomUUID().toString();
        List<String> groups = lookalikes(tag);
        transaction.begin();
        for (String group : groups) {
            jobs.put("keys-grouped", "grouped-" + group, JobOptions.defaults().group(group));
        }
        transaction.commit();

        for (String group : groups) {
            assertTrue(Await.until(() -> !runs.groupsFinished(group).isEmpty(), WAIT),
                    "GroupFinished fired for '" + group + "'");
        }
        Thread.sleep(500);
        for (String group : groups) {
            List<GroupFinished> finished = runs.groupsFinished(group);
            assertEquals(1, finished.size(), "fired once for '" + group + "'");
            assertEquals(1, finished.get(0).done(), "'" + group + "' counted only its own job");
            assertEquals(new GroupProgress(group, 0, 0, 0, 1, 0, 0), admin.group(group));
        }
    }

    @Test
    void a_put_with_a_nul_character_in_a_name_throws_and_leaves_the_callers_transaction_to_commit()
            throws Exception {
        String orderId = "order-" + UUID.randomUUID();
        KeyPuts.Attempts attempts = puts.placeOrderTryingBadKey(orderId, "keys-deduped", "nul\0key");

        assertEquals(4, attempts.refusals().size());
        assertTrue(attempts.refusals().get(0).startsWith("key must not contain the NUL character"),
                attempts.refusals().get(0));
        assertTrue(attempts.refusals().get(1).startsWith("orderingKey must not contain the NUL character"),
                attempts.refusals().get(1));
        assertTrue(attempts.refusals().get(2).startsWith("group must not contain the NUL character"),
                attempts.refusals().get(2));
        assertTrue(attempts.refusals().get(3).startsWith("JQ003: invalid queue name 'nul\\u0000key'"),
                attempts.refusals().get(3));
        assertTrue(puts.orderExists(orderId), "the order saved in the same transaction committed");
        assertTrue(Await.until(() -> "DONE".equals(puts.state(attempts.good())), WAIT),
                "the good job put after the refusals committed and ran");
    }

    @Test
    void a_consumer_error_with_a_nul_character_is_recorded_and_the_job_retries_then_fails() throws Exception {
        String payload = "nul-error-" + UUID.randomUUID();
        JobId id = jobs.put("keys-nul-error", payload);

        assertTrue(Await.until(() -> "FAILED".equals(puts.state(id)), WAIT),
                "the job is FAILED after its two attempts, not stuck RUNNING: " + puts.state(id));
        List<String> errors = puts.errors(id);
        assertEquals(2, errors.size(), "both attempts' errors are stored");
        for (String error : errors) {
            assertTrue(error.startsWith("java.lang.IllegalStateException: refused " + payload), error);
        }
    }
}

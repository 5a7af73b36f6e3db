package dev.jobqueue.it.bounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A group's row in {@code jobqueue_group} lives as long as the group has jobs, and no longer. */
@ExtendWith(ArquillianExtension.class)
class GroupRowsIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Deployment
    static WebArchive app() {
        return Deployments.war("bounds-groups", "bounds-plain", GroupConsumers.class, GroupConsumers.Deleted.class,
                GroupConsumers.Kept.class, GroupConsumers.Failing.class, GroupConsumers.Finished.class,
                JobRows.class);
    }

    @Inject
    JobQueue jobs;

    @Inject
    JobAdmin admin;

    @Inject
    GroupConsumers.Finished finished;

    @EJB
    JobRows rows;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    private long groupRows(String group) {
        return rows.countSql("SELECT COUNT(*) FROM jobqueue_group WHERE name = ?1", group);
    }

    private long jobsOf(String group) {
        return rows.countSql("SELECT COUNT(*) FROM jobqueue_job WHERE group_name = ?1", group);
    }

    @Test
    void a_group_whose_jobs_are_deleted_as_they_finish_loses_its_row_with_the_last() throws Exception {
        String group = "deleted-" + UUID.randomUUID();
        // One transaction, as a group is meant to be put: put one by one, the first could finish the group
        // before the others exist.
        transaction.begin();
        for (int i = 0; i < 3; i++) {
            jobs.put("groups-deleted", "job " + i, JobOptions.defaults().group(group));
        }
        transaction.commit();

        assertTrue(Await.until(() -> finished.count(group) == 1, WAIT), "the group finished");
        assertEquals(0, jobsOf(group));
        assertEquals(0, groupRows(group), "no job left, no group row");
    }

    @Test
    void purging_a_groups_failed_jobs_deletes_its_row() throws Exception {
        String group = "failing-" + UUID.randomUUID();
        JobId id = jobs.put("groups-failing", "doomed", JobOptions.defaults().group(group));
        assertTrue(Await.until(() -> admin.job(id, 0).map(job -> job.summary().state().equals("FAILED"))
                .orElse(false), WAIT));
        assertEquals(1, groupRows(group), "a group with a dead letter keeps its row");

        admin.purgeFailed("groups-failing", Duration.ZERO);

        assertEquals(0, jobsOf(group));
        assertEquals(0, groupRows(group));
    }

    @Test
    void a_group_emptied_job_by_job_is_swept_by_the_retention_task() throws Exception {
        String group = "emptied-" + UUID.randomUUID();
        admin.pause("groups-kept");
        JobId id;
        try {
            id = jobs.put("groups-kept", "never runs", JobOptions.defaults().group(group));
            assertTrue(admin.delete(id));
        } finally {
            admin.resume("groups-kept");
        }
        // The sweep leaves young groups alone, since a put may be adding their first job: age this one.
        rows.execute("UPDATE jobqueue_group SET created_at = ?1 WHERE name = ?2",
                java.time.OffsetDateTime.now().minusHours(1), group);

        assertTrue(Await.until(() -> groupRows(group) == 0, Duration.ofSeconds(45)),
                "the retention task, every 30 s, swept the group row");
    }

    @Test
    void a_group_whose_row_went_missing_gets_it_back_at_its_next_finish_and_finishes_once() throws Exception {
        String group = "healed-" + UUID.randomUUID();
        admin.pause("groups-kept");
        try {
            jobs.put("groups-kept", "first", JobOptions.defaults().group(group));
            jobs.put("groups-kept", "second", JobOptions.defaults().group(group));
            // As when a purge removed the row while these jobs were being put.
            assertEquals(1, rows.execute("DELETE FROM jobqueue_group WHERE name = ?1", group));
        } finally {
            admin.resume("groups-kept");
        }

        assertTrue(Await.until(() -> finished.count(group) == 1, WAIT), "the group finished");
        Thread.sleep(500);
        assertEquals(1, finished.count(group), "once");
        assertEquals(1, groupRows(group), "its DONE jobs are kept, and so is its row");
    }
}

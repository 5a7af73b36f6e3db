package dev.jobqueue.failure.app;

import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Puts the random-fault scenario's jobs. Each put also writes the job's row in {@code rf_job}, the manifest, in
 * the same transaction: what the job is, and how it must end. So a job exists if and only if its manifest row
 * does, and the test knows the expected end of every committed job without trusting its own HTTP responses.
 */
@ApplicationScoped
public class FaultWorkload {

    @Inject
    JobQueue jobs;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource dataSource;

    /** {@code count} jobs of one kind, numbered from {@code from}, in one transaction. */
    @Transactional
    public List<JobId> batch(String kind, String queue, int from, int count, int millis, boolean rollbackFirst)
            throws SQLException {
        List<JobId> ids = new ArrayList<>();
        for (int n = from; n < from + count; n++) {
            FaultJob job = new FaultJob(kind, n, millis, rollbackFirst);
            ids.add(put(queue, job, JobOptions.defaults(), "DONE", null));
        }
        return ids;
    }

    /**
     * Puts dedupe key {@code key} {@code times} times in one transaction (IGNORE: every put returns the first
     * one's id) and, if asked, once more with the key in lower case, which is another key.
     */
    @Transactional
    public List<JobId> keyed(int n, String key, int times, boolean lowerCaseToo) throws SQLException {
        List<JobId> ids = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            ids.add(put("rf-short", new FaultJob("keyed", n, 10, false), JobOptions.defaults().key(key), "DONE",
                    null));
        }
        if (lowerCaseToo) {
            String lower = key.toLowerCase(Locale.ROOT);
            ids.add(put("rf-short", new FaultJob("keyed", n + 1, 10, false), JobOptions.defaults().key(lower),
                    "DONE", null));
        }
        return ids;
    }

    /** {@code count} jobs of ordering key {@code key}, in one transaction; the first may roll back its attempt 1. */
    @Transactional
    public List<JobId> ordered(String key, int from, int count, boolean rollbackFirst) throws SQLException {
        List<JobId> ids = new ArrayList<>();
        for (int n = from; n < from + count; n++) {
            FaultJob job = new FaultJob("ordered", n, 20, rollbackFirst && n == from);
            ids.add(put("rf-ordered", job, JobOptions.defaults().orderingKey(key), "DONE", null));
        }
        return ids;
    }

    /**
     * A group of {@code size} short jobs in one transaction, of which one may roll back its attempt 1, plus, if
     * asked, a doomed member that ends FAILED.
     */
    @Transactional
    public List<JobId> group(String group, int from, int size, boolean rollbackMember, boolean doomedMember)
            throws SQLException {
        List<JobId> ids = new ArrayList<>();
        JobOptions inGroup = JobOptions.defaults().group(group);
        for (int n = from; n < from + size; n++) {
            FaultJob job = new FaultJob("group", n, 20, rollbackMember && n == from);
            ids.add(put("rf-short", job, inGroup, "DONE", null));
        }
        if (doomedMember) {
            ids.add(put("rf-doomed", new FaultJob("group", from + size, 0, false), inGroup, "FAILED", null));
        }
        return ids;
    }

    /**
     * A parent, a child after it and a grandchild after the child, in one transaction. A doomed parent fails,
     * and so must the two jobs that wait for it.
     */
    @Transactional
    public List<JobId> chain(int from, boolean doomedParent) throws SQLException {
        String expect = doomedParent ? "FAILED" : "DONE";
        JobId parent = put(doomedParent ? "rf-doomed" : "rf-short", new FaultJob("chain", from, 10, false),
                JobOptions.defaults(), expect, null);
        JobId child = put("rf-short", new FaultJob("chain", from + 1, 10, false),
                JobOptions.defaults().after(parent), expect, parent);
        JobId grandchild = put("rf-short", new FaultJob("chain", from + 2, 10, false),
                JobOptions.defaults().after(child), expect, child);
        return List.of(parent, child, grandchild);
    }

    /**
     * Puts a job after {@code parent}, a running long job, and keeps the transaction open for {@code holdMillis}:
     * the put locks the parent's row until it commits, and the parent's lease must still be renewed.
     */
    @Transactional
    public JobId after(JobId parent, int n, int holdMillis) throws SQLException, InterruptedException {
        JobId id = put("rf-short", new FaultJob("after", n, 10, false), JobOptions.defaults().after(parent), "DONE",
                parent);
        Thread.sleep(holdMillis);
        return id;
    }

    private JobId put(String queue, FaultJob job, JobOptions options, String expect, JobId parent)
            throws SQLException {
        JobId id = jobs.put(queue, job, options);
        int planned = job.rollbackFirst() ? 1 : queue.equals("rf-doomed") ? FaultConsumers.DOOMED_ATTEMPTS - 1 : 0;
        try (Connection connection = dataSource.getConnection()) {
            // A dedupe key's put may return a job put earlier, whose manifest row exists.
            try (PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM rf_job WHERE job_id = ?")) {
                exists.setString(1, id.toString());
                if (exists.executeQuery().next()) {
                    return id;
                }
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO rf_job (job_id, kind, n, queue,"
                    + " expect, planned, parent) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, id.toString());
                insert.setString(2, job.kind());
                insert.setInt(3, job.n());
                insert.setString(4, queue);
                insert.setString(5, expect);
                insert.setInt(6, planned);
                insert.setString(7, parent == null ? null : parent.toString());
                insert.executeUpdate();
            }
        }
        return id;
    }
}

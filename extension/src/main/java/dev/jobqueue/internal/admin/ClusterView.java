package dev.jobqueue.internal.admin;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.FlowControl;
import dev.jobqueue.JobAdmin.QueueStats;
import dev.jobqueue.internal.config.NodeName;
import dev.jobqueue.internal.store.QueueActivity;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the dashboard's overview and nodes pages show: every queue at a glance, and who runs what. */
@ApplicationScoped
public class ClusterView {

    /** How many minutes of throughput the overview shows. */
    static final int MINUTES = 10;

    /**
     * The overview.
     *
     * @param at      when it was read
     * @param minutes how many minutes each queue's throughput covers
     * @param queues  every queue
     */
    public record Overview(Instant at, int minutes, List<QueueOverview> queues) {
    }

    /**
     * One queue at a glance.
     *
     * @param queue             the queue
     * @param waiting           jobs waiting for other jobs
     * @param pending           jobs due now or later
     * @param running           jobs running now
     * @param done              DONE jobs still retained
     * @param failed            dead letters
     * @param paused            whether the queue is paused cluster-wide
     * @param oldestDueAt       when its longest-waiting due PENDING job became due, or null if none is due
     * @param finishedPerMinute jobs that became DONE or FAILED in each of the last {@code minutes} minutes, oldest
     *                          first; the last is the minute up to {@code at}
     * @param flow              its cluster-wide limits, how near it is to them, and a backoff
     */
    public record QueueOverview(String queue, long waiting, long pending, long running, long done, long failed,
            boolean paused, Instant oldestDueAt, long[] finishedPerMinute, FlowControl flow) {
    }

    /**
     * A node that holds leases.
     *
     * @param node     its name ({@code jobqueue.node-name})
     * @param running  how many RUNNING jobs it holds the lease of
     * @param thisNode whether it is the node that answered
     */
    public record NodeView(String node, long running, boolean thisNode) {
    }

    @Inject
    JobAdmin admin;

    @Inject
    QueueActivity activity;

    @Inject
    NodeName nodeName;

    @Inject
    @JobQueueClock
    Clock clock;

    public Overview overview() {
        Instant now = clock.instant();
        List<QueueOverview> queues = new ArrayList<>();
        for (QueueStats stats : admin.queues()) {
            queues.add(new QueueOverview(stats.queue(), stats.waiting(), stats.pending(), stats.running(),
                    stats.done(), stats.failed(), stats.paused(),
                    stats.pending() == 0 ? null : activity.oldestDue(stats.queue(), now).orElse(null),
                    activity.finishedPerMinute(stats.queue(), now, MINUTES), stats.flow()));
        }
        return new Overview(now, MINUTES, queues);
    }

    /** The nodes holding leases, and this node, by name. */
    public List<NodeView> nodes() {
        Map<String, Long> running = new TreeMap<>(activity.runningByNode());
        running.putIfAbsent(nodeName.value(), 0L);
        return running.entrySet().stream()
                .map(node -> new NodeView(node.getKey(), node.getValue(), node.getKey().equals(nodeName.value())))
                .toList();
    }
}

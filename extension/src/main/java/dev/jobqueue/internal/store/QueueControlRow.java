package dev.jobqueue.internal.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A queue's cluster-wide switches, in {@code jobqueue_queue}. A queue without a row is not paused. */
@Entity(name = "JobqueueQueue")
@Table(name = "jobqueue_queue")
public class QueueControlRow {

    @Id
    @Column(name = "name", length = 100)
    private String name;

    @Column(name = "paused", nullable = false)
    private boolean paused;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected QueueControlRow() {
    }

    QueueControlRow(String name) {
        this.name = name;
    }

    void setPaused(boolean paused, Instant now) {
        this.paused = paused;
        this.updatedAt = now;
    }

    public String getName() {
        return name;
    }

    public boolean isPaused() {
        return paused;
    }
}

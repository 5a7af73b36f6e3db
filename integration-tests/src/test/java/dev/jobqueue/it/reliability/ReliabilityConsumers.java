package dev.jobqueue.it.reliability;

import dev.jobqueue.Consumer;
import dev.jobqueue.JobContext;
import dev.jobqueue.it.app.PlacedOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;

/** Consumers that lose leases, outlive them, or swallow errors that doom their transaction. */
@ApplicationScoped
public class ReliabilityConsumers {

    @Inject
    Attempts attempts;

    @PersistenceContext(unitName = "app")
    EntityManager em;

    /** The first attempt waits at its gate; later ones outlive the 2 s lease, so only renewal keeps them. */
    @Consumer(queue = "relapse")
    public void relapse(String payload, JobContext job) throws InterruptedException {
        attempts.started(payload, job.attempt());
        if (job.attempt() == 1) {
            attempts.await(payload);
        } else {
            Thread.sleep(5_000);
        }
        attempts.finished(payload, job.attempt());
    }

    /** Waits at its gate, if the test set one up, so that the jobs behind it wait in the claim buffer. */
    @Consumer(queue = "buffered")
    public void buffered(String payload, JobContext job) throws InterruptedException {
        attempts.started(payload, job.attempt());
        if (payload.startsWith("gate-")) {
            attempts.await(payload);
        }
        attempts.finished(payload, job.attempt());
    }

    /** Runs three lease lengths, so that it needs its lease renewed while other transactions lock its row. */
    @Consumer(queue = "held")
    public void held(String payload, JobContext job) throws InterruptedException {
        attempts.started(payload, job.attempt());
        if (payload.startsWith("long-")) {
            Thread.sleep(6_000);
        }
        attempts.finished(payload, job.attempt());
    }

    /**
     * Saves an order. The first attempt also saves a second order under an id that exists, catches the
     * duplicate-key error at flush, and returns normally: Hibernate has marked its transaction rollback-only.
     */
    @Consumer(queue = "rollback-only")
    public void swallowsDuplicate(String payload, JobContext job) {
        attempts.started(payload, job.attempt());
        em.persist(new PlacedOrder(payload + "-attempt-" + job.attempt(), "reliability"));
        if (job.attempt() == 1) {
            try {
                em.persist(new PlacedOrder(payload + "-existing", "reliability"));
                em.flush();
            } catch (PersistenceException duplicate) {
                // Swallowed, as a careless consumer would.
            }
        }
        attempts.finished(payload, job.attempt());
    }
}

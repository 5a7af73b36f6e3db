package dev.jobqueue.it.ops;

import dev.jobqueue.InvalidPayloadException;
import dev.jobqueue.JobId;
import dev.jobqueue.JobOptions;
import dev.jobqueue.JobQueue;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** Lets the client-side admin tests put jobs and read rows without going through the admin API. */
@Path("ops-probe")
@Produces(MediaType.TEXT_PLAIN)
public class OpsProbe {

    @Inject
    JobQueue jobs;

    @PersistenceContext(unitName = "app")
    EntityManager em;

    @POST
    @Path("{queue}")
    public String put(@PathParam("queue") String queue) {
        return jobs.put(queue, "work for " + queue).toString();
    }

    /** A payload JSON-B cannot write: its getter throws. */
    public static class Unwritable {
        public String getName() {
            throw new IllegalStateException("no session");
        }
    }

    /** Tries to put a payload JSON-B cannot write; returns the put's message. */
    @POST
    @Path("{queue}/unwritable")
    public String putUnwritable(@PathParam("queue") String queue) {
        try {
            jobs.put(queue, new Unwritable());
            return "put";
        } catch (InvalidPayloadException e) {
            return e.getMessage();
        }
    }

    /** Puts a job that waits for another. */
    @POST
    @Path("{queue}/after/{id}")
    public String putAfter(@PathParam("queue") String queue, @PathParam("id") String id) {
        return jobs.put(queue, "work for " + queue, JobOptions.defaults().after(JobId.parse(id))).toString();
    }

    /** Puts a job with a dedupe key. */
    @POST
    @Path("{queue}/key/{key}")
    public String putWithKey(@PathParam("queue") String queue, @PathParam("key") String key) {
        return jobs.put(queue, "work for " + queue, JobOptions.defaults().key(key)).toString();
    }

    /** "state attempts", or "missing". */
    @GET
    @Path("jobs/{id}")
    @Transactional
    public String row(@PathParam("id") String id) {
        List<?> rows = em.createNativeQuery("SELECT state, attempts FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id).getResultList();
        if (rows.isEmpty()) {
            return "missing";
        }
        Object[] row = (Object[]) rows.get(0);
        return row[0] + " " + row[1];
    }
}

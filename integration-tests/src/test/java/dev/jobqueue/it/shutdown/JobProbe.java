package dev.jobqueue.it.shutdown;

import dev.jobqueue.JobQueue;
import dev.jobqueue.internal.store.AdminStore;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Lets a client-side test put a job and read its row while it redeploys the application around it. */
@Path("jobs")
@Produces(MediaType.TEXT_PLAIN)
public class JobProbe {

    @Inject
    JobQueue jobs;

    @Inject
    AdminStore store;

    @Inject
    Started started;

    @POST
    public String put() {
        return jobs.put("shutdown", "long work").toString();
    }

    /** "state attempts consumerStarted dueWhenPut", or "missing". */
    @GET
    @Path("{id}")
    public String row(@PathParam("id") String id) {
        return store.job(id).map(row -> row.getState() + " " + row.getAttempts() + " " + started.has(row) + " "
                + row.getRunAt().equals(row.getCreatedAt())).orElse("missing");
    }

}

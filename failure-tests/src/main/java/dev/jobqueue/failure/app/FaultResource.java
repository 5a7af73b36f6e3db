package dev.jobqueue.failure.app;

import dev.jobqueue.JobId;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The HTTP surface the random-fault test puts its workload through; each request is one transaction and answers
 * the ids it put, comma-separated. Test code: it has no security.
 */
@Path("/rf")
@RequestScoped
public class FaultResource {

    @Inject
    FaultWorkload workload;

    @POST
    @Path("batch")
    public String batch(@QueryParam("kind") String kind, @QueryParam("queue") String queue,
            @QueryParam("from") int from, @QueryParam("count") int count, @QueryParam("millis") int millis,
            @QueryParam("rollbackFirst") boolean rollbackFirst) throws SQLException {
        return ids(workload.batch(kind, queue, from, count, millis, rollbackFirst));
    }

    @POST
    @Path("keyed")
    public String keyed(@QueryParam("n") int n, @QueryParam("key") String key, @QueryParam("times") int times,
            @QueryParam("lowerCaseToo") boolean lowerCaseToo) throws SQLException {
        return ids(workload.keyed(n, key, times, lowerCaseToo));
    }

    @POST
    @Path("ordered")
    public String ordered(@QueryParam("key") String key, @QueryParam("from") int from, @QueryParam("count") int count,
            @QueryParam("rollbackFirst") boolean rollbackFirst) throws SQLException {
        return ids(workload.ordered(key, from, count, rollbackFirst));
    }

    @POST
    @Path("group")
    public String group(@QueryParam("group") String group, @QueryParam("from") int from,
            @QueryParam("size") int size, @QueryParam("rollbackMember") boolean rollbackMember,
            @QueryParam("doomedMember") boolean doomedMember) throws SQLException {
        return ids(workload.group(group, from, size, rollbackMember, doomedMember));
    }

    @POST
    @Path("chain")
    public String chain(@QueryParam("from") int from, @QueryParam("doomedParent") boolean doomedParent)
            throws SQLException {
        return ids(workload.chain(from, doomedParent));
    }

    @POST
    @Path("after")
    public String after(@QueryParam("parent") String parent, @QueryParam("n") int n,
            @QueryParam("holdMillis") int holdMillis) throws SQLException, InterruptedException {
        return workload.after(JobId.parse(parent), n, holdMillis).toString();
    }

    private static String ids(List<JobId> ids) {
        return ids.stream().map(JobId::toString).collect(Collectors.joining(","));
    }
}

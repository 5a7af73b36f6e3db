package dev.jobqueue.failure.app;

import dev.jobqueue.JobSchedules;
import dev.jobqueue.OverlapPolicy;
import dev.jobqueue.Schedule;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.sql.SQLException;

/** The HTTP surface the test drives the node through. Test code: it has no security. */
@Path("/")
@RequestScoped
public class ChaosResource {

    @Inject
    Enqueuer enqueuer;

    @Inject
    JobSchedules schedules;

    @GET
    @Path("node")
    public String node() {
        return Effects.NODE;
    }

    /** Puts jobs {@code from} to {@code from + count - 1}, {@code perTransaction} to a transaction. */
    @POST
    @Path("work")
    public String work(@QueryParam("from") int from, @QueryParam("count") int count,
            @QueryParam("perTransaction") int perTransaction, @QueryParam("millis") int millis) {
        int end = from + count;
        for (int start = from; start < end; start += perTransaction) {
            enqueuer.putWork(start, Math.min(end, start + perTransaction), millis);
        }
        return Integer.toString(count);
    }

    /** Puts {@code count} jobs on {@code queue} in one transaction. */
    @POST
    @Path("queue")
    public String queue(@QueryParam("name") String queue, @QueryParam("count") int count,
            @QueryParam("millis") int millis) {
        enqueuer.putOn(queue, 0, count, millis);
        return Integer.toString(count);
    }

    /** Ends the work of the consumer calls under way on this node at once; their effects are written as usual. */
    @POST
    @Path("release")
    public String release() {
        Effects.releaseWorkUnderWay();
        return "released";
    }

    /** Saves an order and its job in one transaction; fails with 500 if either cannot be written. */
    @POST
    @Path("order")
    public String order(@QueryParam("n") int n) throws SQLException {
        enqueuer.placeOrder(n);
        return Integer.toString(n);
    }

    /** Makes a schedule of queue recurring whose occurrences may overlap, so that each one runs. */
    @POST
    @Path("schedule")
    public String schedule(@QueryParam("name") String name, @QueryParam("cron") String cron) {
        schedules.save(Schedule.cron(name, "recurring", cron).overlap(OverlapPolicy.ALLOW));
        return name;
    }

    @POST
    @Path("schedule/delete")
    public String deleteSchedule(@QueryParam("name") String name) {
        return Boolean.toString(schedules.delete(name));
    }
}

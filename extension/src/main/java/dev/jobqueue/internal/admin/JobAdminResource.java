package dev.jobqueue.internal.admin;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobSchedules;
import dev.jobqueue.ScheduleInfo;
import dev.jobqueue.JobAdmin.AttemptError;
import dev.jobqueue.JobAdmin.GroupProgress;
import dev.jobqueue.JobAdmin.JobDetails;
import dev.jobqueue.JobAdmin.JobSummary;
import dev.jobqueue.JobAdmin.QueueStats;
import dev.jobqueue.JobId;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.config.NodeName;
import dev.jobqueue.internal.config.NodeSettings;
import dev.jobqueue.internal.store.FailedJobActions;
import dev.jobqueue.internal.store.JobBrowser;
import dev.jobqueue.internal.store.JobCursor;
import dev.jobqueue.internal.store.JobExtras;
import dev.jobqueue.internal.store.JobFilter;
import dev.jobqueue.internal.store.JobPage;
import dev.jobqueue.internal.store.ListedJob;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.time.Clock;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The admin REST API over {@link JobAdmin}, and the dashboard's data. Users in the role {@value #VIEWER_ROLE}
 * may read; only users in the role {@value #ROLE} may also change something. Others get 401 (not authenticated)
 * or 403 (wrong role), and nothing changes. Who has the roles is configured in the server, by a role binding or
 * a group of the same name. A request that changes something (any method but GET, HEAD and OPTIONS) must also
 * carry the header {@value #REQUESTED_BY}, with any value, or it gets 403 and changes nothing: a browser sends
 * the operator's cookie or cached Basic credentials with a form or link from any site, but it lets no other site
 * set that header. Each change is recorded by {@link ActionLog}. Bad queue names, ids and parameters get 400
 * with a message naming the problem.
 */
@Path("admin")
@Tag(name = "jobqueue admin", description = "Queues, dead letters and jobs; jobqueue-viewer reads, jobqueue-admin also acts")
@APIResponse(responseCode = "401", description = "Not authenticated")
@APIResponse(responseCode = "403", description = "Not in the role jobqueue-viewer or jobqueue-admin; a change by"
        + " a user not in jobqueue-admin, or without X-Requested-By",
        content = @Content(schema = @Schema(implementation = JobAdminResource.ErrorBody.class)))
@APIResponse(responseCode = "400", description = "A bad queue name, id, group or parameter, named in the error",
        content = @Content(schema = @Schema(implementation = JobAdminResource.ErrorBody.class)))
@RequestScoped
@RolesAllowed({JobAdminResource.ROLE, JobAdminResource.VIEWER_ROLE})
@Produces(MediaType.APPLICATION_JSON)
public class JobAdminResource {

    /** The role a user must have to change anything. Map it to your users or groups in the server's configuration. */
    public static final String ROLE = "jobqueue-admin";
    /** The role of a user who may read everything and change nothing. */
    public static final String VIEWER_ROLE = "jobqueue-viewer";
    /** The header every request that changes something must carry, with any value. */
    public static final String REQUESTED_BY = "X-Requested-By";
    /** How much of a payload the job view shows unless asked for all of it: 64 Ki characters. */
    static final int PAYLOAD_DISPLAY_CHARS = 65_536;

    @Inject
    JobAdmin admin;

    @Inject
    JobSchedules schedules;

    @Inject
    ClusterView cluster;

    @Inject
    JobBrowser browser;

    @Inject
    FailedJobActions failedJobs;

    @Inject
    ActionLog actions;

    @Inject
    NodeSettings settings;

    @Inject
    NodeName nodeName;

    @Inject
    @JobQueueClock
    Clock clock;

    @Context
    SecurityContext security;

    @Context
    HttpHeaders headers;

    @Context
    Request request;

    @Operation(summary = "Every queue with its counts by state and its pause switch, sorted by name")
    @APIResponse(responseCode = "200",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = QueueStats.class)))
    @GET
    @Path("queues")
    public Response queues() {
        return guarded(() -> Response.ok(admin.queues()).build());
    }

    @Operation(summary = "A page of FAILED jobs, newest first, with their last error")
    @APIResponse(responseCode = "200",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = JobSummary.class)))
    @GET
    @Path("failed")
    public Response failed(@QueryParam("queue") String queue, @QueryParam("page") @DefaultValue("0") String page,
            @QueryParam("size") @DefaultValue("50") String size) {
        return guarded(() -> Response.ok(admin.failed(queue == null ? null : AdminParams.queue(queue),
                AdminParams.number("page", page, 0, Integer.MAX_VALUE / AdminParams.MAX_PAGE_SIZE),
                AdminParams.number("size", size, 1, AdminParams.MAX_PAGE_SIZE))).build());
    }

    @Operation(summary = "A group's jobs counted by state")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = GroupProgress.class)))
    @GET
    @Path("groups/{group}")
    public Response group(@PathParam("group") String group) {
        return guarded(() -> Response.ok(admin.group(AdminParams.group(group))).build());
    }

    /**
     * One job. Its payload is cut to {@value #PAYLOAD_DISPLAY_CHARS} characters, with {@code payloadTruncated}
     * set, unless {@code ?payload=full} asks for all of it; {@code ?payload=none} leaves it out. With
     * {@code jobqueue.dashboard.show-payloads=false} it is always left out.
     */
    @Operation(summary = "One job: its payload, options and first errors")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobDetails.class)))
    @APIResponse(responseCode = "404", description = "No such job",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @GET
    @Path("jobs/{id}")
    public Response job(@PathParam("id") String id,
            @QueryParam("payload") @DefaultValue("truncated") String payload) {
        return guarded(() -> {
            int chars = payloadChars(payload);
            return admin.job(AdminParams.id(id), chars).map(job -> Response.ok(chars == 0 ? withoutPayload(job) : job)
                    .build()).orElseGet(() -> notFound("no job " + id));
        });
    }

    /** A page of a job's kept errors, oldest first. */
    @Operation(summary = "A page of a job's kept errors, oldest first")
    @APIResponse(responseCode = "200",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = AttemptError.class)))
    @APIResponse(responseCode = "404", description = "No such job",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @GET
    @Path("jobs/{id}/errors")
    public Response errors(@PathParam("id") String id, @QueryParam("page") @DefaultValue("0") String page,
            @QueryParam("size") @DefaultValue("50") String size) {
        return guarded(() -> {
            JobId job = AdminParams.id(id);
            if (admin.job(job, 0).isEmpty()) {
                return notFound("no job " + id);
            }
            return Response.ok(admin.errors(job,
                    AdminParams.number("page", page, 0, Integer.MAX_VALUE / AdminParams.MAX_PAGE_SIZE),
                    AdminParams.number("size", size, 1, AdminParams.MAX_PAGE_SIZE))).build();
        });
    }

    @Operation(summary = "Makes a FAILED job PENDING with fresh attempts")
    @APIResponse(responseCode = "204", description = "Retried")
    @APIResponse(responseCode = "404", description = "No FAILED job with a free dedupe key",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "409", description = "A job it waits for is FAILED (JQ081)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("jobs/{id}/retry")
    public Response retry(@PathParam("id") String id) {
        return guarded(() -> {
            try {
                if (!admin.retry(AdminParams.id(id))) {
                    return notFound("no FAILED job " + id + " whose dedupe key is free");
                }
                return acted("retry", "job " + id, 1, Response.noContent().build());
            } catch (FailedDependencyException e) {
                return Response.status(Response.Status.CONFLICT).entity(error(e.getMessage())).build();
            }
        });
    }

    @Operation(summary = "Deletes a job that is not RUNNING")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No such job that is not RUNNING",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @DELETE
    @Path("jobs/{id}")
    public Response delete(@PathParam("id") String id) {
        return guarded(() -> admin.delete(AdminParams.id(id)) ? acted("delete", "job " + id, 1,
                Response.noContent().build()) : notFound("no job " + id + " that is not RUNNING"));
    }

    @Operation(summary = "Retries every FAILED job of a queue")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Retried.class)))
    @POST
    @Path("queues/{queue}/retry-failed")
    public Response retryFailed(@PathParam("queue") String queue) {
        return guarded(() -> {
            int retried = admin.retryFailed(AdminParams.queue(queue));
            return acted("retry-failed", "queue " + queue, retried, Response.ok(new Retried(retried)).build());
        });
    }

    @Operation(summary = "Deletes a queue's FAILED jobs older than a duration")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Purged.class)))
    @DELETE
    @Path("queues/{queue}/failed")
    public Response purgeFailed(@PathParam("queue") String queue,
            @QueryParam("olderThan") String olderThan) {
        return guarded(() -> {
            if (olderThan == null || olderThan.isBlank()) {
                throw new BadRequest(Messages.olderThanRequired());
            }
            int purged = admin.purgeFailed(AdminParams.queue(queue), AdminParams.duration("olderThan", olderThan));
            return acted("purge-failed", "queue " + queue + " older than " + olderThan, purged,
                    Response.ok(new Purged(purged)).build());
        });
    }

    @Operation(summary = "Stops claiming the queue's jobs on every node")
    @APIResponse(responseCode = "204", description = "Paused")
    @APIResponse(responseCode = "404", description = "No such queue (JQ082)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("queues/{queue}/pause")
    public Response pause(@PathParam("queue") String queue) {
        return guarded(() -> {
            try {
                admin.pause(AdminParams.queue(queue));
                return acted("pause", "queue " + queue, 1, Response.noContent().build());
            } catch (UnknownQueueException e) {
                return notFound(e.getMessage());
            }
        });
    }

    @Operation(summary = "Claims the queue's jobs again")
    @APIResponse(responseCode = "204", description = "Resumed")
    @APIResponse(responseCode = "404", description = "No such queue (JQ082)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("queues/{queue}/resume")
    public Response resume(@PathParam("queue") String queue) {
        return guarded(() -> {
            try {
                admin.resume(AdminParams.queue(queue));
                return acted("resume", "queue " + queue, 1, Response.noContent().build());
            } catch (UnknownQueueException e) {
                return notFound(e.getMessage());
            }
        });
    }

    @Operation(summary = "Lists the recurring schedules")
    @APIResponse(responseCode = "200",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = ScheduleInfo.class)))
    @GET
    @Path("schedules")
    public Response schedules() {
        return guarded(() -> Response.ok(admin.schedules()).build());
    }

    @Operation(summary = "Puts a job for a schedule now; its next occurrence stays")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Triggered.class)))
    @APIResponse(responseCode = "404", description = "No such schedule",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("schedules/{name}/trigger")
    public Response triggerSchedule(@PathParam("name") String name) {
        return guarded(() -> {
            try {
                JobId job = admin.triggerSchedule(name);
                return acted("trigger-schedule", "schedule " + name, 1, Response.ok(new Triggered(job)).build());
            } catch (NoSuchElementException e) {
                return notFound(e.getMessage());
            }
        });
    }

    @Operation(summary = "Stops a schedule firing on every node")
    @APIResponse(responseCode = "204", description = "Paused")
    @APIResponse(responseCode = "404", description = "No such schedule",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("schedules/{name}/pause")
    public Response pauseSchedule(@PathParam("name") String name) {
        return scheduleSwitch("pause-schedule", name, () -> admin.pauseSchedule(name));
    }

    @Operation(summary = "Lets a schedule fire again, from its first occurrence after now")
    @APIResponse(responseCode = "204", description = "Resumed")
    @APIResponse(responseCode = "404", description = "No such schedule",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("schedules/{name}/resume")
    public Response resumeSchedule(@PathParam("name") String name) {
        return scheduleSwitch("resume-schedule", name, () -> admin.resumeSchedule(name));
    }

    @Operation(summary = "Deletes a schedule; its occurrences' jobs stay")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No such schedule",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @DELETE
    @Path("schedules/{name}")
    public Response deleteSchedule(@PathParam("name") String name) {
        return guarded(() -> schedules.delete(name) ? acted("delete-schedule", "schedule " + name, 1,
                Response.noContent().build()) : notFound("jobqueue: there is no schedule named '" + name + "'"));
    }

    @Operation(summary = "Who is asking, whether they may act, and whether payloads are shown")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Me.class)))
    @GET
    @Path("me")
    public Response me() {
        return guarded(() -> Response.ok(new Me(security.getUserPrincipal().getName(), security.isUserInRole(ROLE),
                settings.showPayloads(), nodeName.value())).build());
    }

    @Operation(summary = "Every queue with its counts, its oldest due job and what it finished minute by minute")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = ClusterView.Overview.class)))
    @GET
    @Path("overview")
    public Response overview() {
        return guarded(() -> Response.ok(cluster.overview()).build());
    }

    @Operation(summary = "The nodes that hold leases on RUNNING jobs, and the node that answered")
    @APIResponse(responseCode = "200",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = ClusterView.NodeView.class)))
    @GET
    @Path("nodes")
    public Response nodes() {
        return guarded(() -> Response.ok(cluster.nodes()).build());
    }

    /** A page of the jobs that match every given filter; {@code after} is the previous page's {@code next}. */
    @Operation(summary = "A page of jobs that match the filter, newest put first or due soonest first")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Listing.class)))
    @GET
    @Path("jobs")
    public Response jobs(@BeanParam FilterParams filter, @QueryParam("sort") @DefaultValue("put") String sort,
            @QueryParam("after") String after, @QueryParam("size") @DefaultValue("50") String size) {
        return guarded(() -> {
            JobPage page = browser.page(filter.filter(), AdminParams.sort(sort), AdminParams.cursor(after),
                    AdminParams.number("size", size, 1, AdminParams.MAX_PAGE_SIZE));
            return Response.ok(new Listing(page.jobs(), page.next().map(JobCursor::token).orElse(null))).build();
        });
    }

    @Operation(summary = "How many jobs match the filter")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Count.class)))
    @GET
    @Path("jobs/count")
    public Response count(@BeanParam FilterParams filter) {
        return guarded(() -> Response.ok(new Count(browser.count(filter.filter()))).build());
    }

    @Operation(summary = "A job's options, the node running it, and the jobs it waits for and that wait for it")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobExtras.class)))
    @APIResponse(responseCode = "404", description = "No such job",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @GET
    @Path("jobs/{id}/options")
    public Response options(@PathParam("id") String id) {
        return guarded(() -> browser.extras(AdminParams.id(id).toString()).map(extras -> Response.ok(extras).build())
                .orElseGet(() -> notFound("no job " + id)));
    }

    @Operation(summary = "Retries the FAILED jobs among the given ids")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Count.class)))
    @POST
    @Path("jobs/retry")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response retrySelected(Ids body) {
        return guarded(() -> {
            List<String> ids = AdminParams.ids(body == null ? null : body.ids());
            int retried = failedJobs.retry(ids, clock.instant());
            return acted("retry-selected", ids.size() + " selected jobs", retried,
                    Response.ok(new Count(retried)).build());
        });
    }

    @Operation(summary = "Deletes the FAILED jobs among the given ids")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Count.class)))
    @POST
    @Path("jobs/delete")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response deleteSelected(Ids body) {
        return guarded(() -> {
            List<String> ids = AdminParams.ids(body == null ? null : body.ids());
            int deleted = failedJobs.delete(ids);
            return acted("delete-selected", ids.size() + " selected jobs", deleted,
                    Response.ok(new Count(deleted)).build());
        });
    }

    @Operation(summary = "Retries every FAILED job that matches the filter")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Count.class)))
    @POST
    @Path("failed/retry")
    public Response retryMatching(@BeanParam FilterParams params) {
        return guarded(() -> {
            JobFilter filter = params.failedFilter();
            int retried = failedJobs.retryMatching(filter, clock.instant());
            return acted("retry-matching", describe(filter), retried, Response.ok(new Count(retried)).build());
        });
    }

    @Operation(summary = "Deletes every FAILED job that matches the filter")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Count.class)))
    @POST
    @Path("failed/delete")
    public Response deleteMatching(@BeanParam FilterParams params) {
        return guarded(() -> {
            JobFilter filter = params.failedFilter();
            int deleted = failedJobs.deleteMatching(filter);
            return acted("delete-matching", describe(filter), deleted, Response.ok(new Count(deleted)).build());
        });
    }

    /** A filter as the action log names it: {@code FAILED jobs where queue=email group=g}. */
    private static String describe(JobFilter filter) {
        StringBuilder where = new StringBuilder(filter.state() + " jobs");
        String[][] fields = {{"queue", filter.queue()}, {"id", filter.id()}, {"dedupeKey", filter.dedupeKey()},
            {"orderingKey", filter.orderingKey()}, {"group", filter.group()}};
        String joiner = " where ";
        for (String[] field : fields) {
            if (field[1] != null) {
                where.append(joiner).append(field[0]).append('=').append(field[1]);
                joiner = " ";
            }
        }
        return where.toString();
    }

    private Response scheduleSwitch(String action, String name, Runnable change) {
        return guarded(() -> {
            try {
                change.run();
                return acted(action, "schedule " + name, 1, Response.noContent().build());
            } catch (NoSuchElementException e) {
                return notFound(e.getMessage());
            }
        });
    }

    /**
     * Asks {@link AdminGuard} again (the filter may not have run, see there), then runs the operation, turning a
     * bad argument into 400.
     */
    private Response guarded(Supplier<Response> operation) {
        Optional<Response> refusal = AdminGuard.refusal(security, request.getMethod(),
                headers.getHeaderString(REQUESTED_BY));
        if (refusal.isPresent()) {
            return refusal.get();
        }
        try {
            return operation.get();
        } catch (BadRequest e) {
            return Response.status(Response.Status.BAD_REQUEST).entity(error(e.getMessage())).build();
        }
    }

    /** How many characters of a payload to show: none while payloads are hidden on this node. */
    private int payloadChars(String payload) {
        int chars = switch (payload) {
            case "full" -> Integer.MAX_VALUE;
            case "truncated" -> PAYLOAD_DISPLAY_CHARS;
            case "none" -> 0;
            default -> throw new BadRequest("payload must be 'full', 'truncated' or 'none', was '" + payload + "'");
        };
        return settings.showPayloads() ? chars : 0;
    }

    /** The job without even the empty start of its payload, so that "no payload" is not mistaken for "". */
    private static JobDetails withoutPayload(JobDetails job) {
        return new JobDetails(job.summary(), null, job.payloadLength() > 0, job.payloadLength(), job.errors(),
                job.errorCount());
    }

    /** Records a change that committed, and answers with {@code response}. */
    private Response acted(String action, String target, int count, Response response) {
        actions.record(security.getUserPrincipal().getName(), action, target, count);
        return response;
    }

    private static Response notFound(String message) {
        return Response.status(Response.Status.NOT_FOUND).entity(error(message)).build();
    }

    static ErrorBody error(String message) {
        return new ErrorBody(message);
    }

    /** The body of every refusal: one line that names the problem. */
    public record ErrorBody(String error) {
    }

    /**
     * Who is asking.
     *
     * @param user         the authenticated user's name
     * @param admin        whether they may change anything (role jobqueue-admin)
     * @param showPayloads whether this node shows payloads ({@code jobqueue.dashboard.show-payloads})
     * @param node         the node that answered
     */
    public record Me(String user, boolean admin, boolean showPayloads, String node) {
    }

    /** A page of a job listing, and the token of the next page, null on the last. */
    public record Listing(List<ListedJob> jobs, String next) {
    }

    /** How many jobs matched, or how many an action changed. */
    public record Count(long count) {
    }

    /** Job ids in a request body. */
    public record Ids(List<String> ids) {
    }

    /** How many FAILED jobs a retry of a queue made PENDING. */
    public record Retried(int retried) {
    }

    /** The job a trigger of a schedule put. */
    public record Triggered(JobId job) {
    }

    /** How many FAILED jobs a purge deleted. */
    public record Purged(int purged) {
    }
}

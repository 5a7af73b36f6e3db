package dev.jobqueue.internal.admin;

import dev.jobqueue.CancelOutcome;
import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.AttemptError;
import dev.jobqueue.JobAdmin.JobDetails;
import dev.jobqueue.JobId;
import dev.jobqueue.internal.SafeText;
import dev.jobqueue.internal.config.NodeSettings;
import dev.jobqueue.internal.store.DependencyLinks;
import dev.jobqueue.internal.store.FailedJobActions;
import dev.jobqueue.internal.store.JobBrowser;
import dev.jobqueue.internal.store.JobCursor;
import dev.jobqueue.internal.store.JobFilter;
import dev.jobqueue.internal.store.JobExtras;
import dev.jobqueue.internal.store.JobLinks;
import dev.jobqueue.internal.store.JobPage;
import dev.jobqueue.internal.store.ListedJob;
import dev.jobqueue.internal.store.RetryOutcome;
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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The admin API's jobs: listings by filter, one job with its errors and links, and retries and deletes. */
@Path("admin/jobs")
@Tag(name = "jobqueue admin: jobs", description = "Jobs by filter, one job, retries and deletes")
@APIResponse(responseCode = "400", description = "A bad id, filter, parameter or body, named in the error",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@APIResponse(responseCode = "401", description = "Not authenticated (JQ074)")
@APIResponse(responseCode = "403", description = "Not in the role jobqueue-viewer or jobqueue-admin; a change by"
        + " a user not in jobqueue-admin, or without X-Requested-By",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@RequestScoped
@RolesAllowed({AdminRoles.ADMIN, AdminRoles.VIEWER})
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource extends AdminEndpoint {

    /** How much of a payload the job view shows unless asked for all of it: 64 Ki characters. */
    static final int PAYLOAD_DISPLAY_CHARS = 65_536;

    @Inject
    JobAdmin admin;

    @Inject
    JobBrowser browser;

    @Inject
    DependencyLinks dependencies;

    @Inject
    FailedJobActions failedJobs;

    @Inject
    JobCancels cancels;

    @Inject
    NodeSettings settings;

    @Inject
    @JobQueueClock
    Clock clock;

    /** A page of the jobs that match every given filter; {@code after} is the previous page's {@code next}. */
    @Operation(summary = "A page of jobs that match the filter, newest put first or due soonest first")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Listing.class)))
    @GET
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
    @Path("count")
    public Response count(@BeanParam FilterParams filter) {
        return guarded(() -> Response.ok(new Count(browser.count(filter.filter()))).build());
    }

    /**
     * One job. Its payload is cut to {@value #PAYLOAD_DISPLAY_CHARS} characters, with {@code payloadTruncated}
     * set, unless {@code ?payload=full} asks for all of it; {@code ?payload=none} leaves it out. With
     * {@code jobqueue.dashboard.show-payloads=false} it is always left out.
     */
    @Operation(summary = "One job: its payload, options and first errors")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobDetails.class)))
    @APIResponse(responseCode = "404", description = "No such job (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @GET
    @Path("{id}")
    public Response job(@PathParam("id") String id,
            @QueryParam("payload") @DefaultValue("truncated") String payload) {
        return guarded(() -> {
            int chars = payloadChars(payload);
            JobId job = AdminParams.id(id);
            return admin.job(job, chars).map(found -> Response.ok(chars == 0 ? withoutPayload(found) : found)
                    .build()).orElseGet(() -> notFound("no job " + job));
        });
    }

    @Operation(summary = "A page of a job's kept errors, oldest first")
    @APIResponse(responseCode = "200",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = AttemptError.class)))
    @APIResponse(responseCode = "404", description = "No such job (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @GET
    @Path("{id}/errors")
    public Response errors(@PathParam("id") String id, @QueryParam("page") @DefaultValue("0") String page,
            @QueryParam("size") @DefaultValue("50") String size) {
        return guarded(() -> {
            JobId job = AdminParams.id(id);
            int pageNumber = AdminParams.number("page", page, 0, Integer.MAX_VALUE / AdminParams.MAX_PAGE_SIZE);
            int pageSize = AdminParams.number("size", size, 1, AdminParams.MAX_PAGE_SIZE);
            if (admin.job(job, 0).isEmpty()) {
                return notFound("no job " + job);
            }
            return Response.ok(admin.errors(job, pageNumber, pageSize)).build();
        });
    }

    @Operation(summary = "A job's options, the node running it, and the first page of the jobs it waits for and"
            + " that wait for it, with how many there are")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobExtras.class)))
    @APIResponse(responseCode = "404", description = "No such job (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @GET
    @Path("{id}/options")
    public Response options(@PathParam("id") String id, @QueryParam("size") @DefaultValue("50") String size) {
        return guarded(() -> {
            JobId job = AdminParams.id(id);
            int shown = AdminParams.number("size", size, 1, AdminParams.MAX_PAGE_SIZE);
            return browser.extras(job.toString(), shown).map(extras -> Response.ok(extras).build())
                    .orElseGet(() -> notFound("no job " + job));
        });
    }

    @Operation(summary = "A page of the jobs a job waits for, in id order; after is the previous page's next")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobLinks.class)))
    @GET
    @Path("{id}/waits-for")
    public Response waitsFor(@PathParam("id") String id, @QueryParam("after") String after,
            @QueryParam("size") @DefaultValue("50") String size) {
        return links(id, DependencyLinks.Direction.WAITS_FOR, after, size);
    }

    @Operation(summary = "A page of the jobs that wait for a job, in id order; after is the previous page's next")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobLinks.class)))
    @GET
    @Path("{id}/waited-by")
    public Response waitedBy(@PathParam("id") String id, @QueryParam("after") String after,
            @QueryParam("size") @DefaultValue("50") String size) {
        return links(id, DependencyLinks.Direction.WAITED_BY, after, size);
    }

    private Response links(String id, DependencyLinks.Direction direction, String after, String size) {
        return guarded(() -> {
            JobId job = AdminParams.id(id);
            String from = after == null || after.isBlank() ? null : AdminParams.id(after).toString();
            return Response.ok(dependencies.page(job.toString(), direction, from,
                    AdminParams.number("size", size, 1, AdminParams.MAX_PAGE_SIZE))).build();
        });
    }

    @Operation(summary = "Makes a FAILED or CANCELLED job PENDING with fresh attempts")
    @APIResponse(responseCode = "204", description = "Retried")
    @APIResponse(responseCode = "404", description = "No FAILED or CANCELLED job with a free dedupe key (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "409", description = "A job it waits for is FAILED (JQ081)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("{id}/retry")
    public Response retry(@PathParam("id") String id) {
        return guarded(() -> {
            JobId job = AdminParams.id(id);
            try {
                if (!admin.retry(job)) {
                    return notFound("no FAILED or CANCELLED job " + job + " whose dedupe key is free");
                }
                return acted("retry", "job " + job, 1, Response.noContent().build());
            } catch (FailedDependencyException e) {
                return refuse(Response.Status.CONFLICT, e.getMessage());
            }
        });
    }

    @Operation(summary = "Cancels a job that has not started: a PENDING or WAITING job becomes CANCELLED, and the"
            + " jobs that wait for it FAILED")
    @APIResponse(responseCode = "200", description = "What the cancel did: CANCELLED, or RUNNING or FINISHED with"
            + " nothing changed", content = @Content(schema = @Schema(implementation = Cancelled.class)))
    @APIResponse(responseCode = "404", description = "No such job (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("{id}/cancel")
    public Response cancel(@PathParam("id") String id) {
        return guarded(() -> {
            JobId job = AdminParams.id(id);
            CancelOutcome outcome = admin.cancel(job);
            if (outcome == CancelOutcome.NOT_FOUND) {
                return notFound("no job " + job);
            }
            Response answer = Response.ok(new Cancelled(outcome)).build();
            return outcome == CancelOutcome.CANCELLED ? acted("cancel", "job " + job, 1, answer) : answer;
        });
    }

    @Operation(summary = "Cancels the jobs among the given ids that have not started")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Count.class)))
    @POST
    @Path("cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response cancelSelected(Ids body) {
        return guarded(() -> {
            List<String> ids = AdminParams.ids(body == null ? null : body.ids());
            int cancelled = cancels.cancelSelected(ids);
            return acted("cancel-selected", ids.size() + " selected jobs", cancelled,
                    Response.ok(new Count(cancelled)).build());
        });
    }

    @Operation(summary = "Cancels every job that matches the filter and has not started; a whole group with group=")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Count.class)))
    @POST
    @Path("cancel-matching")
    public Response cancelMatching(@BeanParam FilterParams params) {
        return guarded(() -> {
            JobFilter filter = params.unstartedFilter();
            int cancelled = cancels.cancelMatching(filter);
            return acted("cancel-matching", FilterParams.describe(filter), cancelled,
                    Response.ok(new Count(cancelled)).build());
        });
    }

    @Operation(summary = "Deletes a job that is not RUNNING, and releases the jobs that waited only for it")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No such job that is not RUNNING (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") String id) {
        return guarded(() -> {
            JobId job = AdminParams.id(id);
            return admin.delete(job) ? acted("delete", "job " + job, 1, Response.noContent().build())
                    : notFound("no job " + job + " that is not RUNNING");
        });
    }

    @Operation(summary = "Retries the FAILED and CANCELLED jobs among the given ids, passing over those a retry must"
            + " not take")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RetriedCount.class)))
    @POST
    @Path("retry")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response retrySelected(Ids body) {
        return guarded(() -> {
            List<String> ids = AdminParams.ids(body == null ? null : body.ids());
            RetryOutcome outcome = failedJobs.retry(ids, clock.instant());
            return acted("retry-selected", ids.size() + " selected jobs", outcome.retried(),
                    Response.ok(RetriedCount.of(outcome)).build());
        });
    }

    @Operation(summary = "Deletes the FAILED jobs among the given ids, and releases the jobs that waited for them")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Count.class)))
    @POST
    @Path("delete")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response deleteSelected(Ids body) {
        return guarded(() -> {
            List<String> ids = AdminParams.ids(body == null ? null : body.ids());
            int deleted = failedJobs.delete(ids);
            return acted("delete-selected", ids.size() + " selected jobs", deleted,
                    Response.ok(new Count(deleted)).build());
        });
    }

    /** How many characters of a payload to show: none while payloads are hidden on this node. */
    private int payloadChars(String payload) {
        int chars = switch (payload) {
            case "full" -> Integer.MAX_VALUE;
            case "truncated" -> PAYLOAD_DISPLAY_CHARS;
            case "none" -> 0;
            default -> throw new BadRequest("payload must be 'full', 'truncated' or 'none', was '"
                    + SafeText.of(payload) + "'");
        };
        return settings.showPayloads() ? chars : 0;
    }

    /** The job without even the empty start of its payload, so that "no payload" is not mistaken for "". */
    private static JobDetails withoutPayload(JobDetails job) {
        return new JobDetails(job.summary(), null, job.payloadLength() > 0, job.payloadLength(), job.errors(),
                job.errorCount(), job.progress());
    }

    /** A page of a job listing, and the token of the next page, null on the last. */
    public record Listing(List<ListedJob> jobs, String next) {
    }

    /** How many jobs matched, or how many an action changed. */
    public record Count(long count) {
    }

    /** What a cancel of one job did: CANCELLED, or RUNNING or FINISHED with nothing changed. */
    public record Cancelled(CancelOutcome outcome) {
    }

    /** Job ids in a request body. */
    public record Ids(List<String> ids) {
    }

    /**
     * What a retry of jobs by id or by filter did.
     *
     * @param count          how many it retried
     * @param skipped        how many it passed over
     * @param skippedBecause why
     */
    public record RetriedCount(int count, int skipped, Skipped skippedBecause) {

        static RetriedCount of(RetryOutcome outcome) {
            return new RetriedCount(outcome.retried(), outcome.skipped(), Skipped.of(outcome));
        }
    }
}

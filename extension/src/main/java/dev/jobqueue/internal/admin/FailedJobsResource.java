package dev.jobqueue.internal.admin;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.JobSummary;
import dev.jobqueue.internal.admin.JobsResource.Count;
import dev.jobqueue.internal.admin.JobsResource.RetriedCount;
import dev.jobqueue.internal.store.FailedJobActions;
import dev.jobqueue.internal.store.JobFilter;
import dev.jobqueue.internal.store.RetryOutcome;
import dev.jobqueue.internal.time.JobQueueClock;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The admin API's dead letters: a page of FAILED jobs, and a retry or delete of every FAILED job that matches a
 * filter, with the rules of the single-job actions.
 */
@Path("admin/failed")
@Tag(name = "jobqueue admin: failed jobs", description = "Dead letters, and bulk actions on them")
@APIResponse(responseCode = "400", description = "A bad queue, filter or parameter, named in the error",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@APIResponse(responseCode = "401", description = "Not authenticated (JQ074)")
@APIResponse(responseCode = "403", description = "Not in the role jobqueue-viewer or jobqueue-admin; a change by"
        + " a user not in jobqueue-admin, or without X-Requested-By",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@RequestScoped
@RolesAllowed({AdminRoles.ADMIN, AdminRoles.VIEWER})
@Produces(MediaType.APPLICATION_JSON)
public class FailedJobsResource extends AdminEndpoint {

    @Inject
    JobAdmin admin;

    @Inject
    FailedJobActions failedJobs;

    @Inject
    @JobQueueClock
    Clock clock;

    @Operation(summary = "A page of FAILED jobs, newest first, with their last error")
    @APIResponse(responseCode = "200",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = JobSummary.class)))
    @GET
    public Response failed(@QueryParam("queue") String queue, @QueryParam("page") @DefaultValue("0") String page,
            @QueryParam("size") @DefaultValue("50") String size) {
        return guarded(() -> Response.ok(admin.failed(queue == null ? null : AdminParams.queue(queue),
                AdminParams.number("page", page, 0, Integer.MAX_VALUE / AdminParams.MAX_PAGE_SIZE),
                AdminParams.number("size", size, 1, AdminParams.MAX_PAGE_SIZE))).build());
    }

    @Operation(summary = "Retries every FAILED job that matches the filter, passing over those a retry must not take")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = RetriedCount.class)))
    @POST
    @Path("retry")
    public Response retryMatching(@BeanParam FilterParams params) {
        return guarded(() -> {
            JobFilter filter = params.failedFilter();
            RetryOutcome outcome = failedJobs.retryMatching(filter, clock.instant());
            return acted("retry-matching", FilterParams.describe(filter), outcome.retried(),
                    Response.ok(RetriedCount.of(outcome)).build());
        });
    }

    @Operation(summary = "Deletes every FAILED job that matches the filter, and releases the jobs that waited for them")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Count.class)))
    @POST
    @Path("delete")
    public Response deleteMatching(@BeanParam FilterParams params) {
        return guarded(() -> {
            JobFilter filter = params.failedFilter();
            int deleted = failedJobs.deleteMatching(filter);
            return acted("delete-matching", FilterParams.describe(filter), deleted, Response.ok(new Count(deleted)).build());
        });
    }
}

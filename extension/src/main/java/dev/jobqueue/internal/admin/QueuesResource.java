package dev.jobqueue.internal.admin;

import dev.jobqueue.JobAdmin.QueueStats;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.store.RetryOutcome;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The admin API's queues: their counts, pause switches and limits, and a retry or purge of a queue's FAILED jobs.
 */
@Path("admin/queues")
@Tag(name = "jobqueue admin: queues", description = "Counts, pause and resume, limits, a queue's dead letters")
@APIResponse(responseCode = "400", description = "A bad queue, filter or parameter, named in the error",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@APIResponse(responseCode = "401", description = "Not authenticated (JQ074)")
@APIResponse(responseCode = "403", description = "Not in the role jobqueue-viewer or jobqueue-admin; a change by"
        + " a user not in jobqueue-admin, or without X-Requested-By",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@RequestScoped
@RolesAllowed({AdminRoles.ADMIN, AdminRoles.VIEWER})
@Produces(MediaType.APPLICATION_JSON)
public class QueuesResource extends AdminEndpoint {

    @Inject
    DefaultJobAdmin admin;

    @Operation(summary = "Every queue with its counts by state and its pause switch, sorted by name")
    @APIResponse(responseCode = "200",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = QueueStats.class)))
    @GET
    public Response queues() {
        return guarded(() -> Response.ok(admin.queues()).build());
    }

    @Operation(summary = "Retries every FAILED job of a queue, passing over those a retry must not take")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Retried.class)))
    @POST
    @Path("{queue}/retry-failed")
    public Response retryFailed(@PathParam("queue") String queue) {
        return guarded(() -> {
            String name = AdminParams.queue(queue);
            RetryOutcome outcome = admin.retryQueue(name);
            return acted("retry-failed", "queue " + name, outcome.retried(), Response.ok(new Retried(
                    outcome.retried(), outcome.skipped(), Skipped.of(outcome))).build());
        });
    }

    @Operation(summary = "Deletes a queue's FAILED jobs older than a duration, and releases the jobs that waited"
            + " for them")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Purged.class)))
    @DELETE
    @Path("{queue}/failed")
    public Response purgeFailed(@PathParam("queue") String queue, @QueryParam("olderThan") String olderThan) {
        return guarded(() -> {
            String name = AdminParams.queue(queue);
            if (olderThan == null || olderThan.isBlank()) {
                throw new BadRequest(Messages.olderThanRequired());
            }
            int purged = admin.purgeFailed(name, AdminParams.duration("olderThan", olderThan));
            return acted("purge-failed", "queue " + name + " older than " + olderThan, purged,
                    Response.ok(new Purged(purged)).build());
        });
    }

    @Operation(summary = "Stops claiming the queue's jobs on every node")
    @APIResponse(responseCode = "204", description = "Paused")
    @APIResponse(responseCode = "404", description = "No such queue (JQ082)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("{queue}/pause")
    public Response pause(@PathParam("queue") String queue) {
        return guarded(() -> {
            String name = AdminParams.queue(queue);
            try {
                admin.pause(name);
                return acted("pause", "queue " + name, 1, Response.noContent().build());
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
    @Path("{queue}/resume")
    public Response resume(@PathParam("queue") String queue) {
        return guarded(() -> {
            String name = AdminParams.queue(queue);
            try {
                admin.resume(name);
                return acted("resume", "queue " + name, 1, Response.noContent().build());
            } catch (UnknownQueueException e) {
                return notFound(e.getMessage());
            }
        });
    }

    @Operation(summary = "Sets the queue's cluster-wide limits for every node, over their configuration; a null"
            + " gives one back to the configuration")
    @APIResponse(responseCode = "204", description = "Set")
    @APIResponse(responseCode = "404", description = "No such queue (JQ082)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @PUT
    @Path("{queue}/limits")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response setLimits(@PathParam("queue") String queue, Limits limits) {
        return guarded(() -> {
            String name = AdminParams.queue(queue);
            if (limits == null) {
                throw new BadRequest("the body must be a JSON object with rateLimit and maxRunning");
            }
            try {
                admin.setLimits(name, limits.rateLimit(), limits.maxRunning());
            } catch (UnknownQueueException e) {
                return notFound(e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new BadRequest("rateLimit or maxRunning: " + e.getMessage());
            }
            return acted("set-limits", "queue " + name + " rateLimit=" + limits.rateLimit() + " maxRunning="
                    + limits.maxRunning(), 1, Response.noContent().build());
        });
    }

    /**
     * A queue's limits as an admin sets them.
     *
     * @param rateLimit  starts per period on all nodes, such as {@code 50/1s}; {@code none} for no limit; null for
     *                   the configured one
     * @param maxRunning jobs RUNNING at once on all nodes; 0 for no limit; null for the configured one
     */
    public record Limits(String rateLimit, Integer maxRunning) {
    }

    /**
     * What a retry of a queue's FAILED jobs did.
     *
     * @param retried        how many it made PENDING (or WAITING)
     * @param skipped        how many it passed over
     * @param skippedBecause why
     */
    public record Retried(int retried, int skipped, Skipped skippedBecause) {
    }

    /** How many FAILED jobs a purge deleted. */
    public record Purged(int purged) {
    }
}

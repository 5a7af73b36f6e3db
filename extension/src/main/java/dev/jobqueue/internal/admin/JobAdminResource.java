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
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.config.Durations;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
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
import java.time.Duration;
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
 * The admin REST API over {@link JobAdmin}. Only users in the {@code jobqueue-admin} role get in: others get
 * 401 (not authenticated) or 403 (wrong role), and nothing changes. Who has the role is configured in the
 * server, by a role binding or a group of that name. A request that changes something (any method but GET,
 * HEAD and OPTIONS) must also carry the header {@value #REQUESTED_BY}, with any value, or it gets 403 and
 * changes nothing: a browser sends the operator's cookie or cached Basic credentials with a form or link from
 * any site, but it lets no other site set that header. Bad queue names, ids and parameters get 400 with a
 * message naming the problem.
 */
@Path("admin")
@Tag(name = "jobqueue admin", description = "Queues, dead letters and jobs; for the role jobqueue-admin")
@APIResponse(responseCode = "401", description = "Not authenticated")
@APIResponse(responseCode = "403", description = "Not in the role jobqueue-admin, or a change without X-Requested-By",
        content = @Content(schema = @Schema(implementation = JobAdminResource.ErrorBody.class)))
@APIResponse(responseCode = "400", description = "A bad queue name, id, group or parameter, named in the error",
        content = @Content(schema = @Schema(implementation = JobAdminResource.ErrorBody.class)))
@RequestScoped
@RolesAllowed(JobAdminResource.ROLE)
@Produces(MediaType.APPLICATION_JSON)
public class JobAdminResource {

    /** The role an admin user must have. Map it to your users or groups in the server's configuration. */
    public static final String ROLE = "jobqueue-admin";
    /** The header every request that changes something must carry, with any value. */
    public static final String REQUESTED_BY = "X-Requested-By";
    /** How much of a payload the job view shows unless asked for all of it: 64 Ki characters. */
    static final int PAYLOAD_DISPLAY_CHARS = 65_536;

    @Inject
    JobAdmin admin;

    @Inject
    JobSchedules schedules;

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
        return guarded(() -> Response.ok(admin.failed(queue == null ? null : queue(queue),
                number("page", page, 0, Integer.MAX_VALUE / DefaultJobAdmin.MAX_PAGE_SIZE),
                number("size", size, 1, DefaultJobAdmin.MAX_PAGE_SIZE))).build());
    }

    @Operation(summary = "A group's jobs counted by state")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = GroupProgress.class)))
    @GET
    @Path("groups/{group}")
    public Response group(@PathParam("group") String group) {
        return guarded(() -> Response.ok(admin.group(groupName(group))).build());
    }

    /**
     * One job. Its payload is cut to {@value #PAYLOAD_DISPLAY_CHARS} characters, with {@code payloadTruncated}
     * set, unless {@code ?payload=full} asks for all of it.
     */
    @Operation(summary = "One job: its payload, options and first errors")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = JobDetails.class)))
    @APIResponse(responseCode = "404", description = "No such job",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @GET
    @Path("jobs/{id}")
    public Response job(@PathParam("id") String id,
            @QueryParam("payload") @DefaultValue("truncated") String payload) {
        return guarded(() -> admin.job(parseId(id), payloadChars(payload)).map(job -> Response.ok(job).build())
                .orElseGet(() -> notFound("no job " + id)));
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
            JobId job = parseId(id);
            if (admin.job(job, 0).isEmpty()) {
                return notFound("no job " + id);
            }
            return Response.ok(admin.errors(job,
                    number("page", page, 0, Integer.MAX_VALUE / DefaultJobAdmin.MAX_PAGE_SIZE),
                    number("size", size, 1, DefaultJobAdmin.MAX_PAGE_SIZE))).build();
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
                return admin.retry(parseId(id)) ? Response.noContent().build()
                        : notFound("no FAILED job " + id + " whose dedupe key is free");
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
        return guarded(() -> admin.delete(parseId(id)) ? Response.noContent().build()
                : notFound("no job " + id + " that is not RUNNING"));
    }

    @Operation(summary = "Retries every FAILED job of a queue")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Retried.class)))
    @POST
    @Path("queues/{queue}/retry-failed")
    public Response retryFailed(@PathParam("queue") String queue) {
        return guarded(() -> Response.ok(new Retried(admin.retryFailed(queue(queue)))).build());
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
            return Response.ok(new Purged(admin.purgeFailed(queue(queue), duration("olderThan", olderThan)))).build();
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
                admin.pause(queue(queue));
                return Response.noContent().build();
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
                admin.resume(queue(queue));
                return Response.noContent().build();
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
                return Response.ok(new Triggered(admin.triggerSchedule(name))).build();
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
        return scheduleSwitch(() -> admin.pauseSchedule(name));
    }

    @Operation(summary = "Lets a schedule fire again, from its first occurrence after now")
    @APIResponse(responseCode = "204", description = "Resumed")
    @APIResponse(responseCode = "404", description = "No such schedule",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("schedules/{name}/resume")
    public Response resumeSchedule(@PathParam("name") String name) {
        return scheduleSwitch(() -> admin.resumeSchedule(name));
    }

    @Operation(summary = "Deletes a schedule; its occurrences' jobs stay")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No such schedule",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @DELETE
    @Path("schedules/{name}")
    public Response deleteSchedule(@PathParam("name") String name) {
        return guarded(() -> schedules.delete(name) ? Response.noContent().build()
                : notFound("jobqueue: there is no schedule named '" + name + "'"));
    }

    private Response scheduleSwitch(Runnable change) {
        return guarded(() -> {
            try {
                change.run();
                return Response.noContent().build();
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

    private static String queue(String name) {
        if (!QueueNames.isValid(name)) {
            throw new BadRequest(Messages.invalidQueueName(name));
        }
        return name;
    }

    private static String groupName(String name) {
        try {
            return DefaultJobAdmin.requireValidGroup(name);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(e.getMessage());
        }
    }

    private static int number(String name, String value, int min, int max) {
        try {
            int number = Integer.parseInt(value);
            if (number < min || number > max) {
                throw new BadRequest(name + " must be between " + min + " and " + max + ", was " + number);
            }
            return number;
        } catch (NumberFormatException e) {
            throw new BadRequest(name + " must be a whole number, was '" + value + "'");
        }
    }

    private static int payloadChars(String payload) {
        return switch (payload) {
            case "full" -> Integer.MAX_VALUE;
            case "truncated" -> PAYLOAD_DISPLAY_CHARS;
            default -> throw new BadRequest("payload must be 'full' or 'truncated', was '" + payload + "'");
        };
    }

    private static Duration duration(String name, String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(name + " '" + value + "': " + e.getMessage());
        }
    }

    private static JobId parseId(String id) {
        try {
            return JobId.parse(id);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("'" + id + "' is not a job id; job ids are UUIDs");
        }
    }

    /** A request parameter that is not valid; answered with 400 and this message. */
    private static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message);
        }
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

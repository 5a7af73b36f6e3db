package dev.jobqueue.internal.admin;

import dev.jobqueue.JobAdmin;
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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The admin REST API over {@link JobAdmin}. Only users in the {@code jobqueue-admin} role get in: others get
 * 401 (not authenticated) or 403 (wrong role), and nothing changes. Who has the role is configured in the
 * server, by a role binding or a group of that name. Bad queue names, ids and parameters get 400 with a
 * message naming the problem.
 */
@Path("admin")
@RequestScoped
@RolesAllowed(JobAdminResource.ROLE)
@Produces(MediaType.APPLICATION_JSON)
public class JobAdminResource {

    /** The role an admin user must have. Map it to your users or groups in the server's configuration. */
    public static final String ROLE = "jobqueue-admin";
    static final String ENABLED_KEY = "jobqueue.admin.enabled";

    @Inject
    JobAdmin admin;

    @Context
    SecurityContext security;

    @GET
    @Path("queues")
    public Response queues() {
        return guarded(() -> Response.ok(admin.queues()).build());
    }

    @GET
    @Path("failed")
    public Response failed(@QueryParam("queue") String queue, @QueryParam("page") @DefaultValue("0") String page,
            @QueryParam("size") @DefaultValue("50") String size) {
        return guarded(() -> Response.ok(admin.failed(queue == null ? null : queue(queue),
                number("page", page, 0, Integer.MAX_VALUE / DefaultJobAdmin.MAX_PAGE_SIZE),
                number("size", size, 1, DefaultJobAdmin.MAX_PAGE_SIZE))).build());
    }

    @GET
    @Path("groups/{group}")
    public Response group(@PathParam("group") String group) {
        return guarded(() -> Response.ok(admin.group(group)).build());
    }

    @GET
    @Path("jobs/{id}")
    public Response job(@PathParam("id") String id) {
        return guarded(() -> admin.job(parseId(id)).map(job -> Response.ok(job).build())
                .orElseGet(() -> notFound("no job " + id)));
    }

    @POST
    @Path("jobs/{id}/retry")
    public Response retry(@PathParam("id") String id) {
        return guarded(() -> admin.retry(parseId(id)) ? Response.noContent().build()
                : notFound("no FAILED job " + id));
    }

    @DELETE
    @Path("jobs/{id}")
    public Response delete(@PathParam("id") String id) {
        return guarded(() -> admin.delete(parseId(id)) ? Response.noContent().build()
                : notFound("no job " + id + " that is not RUNNING"));
    }

    @POST
    @Path("queues/{queue}/retry-failed")
    public Response retryFailed(@PathParam("queue") String queue) {
        return guarded(() -> Response.ok(Map.of("retried", admin.retryFailed(queue(queue)))).build());
    }

    @DELETE
    @Path("queues/{queue}/failed")
    public Response purgeFailed(@PathParam("queue") String queue,
            @QueryParam("olderThan") @DefaultValue("0s") String olderThan) {
        return guarded(() -> Response.ok(Map.of("purged", admin.purgeFailed(queue(queue), duration("olderThan", olderThan))))
                .build());
    }

    @POST
    @Path("queues/{queue}/pause")
    public Response pause(@PathParam("queue") String queue) {
        return guarded(() -> {
            admin.pause(queue(queue));
            return Response.noContent().build();
        });
    }

    @POST
    @Path("queues/{queue}/resume")
    public Response resume(@PathParam("queue") String queue) {
        return guarded(() -> {
            admin.resume(queue(queue));
            return Response.noContent().build();
        });
    }

    /**
     * Checks the switch and the role (again: without a security feature, @RolesAllowed alone may not be
     * enforced), then runs the operation, turning a bad argument into 400.
     */
    private Response guarded(Supplier<Response> operation) {
        Config config = ConfigProvider.getConfig();
        if (!config.getOptionalValue(ENABLED_KEY, Boolean.class).orElse(true)) {
            return notFound("the jobqueue admin API is disabled (" + ENABLED_KEY + "=false)");
        }
        if (security.getUserPrincipal() == null) {
            return Response.status(Response.Status.UNAUTHORIZED).header("WWW-Authenticate", "Basic")
                    .entity(error("authentication required")).build();
        }
        if (!security.isUserInRole(ROLE)) {
            return Response.status(Response.Status.FORBIDDEN).entity(error("the role " + ROLE + " is required"))
                    .build();
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

    private static Map<String, String> error(String message) {
        return Map.of("error", message);
    }
}

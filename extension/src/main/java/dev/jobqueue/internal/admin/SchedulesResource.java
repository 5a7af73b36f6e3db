package dev.jobqueue.internal.admin;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobId;
import dev.jobqueue.JobSchedules;
import dev.jobqueue.ScheduleInfo;
import dev.jobqueue.internal.SafeText;
import dev.jobqueue.internal.schedule.ScheduleControl;
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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The admin API's recurring schedules: the list, and a trigger, pause, resume or delete of one. */
@Path("admin/schedules")
@Tag(name = "jobqueue admin: schedules", description = "Recurring schedules")
@APIResponse(responseCode = "400", description = "A bad name or parameter, named in the error",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@APIResponse(responseCode = "401", description = "Not authenticated (JQ074)")
@APIResponse(responseCode = "403", description = "Not in the role jobqueue-viewer or jobqueue-admin; a change by"
        + " a user not in jobqueue-admin, or without X-Requested-By",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@RequestScoped
@RolesAllowed({AdminRoles.ADMIN, AdminRoles.VIEWER})
@Produces(MediaType.APPLICATION_JSON)
public class SchedulesResource extends AdminEndpoint {

    @Inject
    JobAdmin admin;

    @Inject
    JobSchedules schedules;

    @Inject
    ScheduleControl control;

    /** A page of the schedules by name; {@code after} is the previous page's {@code next}. */
    @Operation(summary = "A page of the recurring schedules, by name")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Listing.class)))
    @GET
    public Response schedules(@QueryParam("after") String after,
            @QueryParam("size") @DefaultValue("100") String size) {
        return guarded(() -> {
            String from = after == null || after.isBlank() ? null : AdminParams.scheduleName(after);
            int pageSize = AdminParams.number("size", size, 1, AdminParams.MAX_PAGE_SIZE);
            List<ScheduleInfo> page = control.page(from, pageSize + 1);
            boolean more = page.size() > pageSize;
            List<ScheduleInfo> shown = more ? page.subList(0, pageSize) : page;
            return Response.ok(new Listing(shown, more ? shown.get(pageSize - 1).name() : null)).build();
        });
    }

    @Operation(summary = "Puts a job for a schedule now; its next occurrence stays")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Triggered.class)))
    @APIResponse(responseCode = "404", description = "No such schedule (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("{name}/trigger")
    public Response trigger(@PathParam("name") String name) {
        return change("trigger-schedule", name, () -> Response.ok(new Triggered(admin.triggerSchedule(name))).build());
    }

    @Operation(summary = "Stops a schedule firing on every node")
    @APIResponse(responseCode = "204", description = "Paused")
    @APIResponse(responseCode = "404", description = "No such schedule (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("{name}/pause")
    public Response pause(@PathParam("name") String name) {
        return change("pause-schedule", name, () -> {
            admin.pauseSchedule(name);
            return Response.noContent().build();
        });
    }

    @Operation(summary = "Lets a schedule fire again, from its first occurrence after now")
    @APIResponse(responseCode = "204", description = "Resumed")
    @APIResponse(responseCode = "404", description = "No such schedule (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @POST
    @Path("{name}/resume")
    public Response resume(@PathParam("name") String name) {
        return change("resume-schedule", name, () -> {
            admin.resumeSchedule(name);
            return Response.noContent().build();
        });
    }

    @Operation(summary = "Deletes a schedule; its occurrences' jobs stay")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No such schedule (JQ071)",
            content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @DELETE
    @Path("{name}")
    public Response delete(@PathParam("name") String name) {
        return change("delete-schedule", name, () -> {
            if (!schedules.delete(name)) {
                throw new NoSuchElementException(noSchedule(name));
            }
            return Response.noContent().build();
        });
    }

    /** Runs a change to the schedule {@code name}, answering 404 (JQ071) if there is no such schedule. */
    private Response change(String action, String name, Supplier<Response> change) {
        return guarded(() -> {
            AdminParams.scheduleName(name);
            try {
                Response answer = change.get();
                return acted(action, "schedule " + name, 1, answer);
            } catch (NoSuchElementException e) {
                return notFound(noSchedule(name));
            }
        });
    }

    private static String noSchedule(String name) {
        return "there is no schedule named '" + SafeText.of(name) + "'";
    }

    /** A page of schedules, and the name to ask for the next page after; null on the last. */
    public record Listing(List<ScheduleInfo> schedules, String next) {
    }

    /** The job a trigger of a schedule put. */
    public record Triggered(JobId job) {
    }
}

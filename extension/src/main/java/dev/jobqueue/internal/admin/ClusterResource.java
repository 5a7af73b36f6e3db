package dev.jobqueue.internal.admin;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobAdmin.GroupProgress;
import dev.jobqueue.internal.config.NodeName;
import dev.jobqueue.internal.config.NodeSettings;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The admin API's view of the cluster: who is asking, the overview, the nodes, and a group's progress. */
@Path("admin")
@Tag(name = "jobqueue admin: cluster", description = "The overview, the nodes, a group, and who is asking")
@APIResponse(responseCode = "400", description = "A bad group name, named in the error",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@APIResponse(responseCode = "401", description = "Not authenticated (JQ074)")
@APIResponse(responseCode = "403", description = "Not in the role jobqueue-viewer or jobqueue-admin",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
@RequestScoped
@RolesAllowed({AdminRoles.ADMIN, AdminRoles.VIEWER})
@Produces(MediaType.APPLICATION_JSON)
public class ClusterResource extends AdminEndpoint {

    @Inject
    JobAdmin admin;

    @Inject
    ClusterView cluster;

    @Inject
    NodeSettings settings;

    @Inject
    NodeName nodeName;

    @Operation(summary = "Who is asking, whether they may act, and whether payloads are shown")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = Me.class)))
    @GET
    @Path("me")
    public Response me() {
        return guarded(() -> Response.ok(new Me(security.getUserPrincipal().getName(),
                security.isUserInRole(AdminRoles.ADMIN), settings.showPayloads(), nodeName.value())).build());
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

    @Operation(summary = "A group's jobs counted by state")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = GroupProgress.class)))
    @GET
    @Path("groups/{group}")
    public Response group(@PathParam("group") String group) {
        return guarded(() -> Response.ok(admin.group(AdminParams.group(group))).build());
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
}

package ${package};

import jakarta.inject.Inject;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** POST /api/orders?item=tea places an order; GET /api/orders/{id} shows whether it is confirmed. */
@Path("orders")
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {

    @Inject
    Orders orders;

    /** Answers {@code {"id": "..."}}. */
    @POST
    public Map<String, String> place(@QueryParam("item") String item) {
        return Map.of("id", orders.place(item == null ? "tea" : item));
    }

    @GET
    @Path("{id}")
    public Order find(@PathParam("id") String id) {
        Order order = orders.find(id);
        if (order == null) {
            throw new NotFoundException("no order " + id);
        }
        return order;
    }

    /** Serves this application's REST resources under /api. */
    @ApplicationPath("api")
    public static class Api extends Application {
    }
}

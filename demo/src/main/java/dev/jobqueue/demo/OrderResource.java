package dev.jobqueue.demo;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;

/** {@code POST /orders} places an order; {@code GET /orders} shows which have been confirmed. */
@Path("orders")
@Produces(MediaType.APPLICATION_JSON)
public class OrderResource {

    @Inject
    Orders orders;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response place(NewOrder request) {
        if (request == null || request.customer() == null || request.item() == null) {
            return Response.status(Response.Status.BAD_REQUEST)
                    .entity("{\"error\":\"send {\\\"customer\\\": ..., \\\"item\\\": ...}\"}").build();
        }
        CustomerOrder order = orders.place(request);
        return Response.created(URI.create("orders/" + order.getId())).entity(order).build();
    }

    @GET
    public List<CustomerOrder> all() {
        return orders.all();
    }
}

package dev.jobqueue.it.tracing;

import dev.jobqueue.JobQueue;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * What the tracing test asks a node over HTTP: to put a job inside the request (whose span the server makes),
 * for the spans the node's SDK ended, and for the trace context stored with a job.
 */
@Path("tracing")
@Produces(MediaType.APPLICATION_JSON)
public class TracingProbe {

    @Inject
    JobQueue jobs;

    @PersistenceContext(unitName = "app")
    EntityManager em;

    /** Puts a job; answers its id and the request's span, which should become its consumer's parent. */
    @POST
    @Path("put/{queue}")
    public String put(@PathParam("queue") String queue) {
        String id = jobs.put(queue, "traced work").toString();
        SpanContext request = Span.current().getSpanContext();
        return Json.createObjectBuilder().add("id", id).add("traceId", request.getTraceId())
                .add("spanId", request.getSpanId()).build().toString();
    }

    /** The job's state and stored traceparent ("" for none). */
    @GET
    @Path("job/{id}")
    public String job(@PathParam("id") String id) {
        List<?> rows = em.createNativeQuery("SELECT state, trace_parent FROM jobqueue_job WHERE id = ?1")
                .setParameter(1, id).getResultList();
        if (rows.isEmpty()) {
            return "{}";
        }
        Object[] row = (Object[]) rows.get(0);
        return Json.createObjectBuilder().add("state", String.valueOf(row[0]))
                .add("traceparent", row[1] == null ? "" : row[1].toString()).build().toString();
    }

    /** The spans this node's SDK ended, and whether it made an exporter at all. */
    @GET
    @Path("spans")
    public String spans() {
        JsonArrayBuilder spans = Json.createArrayBuilder();
        for (SpanData span : SpanLog.finished()) {
            JsonObjectBuilder attributes = Json.createObjectBuilder();
            span.getAttributes().forEach((key, value) -> attributes.add(key.getKey(), String.valueOf(value)));
            JsonArrayBuilder links = Json.createArrayBuilder();
            for (LinkData link : span.getLinks()) {
                links.add(link.getSpanContext().getTraceId() + "/" + link.getSpanContext().getSpanId());
            }
            JsonArrayBuilder events = Json.createArrayBuilder();
            span.getEvents().forEach(event -> events.add(event.getName()));
            spans.add(Json.createObjectBuilder().add("name", span.getName()).add("kind", span.getKind().name())
                    .add("traceId", span.getTraceId()).add("spanId", span.getSpanId())
                    .add("parentSpanId", span.getParentSpanId())
                    .add("status", span.getStatus().getStatusCode().name())
                    .add("attributes", attributes).add("links", links).add("events", events));
        }
        return Json.createObjectBuilder().add("exporter", SpanLog.made()).add("spans", spans).build().toString();
    }
}

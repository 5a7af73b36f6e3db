package dev.jobqueue.it.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.ops.Http;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One trace from the request that puts a job to the consumer that runs it on another node, with Liberty's
 * MicroProfile Telemetry (mpTelemetry-2.1) and, in each application, the SDK turned on with an in-memory exporter
 * of its own ({@link SpanLog}), as the MicroProfile Telemetry TCK does. Three applications on one server are three
 * nodes: a producer that only puts, a consumer, and a node whose telemetry is off. Liberty only: the other servers'
 * telemetry is set up differently.
 */
@Tag("any-database")
@ExtendWith(ArquillianExtension.class)
@EnabledIfSystemProperty(named = "it.server", matches = "liberty")
@RunAsClient
class TracingIT {

    private static final String PRODUCER = "/tracing-producer/test/tracing";
    private static final String CONSUMER = "/tracing-consumer/test/tracing";
    private static final String UNTRACED = "/tracing-off/test/tracing";
    private static final String NO_SPAN = "0000000000000000";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Deployment(name = "consumer", order = 1, testable = false)
    static WebArchive consumer() {
        return node("tracing-consumer", "tracing-on", TracedConsumers.class);
    }

    @Deployment(name = "producer", order = 2, testable = false)
    static WebArchive producer() {
        return node("tracing-producer", "tracing-on");
    }

    @Deployment(name = "untraced", order = 3, testable = false)
    static WebArchive untraced() {
        return node("tracing-off", "tracing-off", UntracedConsumer.class);
    }

    private static WebArchive node(String name, String config, Class<?>... consumers) {
        return Deployments.war(name, config, consumers)
                .addClasses(TracingProbe.class, TracingProbeApplication.class, SpanLog.class, SpanLog.Provider.class)
                .addAsResource(new StringAsset(SpanLog.Provider.class.getName()),
                        "META-INF/services/io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider");
    }

    @Test
    void a_job_put_in_a_request_runs_on_another_node_as_a_child_of_the_request_span_in_its_trace() throws Exception {
        JsonObject put = put(PRODUCER, "traced");

        JsonObject span = awaitSpans(CONSUMER, put.getString("id"), 1).get(0);

        assertEquals("process traced", span.getString("name"));
        assertEquals("CONSUMER", span.getString("kind"));
        assertEquals(put.getString("traceId"), span.getString("traceId"), "in the request's trace");
        assertEquals(put.getString("spanId"), span.getString("parentSpanId"), "a child of the request's span");
        JsonObject attributes = span.getJsonObject("attributes");
        assertEquals("jobqueue", attributes.getString("messaging.system"));
        assertEquals("traced", attributes.getString("messaging.destination.name"));
        assertEquals("process", attributes.getString("messaging.operation.type"));
        assertEquals("1", attributes.getString("jobqueue.job.attempt"));
        assertEquals("done", attributes.getString("jobqueue.job.outcome"));
        assertEquals("UNSET", span.getString("status"));
        assertEquals("00-" + put.getString("traceId") + "-" + put.getString("spanId") + "-01",
                job(PRODUCER, put.getString("id")).getString("traceparent"), "the traceparent stored with the job");
        assertTrue(Await.until(() -> spans(PRODUCER).stream().anyMatch(request -> request.getString("spanId")
                .equals(put.getString("spanId")) && "SERVER".equals(request.getString("kind"))), WAIT),
                "the producer exported the request's span, the consumer span's parent: " + spans(PRODUCER));
    }

    @Test
    void a_retry_starts_a_new_trace_linked_to_the_put_and_the_failed_attempt_is_an_error() throws Exception {
        JsonObject put = put(PRODUCER, "traced-retry");

        List<JsonObject> attempts = awaitSpans(CONSUMER, put.getString("id"), 2);

        JsonObject first = attempts.get(0);
        JsonObject retry = attempts.get(1);
        assertEquals("1", first.getJsonObject("attributes").getString("jobqueue.job.attempt"));
        assertEquals(put.getString("traceId"), first.getString("traceId"));
        assertEquals(put.getString("spanId"), first.getString("parentSpanId"));
        assertEquals("ERROR", first.getString("status"));
        assertEquals("retry", first.getJsonObject("attributes").getString("jobqueue.job.outcome"));
        assertEquals(List.of("exception"), strings(first, "events"));

        assertEquals("2", retry.getJsonObject("attributes").getString("jobqueue.job.attempt"));
        assertNotEquals(put.getString("traceId"), retry.getString("traceId"), "a trace of its own");
        assertEquals(NO_SPAN, retry.getString("parentSpanId"), "a root span");
        assertEquals(List.of(put.getString("traceId") + "/" + put.getString("spanId")), strings(retry, "links"),
                "linked to the put, in the first attempt's trace");
        assertEquals("UNSET", retry.getString("status"));
    }

    @Test
    void a_queue_with_trace_parent_link_starts_every_attempt_in_a_new_trace_linked_to_the_put() throws Exception {
        JsonObject put = put(PRODUCER, "traced-link");

        JsonObject span = awaitSpans(CONSUMER, put.getString("id"), 1).get(0);

        assertNotEquals(put.getString("traceId"), span.getString("traceId"));
        assertEquals(NO_SPAN, span.getString("parentSpanId"));
        assertEquals(List.of(put.getString("traceId") + "/" + put.getString("spanId")), strings(span, "links"));
    }

    @Test
    void with_telemetry_off_a_job_runs_and_nothing_is_stored_or_traced() throws Exception {
        JsonObject put = put(UNTRACED, "untraced");
        String id = put.getString("id");

        assertTrue(Await.until(() -> "DONE".equals(job(UNTRACED, id).getString("state", "")), WAIT),
                "the job ran: " + job(UNTRACED, id));
        assertEquals("", job(UNTRACED, id).getString("traceparent"), "no trace context stored");
        assertEquals(NO_SPAN, put.getString("spanId"), "the request had no span either");
        JsonObject node = get(UNTRACED + "/spans");
        assertFalse(node.getBoolean("exporter"), "the disabled SDK made no exporter: " + node);
        assertTrue(node.getJsonArray("spans").isEmpty(), node.toString());
    }

    private static JsonObject put(String node, String queue) throws Exception {
        HttpResponse<String> response = Http.send("POST", node + "/put/" + queue, null, null);
        assertEquals(200, response.statusCode(), response.body());
        return parse(response.body());
    }

    private static JsonObject job(String node, String id) throws Exception {
        return get(node + "/job/" + id);
    }

    /** The spans of the consumer calls of one job, in attempt order, once there are {@code count}. */
    private static List<JsonObject> awaitSpans(String node, String jobId, int count) throws Exception {
        List<List<JsonObject>> found = new java.util.ArrayList<>(List.of(List.of()));
        boolean arrived = Await.until(() -> {
            found.set(0, spans(node).stream()
                    .filter(span -> jobId.equals(span.getJsonObject("attributes").getString("messaging.message.id", "")))
                    .sorted(java.util.Comparator.comparing(span -> span.getJsonObject("attributes")
                            .getString("jobqueue.job.attempt")))
                    .toList());
            return found.get(0).size() >= count;
        }, WAIT);
        assertTrue(arrived, count + " spans of job " + jobId + " expected, found " + found.get(0));
        assertEquals(count, found.get(0).size(), found.get(0).toString());
        return found.get(0);
    }

    private static List<JsonObject> spans(String node) throws Exception {
        return get(node + "/spans").getJsonArray("spans").getValuesAs(JsonObject.class);
    }

    private static List<String> strings(JsonObject span, String field) {
        return span.getJsonArray(field).getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    private static JsonObject get(String path) throws Exception {
        HttpResponse<String> response = Http.get(path);
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return parse(response.body());
    }

    private static JsonObject parse(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }
}

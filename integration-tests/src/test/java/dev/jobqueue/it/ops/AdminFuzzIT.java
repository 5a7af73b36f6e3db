package dev.jobqueue.it.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.ServerLog;
import dev.jobqueue.it.TestServer;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every parameter of every admin endpoint, in its path, its query and its body, given what a careless script or a
 * hostile client sends: NUL, CR/LF, 10,000 characters, broken percent-encoding and bytes that are not UTF-8,
 * negative, zero and huge numbers, tampered page tokens and JSON of the wrong shape. Every answer is below 500, and
 * every refusal is JSON with a JQ code; the server logs no stack trace and writes no incident file. The one
 * exception is what the web container refuses itself, before the application sees it: broken percent-encoding, or a
 * control character, in a path segment gets Liberty's own 400; WildFly answers those, and bytes that are not
 * UTF-8, with an empty 400 in a path or a query string.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class AdminFuzzIT {

    private static final String APP = "ops-fuzz";
    private static final String ADMIN = "/" + APP + "/jobqueue/admin";
    private static final Pattern ERROR_BODY = Pattern.compile("\\{\"code\":\"(JQ\\d{3})\",\"error\":\"\\1: .*\"}",
            Pattern.DOTALL);

    @Deployment(testable = false)
    static WebArchive app() {
        return Deployments.war(APP, "ops", OpsConsumers.class, OpsConsumers.OkConsumer.class,
                OpsConsumers.FailingConsumer.class, OpsProbe.class, OpsProbeApplication.class);
    }

    /** An admin endpoint: its method, its path with {@code {slot}}s, and its query parameters. */
    private record Endpoint(String method, String path, List<String> query, boolean body) {
        Endpoint(String method, String path, String... query) {
            this(method, path, List.of(query), false);
        }
    }

    private static final String[] FILTER = {"queue", "state", "id", "dedupeKey", "orderingKey", "group"};

    private static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("GET", "/queues"),
            new Endpoint("GET", "/failed", "queue", "page", "size"),
            new Endpoint("POST", "/failed/retry", FILTER),
            new Endpoint("POST", "/failed/delete", FILTER),
            new Endpoint("GET", "/groups/{group}"),
            new Endpoint("GET", "/jobs", "queue", "state", "id", "dedupeKey", "orderingKey", "group", "sort", "after",
                    "size"),
            new Endpoint("GET", "/jobs/count", FILTER),
            new Endpoint("GET", "/jobs/{id}", "payload"),
            new Endpoint("GET", "/jobs/{id}/errors", "page", "size"),
            new Endpoint("GET", "/jobs/{id}/options", "size"),
            new Endpoint("GET", "/jobs/{id}/waits-for", "after", "size"),
            new Endpoint("GET", "/jobs/{id}/waited-by", "after", "size"),
            new Endpoint("POST", "/jobs/{id}/retry"),
            new Endpoint("DELETE", "/jobs/{id}"),
            new Endpoint("POST", "/jobs/retry", List.of(), true),
            new Endpoint("POST", "/jobs/delete", List.of(), true),
            new Endpoint("POST", "/queues/{queue}/retry-failed"),
            new Endpoint("DELETE", "/queues/{queue}/failed", "olderThan"),
            new Endpoint("POST", "/queues/{queue}/pause"),
            new Endpoint("POST", "/queues/{queue}/resume"),
            new Endpoint("GET", "/schedules", "after", "size"),
            new Endpoint("POST", "/schedules/{name}/trigger"),
            new Endpoint("POST", "/schedules/{name}/pause"),
            new Endpoint("POST", "/schedules/{name}/resume"),
            new Endpoint("DELETE", "/schedules/{name}"),
            new Endpoint("GET", "/me"),
            new Endpoint("GET", "/overview"),
            new Endpoint("GET", "/nodes"));

    /** Values every slot gets unless it is the one fuzzed: harmless, and refused or empty where they act. */
    private static final Map<String, String> PLAIN = Map.ofEntries(Map.entry("id", UUID.randomUUID().toString()),
            Map.entry("queue", "ops-fuzz-nobody"), Map.entry("group", "fuzz-group"), Map.entry("name", "fuzz-nobody"),
            Map.entry("page", "0"), Map.entry("size", "5"), Map.entry("olderThan", "3650d"), Map.entry("sort", "due"),
            Map.entry("payload", "none"), Map.entry("state", "FAILED"));

    /** What a fuzzed slot gets, as it goes on the wire: percent-encoded where the text says so, raw bytes otherwise. */
    private static final List<byte[]> VALUES = values();

    private static List<byte[]> values() {
        List<String> text = new ArrayList<>(List.of("%00", "a%00b", "%0D%0AJQ087:%20eve%20did%20everything",
                "%0A", "%0D", "%09", "%1B%5B31m", "x".repeat(10_000), "%zz", "%", "%E0%80%80", "%FF%FE",
                "%C3%28", "%ED%A0%80", "-1", "0", "1", "99999999999999999999", "-99999999999999999999", "2147483648",
                "-2147483649", "1e3", "NaN", "%20", "..", "%2F..%2F..%2Fetc%2Fpasswd", "%3Cscript%3E",
                "'%20OR%201=1--", "null", "true", "%5B%5D", "FAILED%00", "RUNNING", "done", "-5d", "99999999d",
                "PT-1S", "P1000000Y", "full", "%F0%9F%98%80"));
        for (String token : List.of("1.999999999999.0", "1.-99999999999.0", "1.31556889864403199.0", "x.y.z",
                "9223372036854775807.253402300799.999999999", "-1.-1.-1", "1.1", "1.1.1.1")) {
            text.add(Base64.getUrlEncoder().withoutPadding().encodeToString(token.getBytes(StandardCharsets.US_ASCII)));
        }
        List<byte[]> values = new ArrayList<>();
        text.forEach(value -> values.add(value.getBytes(StandardCharsets.US_ASCII)));
        values.add(new byte[] {'a', (byte) 0xFF, 'b'});
        values.add(new byte[] {(byte) 0xC3, (byte) 0x28});
        return values;
    }

    private static final List<String> BODIES = List.of("", "{", "[]", "\"ids\"", "5", "null", "{}",
            "{\"ids\":\"x\"}", "{\"ids\":[1,2]}", "{\"ids\":{}}", "{\"ids\":[null]}", "{\"ids\":[\"\\u0000\"]}",
            "{\"ids\":[\"" + "x".repeat(10_000) + "\"]}", "{\"ids\":true}", "{\"ids\":[[]]}", "{\"ids\":[]}",
            "{\"ids\":[\"not-a-uuid\"]}", "{\"ids\":[\"\r\nJQ087: forged\"]}", "{\"ids\":" + manyIds(1_001) + "}",
            "{\"ids\":[\"" + UUID.randomUUID() + "\"],\"extra\":{\"deep\":[1,[2,[3]]]}}");

    @Test
    void every_parameter_of_every_endpoint_given_hostile_input_gets_a_coded_refusal_and_no_server_error()
            throws Exception {
        Set<String> incidentsBefore = ServerLog.incidents();
        ServerLog.Mark logMark = ServerLog.mark();
        List<String> failures = new ArrayList<>();
        int requests = 0;

        for (Endpoint endpoint : ENDPOINTS) {
            List<String> slots = new ArrayList<>(slotsOf(endpoint.path()));
            slots.addAll(endpoint.query());
            for (String slot : slots) {
                boolean inPath = !endpoint.query().contains(slot);
                for (byte[] value : VALUES) {
                    byte[] target = target(endpoint, slot, value);
                    RawHttp.Answer answer = send(endpoint, target, null);
                    if (!refusedByTheServer(answer, inPath)) {
                        check(endpoint, slot + "=" + printable(value), answer, failures);
                    }
                    requests++;
                }
            }
            if (endpoint.body()) {
                byte[] target = target(endpoint, null, null);
                for (String body : BODIES) {
                    check(endpoint, "body " + printable(body.getBytes(StandardCharsets.UTF_8)),
                            send(endpoint, target, body.getBytes(StandardCharsets.UTF_8)), failures);
                    requests++;
                }
                check(endpoint, "body of bytes that are not UTF-8", send(endpoint, target,
                        new byte[] {'{', '"', 'i', 'd', 's', '"', ':', '[', '"', (byte) 0xC3, (byte) 0x28, '"', ']', '}'}),
                        failures);
                requests++;
            }
        }

        failures.forEach(failure -> System.out.println("FUZZ " + failure));
        assertEquals(List.of(), failures.stream().limit(40).toList(), failures.size() + " of " + requests
                + " answers broke the rules");
        Thread.sleep(500);
        List<String> alarming = alarming(ServerLog.since(logMark));
        assertEquals(List.of(), alarming, "the server's log after " + requests + " hostile requests");
        Set<String> incidents = new TreeSet<>(ServerLog.incidents());
        incidents.removeAll(incidentsBefore);
        assertEquals(Set.of(), incidents, "no incident files");
    }

    @Test
    void every_answer_of_the_admin_api_is_kept_by_no_cache_and_read_as_its_declared_type() throws Exception {
        Map<String, HttpResponse<String>> answers = new LinkedHashMap<>();
        answers.put("200", Http.send("GET", ADMIN + "/queues", "viewer", "viewer-secret"));
        answers.put("400", Http.send("GET", ADMIN + "/jobs?size=0", "viewer", "viewer-secret"));
        answers.put("401", Http.send("GET", ADMIN + "/queues", null, null));
        answers.put("403", Http.send("GET", ADMIN + "/queues", "outsider", "outsider-secret"));
        answers.put("404", Http.send("GET", ADMIN + "/no-such-path", "viewer", "viewer-secret"));
        answers.put("405", Http.send("PUT", ADMIN + "/queues", "admin", "admin-secret",
                Map.of("X-Requested-By", "fuzz")));
        for (Map.Entry<String, HttpResponse<String>> answer : answers.entrySet()) {
            HttpResponse<String> response = answer.getValue();
            assertEquals(answer.getKey(), String.valueOf(response.statusCode()), response.body());
            // Liberty adds no-cache="set-cookie" to it when the answer sets a cookie.
            assertTrue(response.headers().firstValue("Cache-Control").orElse("").contains("no-store"),
                    answer.getKey() + ": " + response.headers().map());
            assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElse(null),
                    answer.getKey());
            if (response.statusCode() >= 400) {
                assertTrue(ERROR_BODY.matcher(response.body()).matches(), answer.getKey() + ": " + response.body());
            }
        }
    }

    /**
     * The log lines that show a stack trace, an incident or an error, but for the servers' own records of what no
     * application sees: Liberty's refusal of a path with an encoded slash (CWWWC0005I) and Payara's of a path with
     * a broken escape (AS-WEB-CORE-00037, from Grizzly's URL decoder), which their web containers log with a stack
     * trace for every application, and Payara's warning at the first request to a resource with
     * {@code @RolesAllowed} in an application without an EJB (its security context looks up the EJBContext, and
     * the EJB container logs that it starts late, with a stack trace). Warnings are jobs' business too (a FAILED
     * job is one), so they are not counted.
     */
    private static List<String> alarming(String log) {
        List<String> alarming = new ArrayList<>();
        for (String record : ServerLog.records(log)) {
            if (isTheServersOwn(record)) {
                continue;
            }
            if (ServerLog.isError(record)) {
                alarming.add(record.lines().findFirst().orElse(""));
            }
            record.lines().filter(line -> line.startsWith("\tat ") || line.contains("FFDC")).forEach(alarming::add);
        }
        return alarming.stream().limit(20).toList();
    }

    private static boolean isTheServersOwn(String record) {
        return record.contains("CWWWC0005I") || record.contains("EJBContainerUtilImpl is null, creating")
                || (record.contains("AS-WEB-CORE-00037") && record.contains("grizzly.http.util.URLDecoder.decode"));
    }

    /** Sends as a viewer what only reads, and as an admin what changes something. */
    private static RawHttp.Answer send(Endpoint endpoint, byte[] target, byte[] body) throws Exception {
        boolean reads = endpoint.method().equals("GET");
        return RawHttp.send(endpoint.method(), target, reads ? "viewer" : "admin", reads ? "viewer-secret"
                : "admin-secret", body == null && endpoint.body() ? "{\"ids\":[]}".getBytes(StandardCharsets.UTF_8)
                        : body);
    }

    /**
     * Whether the server's web container refused the request before any application saw it. Liberty refuses a path
     * whose percent-encoding is broken or decodes to a control character, with 400 and a message of its own. WildFly
     * (Undertow) refuses the same, and bytes that are not UTF-8, in a path or a query string alike, with 400 and no
     * body at all. Payara answers such a path itself, before routing: 400 with no body for a control character,
     * invalid UTF-8 or a '?', its default web module for a lone or broken escape. jobqueue's own refusals always
     * carry a coded JSON body and the nosniff header it sets on every answer.
     */
    private static boolean refusedByTheServer(RawHttp.Answer answer, boolean inPath) {
        if (TestServer.isPayara()) {
            return !"nosniff".equals(answer.headers().get("x-content-type-options"));
        }
        if (answer.status() != 400) {
            return false;
        }
        if (TestServer.isWildFly()) {
            return answer.body().isEmpty();
        }
        return inPath && (answer.body().contains("CWWWC0005I") || answer.body().contains("SRVE0295E"));
    }

    private static void check(Endpoint endpoint, String input, RawHttp.Answer answer, List<String> failures) {
        String where = endpoint.method() + " " + endpoint.path() + " with " + input + ": " + answer.status() + " "
                + answer.body().substring(0, Math.min(300, answer.body().length()));
        if (answer.status() >= 500) {
            failures.add(where);
        } else if (answer.status() >= 400 && !(ERROR_BODY.matcher(answer.body()).matches()
                && answer.headers().getOrDefault("content-type", "").startsWith("application/json"))) {
            failures.add("not a coded JSON refusal: " + where);
        } else if (!answer.headers().getOrDefault("cache-control", "").contains("no-store")
                || !"nosniff".equals(answer.headers().get("x-content-type-options"))) {
            failures.add("no Cache-Control: no-store or no X-Content-Type-Options: nosniff: " + where);
        }
    }

    private static byte[] target(Endpoint endpoint, String fuzzed, byte[] value) {
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        target.writeBytes(ADMIN.getBytes(StandardCharsets.US_ASCII));
        Matcher slot = Pattern.compile("\\{(\\w+)}").matcher(endpoint.path());
        int from = 0;
        while (slot.find()) {
            target.writeBytes(endpoint.path().substring(from, slot.start()).getBytes(StandardCharsets.US_ASCII));
            target.writeBytes(valueFor(slot.group(1), fuzzed, value));
            from = slot.end();
        }
        target.writeBytes(endpoint.path().substring(from).getBytes(StandardCharsets.US_ASCII));
        char joiner = '?';
        for (String parameter : endpoint.query()) {
            byte[] parameterValue = parameter.equals(fuzzed) ? value
                    : PLAIN.containsKey(parameter) && !parameter.equals("id") && !parameter.equals("queue")
                            && !parameter.equals("group") && !parameter.equals("state")
                            ? PLAIN.get(parameter).getBytes(StandardCharsets.US_ASCII) : null;
            if (parameterValue != null) {
                target.write(joiner);
                target.writeBytes((parameter + "=").getBytes(StandardCharsets.US_ASCII));
                target.writeBytes(parameterValue);
                joiner = '&';
            }
        }
        return target.toByteArray();
    }

    private static byte[] valueFor(String slot, String fuzzed, byte[] value) {
        return slot.equals(fuzzed) ? value : PLAIN.get(slot).getBytes(StandardCharsets.US_ASCII);
    }

    private static List<String> slotsOf(String path) {
        List<String> slots = new ArrayList<>();
        Matcher slot = Pattern.compile("\\{(\\w+)}").matcher(path);
        while (slot.find()) {
            slots.add(slot.group(1));
        }
        return slots;
    }

    private static String printable(byte[] value) {
        String text = new String(value, StandardCharsets.ISO_8859_1);
        return (text.length() > 60 ? text.substring(0, 60) + "...(" + text.length() + ")" : text)
                .replaceAll("[^\\x20-\\x7e]", "?");
    }

    private static String manyIds(int count) {
        StringBuilder ids = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            ids.append(i == 0 ? "" : ",").append('"').append(UUID.randomUUID()).append('"');
        }
        return ids.append(']').toString();
    }
}

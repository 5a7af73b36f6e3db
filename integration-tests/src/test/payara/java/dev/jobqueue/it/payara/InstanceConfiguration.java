package dev.jobqueue.it.payara;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.stream.JsonParser;
import java.io.StringReader;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;

/**
 * What Payara Micro says it deployed, read from the {@code "Instance Configuration"} it writes to its console when
 * it is ready: {@code "Deployed": [{"Name": "app", "Context Root": "/app", "Mappings": {...}}]}, with the servlet
 * mappings that {@code --showservletmappings} adds.
 */
final class InstanceConfiguration {

    private static final String DEPLOYED = "\"Deployed\":";

    private final JsonArray deployed;

    private InstanceConfiguration(JsonArray deployed) {
        this.deployed = deployed;
    }

    /** The last instance configuration in {@code console}; none deployed if there is none. */
    static InstanceConfiguration in(String console) {
        int start = console.lastIndexOf(DEPLOYED);
        if (start < 0) {
            return new InstanceConfiguration(JsonArray.EMPTY_JSON_ARRAY);
        }
        try (JsonParser parser = Json.createParser(new StringReader(console.substring(start + DEPLOYED.length())))) {
            parser.next();
            return new InstanceConfiguration(parser.getArray());
        }
    }

    boolean deployed(String application) {
        return deployed.getValuesAs(JsonObject.class).stream()
                .anyMatch(app -> application.equals(app.getString("Name", null)));
    }

    /** Where the tests reach the applications' servlets: the Arquillian servlet among them, for in-server tests. */
    HTTPContext httpContext(int port) {
        HTTPContext context = new HTTPContext("localhost", port);
        for (JsonObject app : deployed.getValuesAs(JsonObject.class)) {
            String contextRoot = app.getString("Context Root");
            JsonObject mappings = app.getJsonObject("Mappings");
            if (mappings != null) {
                mappings.values().forEach(
                        name -> context.add(new Servlet(((JsonString) name).getString(), contextRoot)));
            }
        }
        return context;
    }
}

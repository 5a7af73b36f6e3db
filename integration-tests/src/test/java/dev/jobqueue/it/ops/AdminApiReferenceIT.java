package dev.jobqueue.it.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.it.Deployments;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin API's reference page, {@code docs/reference/admin-api.md}, lists exactly the operations the server's
 * own OpenAPI document describes: none missing from the page, none on the page that the server does not serve.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@Tag("any-database")
class AdminApiReferenceIT {

    static final Path PAGE = Path.of("..", "docs", "reference", "admin-api.md");
    private static final Pattern ENDPOINT_ROW = Pattern.compile("^\\| `(GET|POST|DELETE|PUT|PATCH) (/jobqueue/admin[^`?]*)`",
            Pattern.MULTILINE);

    @Deployment(testable = false)
    static WebArchive app() {
        return Deployments.war("ops-reference", "ops", OpsConsumers.class, OpsConsumers.OkConsumer.class);
    }

    @Test
    void the_reference_page_lists_every_operation_of_the_openapi_document_and_no_other() throws Exception {
        HttpResponse<String> document = Http.send("GET", "/openapi?format=JSON", null, null);
        assertEquals(200, document.statusCode(), document.body());

        assertEquals(served(document.body()), documented(Files.readString(PAGE)),
                "the operations of " + PAGE + " against the server's /openapi");
    }

    /** {@code GET /jobqueue/admin/jobs/{id}} for each operation under an admin path of the document. */
    static Set<String> served(String openApi) {
        Set<String> operations = new TreeSet<>();
        JsonObject paths = Json.createReader(new StringReader(openApi)).readObject().getJsonObject("paths");
        for (String path : paths.keySet()) {
            int admin = path.indexOf("/admin");
            if (admin < 0) {
                continue;
            }
            String normal = "/jobqueue" + path.substring(admin);
            for (String method : paths.getJsonObject(path).keySet()) {
                if (Set.of("get", "post", "delete", "put", "patch").contains(method)) {
                    operations.add(method.toUpperCase(Locale.ROOT) + " " + normal);
                }
            }
        }
        return operations;
    }

    /** The same for each row of the page's endpoint table. */
    static Set<String> documented(String page) {
        Set<String> operations = new TreeSet<>();
        Matcher row = ENDPOINT_ROW.matcher(page);
        while (row.find()) {
            operations.add(row.group(1) + " " + row.group(2));
        }
        return operations;
    }
}

package dev.jobqueue.it.recurring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.AdminHttp;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.recurring.changes.ReportsV1;
import dev.jobqueue.it.recurring.changes.ReportsV2;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a new version of an application does to the schedules the old one declared. Its configuration sets
 * {@code jobqueue.undeclared-schedule-grace} to two seconds.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ScheduleChangesIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "v1", managed = false, testable = false)
    static WebArchive v1() {
        return Deployments.war("schedules-v1", "schedule-changes", ReportsV1.class, AdminHttp.class);
    }

    @Deployment(name = "v2", managed = false, testable = false)
    static WebArchive v2() {
        return Deployments.war("schedules-v2", "schedule-changes", ReportsV2.class, AdminHttp.class);
    }

    private static Map<String, JsonObject> schedules(String app) throws Exception {
        return AdminHttp.json(AdminHttp.get(app, "/schedules?size=500")).asJsonObject().getJsonArray("schedules")
                .getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(schedule -> schedule.getString("name"), Function.identity()));
    }

    @Test
    void a_changed_schedule_fires_at_its_new_time_and_one_no_running_node_declares_is_turned_off() throws Exception {
        deployer.deploy("v1");
        try {
            Map<String, JsonObject> first = schedules("schedules-v1");
            assertEquals("0 3 * * *", first.get("versioned-report").getString("cron"));
            assertTrue(first.get("versioned-report").getString("nextFire").contains("T03:00:00+"), first.toString());
            assertTrue(first.get("versioned-cleanup").getBoolean("enabled"), first.toString());
        } finally {
            deployer.undeploy("v1");
        }
        deployer.deploy("v2");
        try {
            Map<String, JsonObject> next = schedules("schedules-v2");
            assertEquals("0 4 * * *", next.get("versioned-report").getString("cron"));
            assertTrue(next.get("versioned-report").getString("nextFire").contains("T04:00:00+"),
                    "the next fire time is recomputed: " + next);
            assertTrue(Await.until(() -> !schedules("schedules-v2").get("versioned-cleanup").getBoolean("enabled"), WAIT),
                    "turned off, not left firing, once no running node has declared it for the grace");
            JsonObject cleanup = schedules("schedules-v2").get("versioned-cleanup");
            assertTrue(cleanup.getBoolean("declarationGone"), "the listing says why: " + cleanup);

            assertEquals(204, AdminHttp.delete("schedules-v2", "/schedules/versioned-cleanup").statusCode());
            assertFalse(schedules("schedules-v2").containsKey("versioned-cleanup"), "an operator deleted it");
            assertEquals(404, AdminHttp.delete("schedules-v2", "/schedules/versioned-cleanup").statusCode());
        } finally {
            deployer.undeploy("v2");
        }
    }
}

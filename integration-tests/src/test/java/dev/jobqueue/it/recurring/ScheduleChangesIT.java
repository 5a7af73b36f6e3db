package dev.jobqueue.it.recurring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.it.AdminHttp;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.recurring.changes.ReportsV1;
import dev.jobqueue.it.recurring.changes.ReportsV2;
import jakarta.json.JsonObject;
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

/** What a new version of an application does to the schedules the old one declared. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ScheduleChangesIT {

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
        return AdminHttp.json(AdminHttp.get(app, "/schedules")).asJsonArray().getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(schedule -> schedule.getString("name"), Function.identity()));
    }

    @Test
    void a_changed_schedule_fires_at_its_new_time_and_one_removed_from_the_code_is_turned_off() throws Exception {
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
            assertFalse(next.get("versioned-cleanup").getBoolean("enabled"), "turned off, not left firing: " + next);

            assertEquals(204, AdminHttp.delete("schedules-v2", "/schedules/versioned-cleanup").statusCode());
            assertFalse(schedules("schedules-v2").containsKey("versioned-cleanup"), "an operator deleted it");
            assertEquals(404, AdminHttp.delete("schedules-v2", "/schedules/versioned-cleanup").statusCode());
        } finally {
            deployer.undeploy("v2");
        }
    }
}

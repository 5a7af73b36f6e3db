package dev.jobqueue.it.recurring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobAdmin;
import dev.jobqueue.JobSchedules;
import dev.jobqueue.Occurrence;
import dev.jobqueue.OccurrencesSkipped;
import dev.jobqueue.Schedule;
import dev.jobqueue.it.AdminHttp;
import dev.jobqueue.it.Await;
import dev.jobqueue.it.Deployments;
import dev.jobqueue.it.TestServer;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Recurring schedules on a real server and database: declared, overridden by configuration, and made in code. */
@ExtendWith(ArquillianExtension.class)
class RecurringIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static final String APP = "recurring";

    @Deployment
    static WebArchive app() {
        return Deployments.war(APP, "recurring", AdminHttp.class, RecurringConsumers.class, RecurringConsumers.TenantReport.class,
                Occurrences.class, ScheduleCounters.class)
                .addClasses(TestServer.isWildFly() ? new Class<?>[0] : new Class<?>[] {ApplicationMetrics.class});
    }

    @Inject
    Occurrences occurrences;

    @Inject
    JobSchedules schedules;

    @Inject
    JobAdmin admin;

    private List<ZonedDateTime> times(String schedule) {
        return occurrences.received().stream().filter(Occurrence.class::isInstance).map(Occurrence.class::cast)
                .filter(occurrence -> occurrence.schedule().equals(schedule)).map(Occurrence::scheduledFor).toList();
    }

    @Test
    void a_declared_schedule_puts_one_job_per_occurrence_with_the_occurrence_as_payload() throws Exception {
        assertTrue(Await.until(() -> times("every-second").size() >= 4, WAIT), () -> "received " + occurrences.received());
        List<ZonedDateTime> times = times("every-second");
        assertEquals(times.stream().distinct().count(), times.size(), "no occurrence twice: " + times);
        for (ZonedDateTime time : times) {
            assertEquals(0, time.getNano(), "a whole second: " + time);
            assertEquals("Europe/Berlin", time.getZone().getId(), "in the schedule's zone: " + time);
        }
        // The round is counted once its transaction has committed, so a consumer may see an occurrence first.
        if (ScheduleCounters.available()) {
            assertTrue(Await.until(() -> ScheduleCounters.count("every-second", "put").getAsLong() >= times.size(),
                    WAIT),
                    () -> "counted: " + ScheduleCounters.count("every-second", "put") + ", received: " + times.size());
        }
        // Occurrences may overlap, so they finish in any order. After the first, which may catch up on the time
        // the application was not deployed, every second up to the latest has its occurrence, once the ones
        // still running have finished.
        List<ZonedDateTime> sorted = times.stream().sorted().toList();
        List<ZonedDateTime> seconds = new ArrayList<>();
        for (ZonedDateTime second = sorted.get(1); !second.isAfter(sorted.get(sorted.size() - 1));
                second = second.plusSeconds(1)) {
            seconds.add(second);
        }
        assertTrue(Await.until(() -> times("every-second").containsAll(seconds), WAIT),
                () -> "none missing between " + seconds.get(0) + " and the latest: " + times("every-second"));
    }

    @Test
    void an_occurrence_due_while_the_previous_one_runs_is_skipped_reported_and_counted() throws Exception {
        schedules.save(Schedule.cron("slow-tick", "slow-report", "* * * * * *"));
        try {
            assertTrue(Await.until(() -> times("slow-tick").size() >= 2 && occurrences.skipped().stream()
                    .anyMatch(skip -> skip.schedule().equals("slow-tick")), WAIT), () -> "skipped " + occurrences.skipped());
        } finally {
            schedules.delete("slow-tick");
        }
        OccurrencesSkipped skip = occurrences.skipped().stream().filter(event -> event.schedule().equals("slow-tick"))
                .findFirst().orElseThrow();
        assertEquals(OccurrencesSkipped.Reason.OVERLAP, skip.reason());
        assertEquals("slow-report", skip.queue());
        assertEquals(1, occurrences.mostAtOnce(), "with overlap skip, one occurrence at a time, though the queue runs 4");
        if (ScheduleCounters.available()) {
            long overlapped = ScheduleCounters.count("slow-tick", "overlapped").orElseThrow();
            long put = ScheduleCounters.count("slow-tick", "put").orElseThrow();
            assertTrue(overlapped >= 1 && put >= 2, "overlapped " + overlapped + ", put " + put);
        }
    }

    @Test
    void the_schedules_are_listed_a_page_at_a_time_and_a_deleted_one_leaves_no_metric_series() throws Exception {
        schedules.save(Schedule.cron("pruned-tick", "tenant-report", "* * * * * *")
                .payload(new RecurringConsumers.TenantReport(-1)));
        assertTrue(Await.until(() -> occurrences.received().contains(new RecurringConsumers.TenantReport(-1)), WAIT),
                "pruned-tick fired");
        assertTrue(schedules.delete("pruned-tick"));
        Set<String> tenants = new TreeSet<>();
        for (int i = 0; i < 120; i++) {
            String name = String.format("paged-%03d", i);
            schedules.save(Schedule.cron(name, "tenant-report", "0 0 1 1 *").payload(new RecurringConsumers.TenantReport(i)));
            tenants.add(name);
        }
        try {
            Set<String> listed = new TreeSet<>();
            String after = "paged-";
            int pages = 0;
            while (after != null) {
                JsonObject page = AdminHttp.json(AdminHttp.get(APP, "/schedules?size=50&after=" + after)).asJsonObject();
                for (JsonObject schedule : page.getJsonArray("schedules").getValuesAs(JsonObject.class)) {
                    if (schedule.getString("name").startsWith("paged-")) {
                        assertTrue(listed.add(schedule.getString("name")), "listed once: " + schedule);
                    }
                }
                after = page.containsKey("next") ? page.getString("next") : null;
                pages++;
            }
            assertEquals(tenants, listed);
            assertTrue(pages >= 3, pages + " pages");

            if (ScheduleCounters.available()) {
                assertTrue(Await.until(() -> !ScheduleCounters.exists("pruned-tick", "put").orElseThrow(),
                        Duration.ofSeconds(90)), "the deleted schedule's series is removed within a minute");
            }
        } finally {
            tenants.forEach(schedules::delete);
        }
    }

    @Test
    void configuration_overrides_the_declared_cron_expression() throws Exception {
        assertTrue(Await.until(() -> times("overridden").size() >= 2, WAIT),
                () -> "the yearly schedule fires every second: " + occurrences.received());
    }

    @Test
    void an_operator_lists_triggers_pauses_and_resumes_a_schedule_through_the_admin_api() throws Exception {
        schedules.save(Schedule.cron("tenant-9", "tenant-report", "0 0 1 1 *").payload(new RecurringConsumers.TenantReport(9)));
        try {
            JsonArray listed = AdminHttp.json(AdminHttp.get(APP, "/schedules?size=500")).asJsonObject()
                    .getJsonArray("schedules");
            JsonObject tenant = listed.getValuesAs(JsonObject.class).stream()
                    .filter(schedule -> schedule.getString("name").equals("tenant-9")).findFirst().orElseThrow();
            assertEquals("0 0 1 1 *", tenant.getString("cron"));
            assertEquals((ZonedDateTime.now(ZoneOffset.UTC).getYear() + 1) + "-01-01T00:00:00Z[UTC]",
                    tenant.getString("nextFire"), tenant.toString());

            HttpResponse<String> triggered = AdminHttp.post(APP, "/schedules/tenant-9/trigger");
            assertEquals(200, triggered.statusCode(), triggered.body());
            String job = AdminHttp.json(triggered).asJsonObject().getString("job");
            assertTrue(Await.until(() -> occurrences.received().contains(new RecurringConsumers.TenantReport(9)), WAIT),
                    "the triggered job ran");
            assertEquals(job, admin.schedules().stream().filter(schedule -> schedule.name().equals("tenant-9"))
                    .findFirst().orElseThrow().lastJob().toString());

            assertEquals(204, AdminHttp.post(APP, "/schedules/every-second/pause").statusCode());
            assertTrue(admin.schedules().stream().filter(schedule -> schedule.name().equals("every-second"))
                    .findFirst().orElseThrow().paused());
            Thread.sleep(1_500);
            int whilePaused = times("every-second").size();
            Thread.sleep(2_500);
            assertEquals(whilePaused, times("every-second").size(), "a paused schedule puts nothing");

            assertEquals(204, AdminHttp.post(APP, "/schedules/every-second/resume").statusCode());
            assertTrue(Await.until(() -> times("every-second").size() > whilePaused, WAIT), "it fires again");
            assertEquals(404, AdminHttp.post(APP, "/schedules/no-such-schedule/trigger").statusCode());
        } finally {
            schedules.delete("tenant-9");
            admin.resumeSchedule("every-second");
        }
    }

    @Test
    void a_schedule_made_in_code_puts_its_payload_until_it_is_deleted() throws Exception {
        schedules.save(Schedule.cron("tenant-7", "tenant-report", "* * * * * *")
                .payload(new RecurringConsumers.TenantReport(7)));
        try {
            assertTrue(Await.until(() -> occurrences.received().contains(new RecurringConsumers.TenantReport(7)), WAIT),
                    () -> "received " + occurrences.received());
            assertEquals("tenant-report", schedules.find("tenant-7").orElseThrow().queue());
        } finally {
            assertTrue(schedules.delete("tenant-7"));
        }
        assertFalse(schedules.find("tenant-7").isPresent());
    }

    @Test
    void a_schedule_made_in_code_with_a_bad_expression_or_a_declared_name_is_refused_naming_it() {
        IllegalArgumentException badCron = assertThrows(IllegalArgumentException.class,
                () -> schedules.save(Schedule.cron("tenant-8", "tenant-report", "0 25 * * *")));
        assertTrue(badCron.getMessage().contains("schedule tenant-8: cron expression '0 25 * * *' cannot be read"),
                badCron.getMessage());
        IllegalArgumentException declared = assertThrows(IllegalArgumentException.class,
                () -> schedules.save(Schedule.cron("every-second", "every-second", "0 0 * * *")));
        assertTrue(declared.getMessage().contains("declared with @Recurring"), declared.getMessage());
        assertFalse(schedules.find("tenant-8").isPresent());
    }
}

package dev.jobqueue.internal.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.jobqueue.MissedOccurrences;
import dev.jobqueue.OverlapPolicy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleDefinitionTest {

    private static ScheduleDefinition report(String cron, String zone, SchedulePolicy policy, boolean enabled) {
        return new ScheduleDefinition("report", "reports", CronSchedule.parse(cron, zone), policy, null, true, enabled);
    }

    @Test
    void one_declaration_has_one_fingerprint_on_every_node() {
        ScheduleDefinition declared = report("0  3 * * *", "Europe/Berlin", SchedulePolicy.DEFAULT, true);
        assertEquals(declared.fingerprint(), report("0 3 * * *", "Europe/Berlin", SchedulePolicy.DEFAULT, true)
                .fingerprint(), "the expression is compared with single spaces");
        assertEquals(64, declared.fingerprint().length());
    }

    @Test
    void a_change_of_times_policy_or_switch_is_another_declaration() {
        SchedulePolicy all = new SchedulePolicy(MissedOccurrences.ALL, Duration.ofMinutes(1), 100, OverlapPolicy.SKIP);
        List<ScheduleDefinition> changed = List.of(report("0 4 * * *", "Europe/Berlin", SchedulePolicy.DEFAULT, true),
                report("0 3 * * *", "UTC", SchedulePolicy.DEFAULT, true),
                report("0 3 * * *", "Europe/Berlin", all, true),
                report("0 3 * * *", "Europe/Berlin", SchedulePolicy.DEFAULT, false));
        String original = report("0 3 * * *", "Europe/Berlin", SchedulePolicy.DEFAULT, true).fingerprint();
        for (ScheduleDefinition definition : changed) {
            assertNotEquals(original, definition.fingerprint(), definition.toString());
        }
    }
}

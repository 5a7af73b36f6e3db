package dev.jobqueue.internal.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jobqueue.Occurrence;
import dev.jobqueue.Recurring;
import dev.jobqueue.internal.config.ConfigKeys;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class DeclaredScheduleTest {

    @Recurring(cron = "0 2 * * *")
    void nightly(Occurrence occurrence) {
    }

    private static ScheduleDefinition resolve(Map<String, String> config) throws NoSuchMethodException {
        Recurring recurring = DeclaredScheduleTest.class.getDeclaredMethod("nightly", Occurrence.class)
                .getAnnotation(Recurring.class);
        return DeclaredSchedule.resolve(recurring, "nightly", "DeclaredScheduleTest#nightly",
                key -> Optional.ofNullable(config.get(key)));
    }

    @Test
    void enabled_takes_true_or_false_in_any_case_as_every_switch_does() throws Exception {
        assertFalse(resolve(Map.of("jobqueue.schedule.nightly.enabled", " FALSE ")).enabled());

        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> resolve(Map.of("jobqueue.schedule.nightly.enabled", "off")));

        assertEquals("JQ060: schedule nightly: configuration key jobqueue.schedule.nightly.enabled has the invalid"
                + " value 'off': expected true or false", error.getMessage());
    }

    @Test
    void a_declared_schedule_reads_exactly_the_schedule_options_of_config_keys() throws Exception {
        Set<String> asked = new TreeSet<>();
        Recurring recurring = DeclaredScheduleTest.class.getDeclaredMethod("nightly", Occurrence.class)
                .getAnnotation(Recurring.class);
        DeclaredSchedule.resolve(recurring, "nightly", "DeclaredScheduleTest#nightly", key -> {
            asked.add(key);
            return Optional.empty();
        });

        Set<String> expected = new TreeSet<>();
        ConfigKeys.SCHEDULE_OPTIONS.forEach(option -> expected.add(ConfigKeys.SCHEDULE_PREFIX + "nightly." + option));
        assertEquals(expected, asked);
    }
}

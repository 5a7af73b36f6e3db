package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeSettingsTest {

    @Test
    void unset_keys_take_their_defaults() {
        assertEquals(new NodeSettings.Values(Duration.ofSeconds(10), false, true, Optional.empty(), true, true, true,
                Duration.ofMinutes(10), 1_000),
                NodeSettings.parse(key -> Optional.empty()));
    }

    @Test
    void set_keys_are_read_and_switches_take_true_or_false_in_any_case() {
        Map<String, String> config = Map.of(NodeSettings.SHUTDOWN_GRACE, "30s", NodeSettings.SCHEMA_CREATE, "TRUE",
                NodeSettings.NOTIFY_ENABLED, "False", NodeSettings.ADMIN_ENABLED, " false ",
                NodeSettings.DASHBOARD_ENABLED, "false", NodeSettings.SHOW_PAYLOADS, "false",
                NodeSettings.UNDECLARED_SCHEDULE_GRACE, "2m", NodeSettings.LISTEN_DATASOURCE, " jdbc/listen ",
                NodeSettings.BULK_CHUNK_SIZE, " 3 ");
        assertEquals(new NodeSettings.Values(Duration.ofSeconds(30), true, false, Optional.of("jdbc/listen"), false,
                false, false,
                Duration.ofMinutes(2), 3),
                NodeSettings.parse(key -> Optional.ofNullable(config.get(key))));
    }

    @Test
    void a_bulk_chunk_size_that_is_not_a_whole_number_from_1_to_100000_is_refused() {
        for (String bad : List.of("0", "-5", "many", "100001", "2.5")) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> NodeSettings.parse(
                    key -> Optional.ofNullable(Map.of(NodeSettings.BULK_CHUNK_SIZE, bad).get(key))));
            assertEquals("JQ020: configuration key jobqueue.bulk-chunk-size has the invalid value '" + bad
                    + "': expected a whole number from 1 to 100000", error.getMessage());
        }
    }

    @Test
    void yes_on_and_1_are_refused_as_every_switch_refuses_them() {
        Map<String, String> config = Map.of(NodeSettings.SCHEMA_CREATE, "yes", NodeSettings.NOTIFY_ENABLED, "on",
                NodeSettings.ADMIN_ENABLED, "1");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> NodeSettings.parse(key -> Optional.ofNullable(config.get(key))));
        assertEquals(List.of(
                "JQ020: configuration key jobqueue.schema.create has the invalid value 'yes': expected true or false",
                "JQ020: configuration key jobqueue.notify.enabled has the invalid value 'on': expected true or false",
                "JQ020: configuration key jobqueue.admin.enabled has the invalid value '1': expected true or false"),
                error.getMessage().lines().toList());
    }

    @Test
    void a_blank_listen_datasource_is_refused_rather_than_taken_for_the_default() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> NodeSettings.parse(key -> Optional.ofNullable(Map.of(NodeSettings.LISTEN_DATASOURCE, " ").get(key))));
        assertEquals("JQ020: configuration key jobqueue.notify.listen-datasource has the invalid value '': expected a"
                + " JNDI name, or none", error.getMessage());
    }

    @Test
    void every_bad_value_is_named_on_a_line_of_its_own() {
        Map<String, String> config = Map.of(NodeSettings.SHUTDOWN_GRACE, "soon", NodeSettings.ADMIN_ENABLED, "ture");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> NodeSettings.parse(key -> Optional.ofNullable(config.get(key))));
        var lines = error.getMessage().lines().toList();
        assertEquals(2, lines.size(), error.getMessage());
        assertTrue(lines.get(0).startsWith("JQ020: configuration key jobqueue.shutdown-grace has the invalid value 'soon'"),
                lines.get(0));
        assertEquals("JQ020: configuration key jobqueue.admin.enabled has the invalid value 'ture': expected true"
                + " or false", lines.get(1));
    }

    @Test
    void an_undeclared_schedule_grace_under_a_second_is_refused() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> NodeSettings.parse(
                key -> Optional.ofNullable(Map.of(NodeSettings.UNDECLARED_SCHEDULE_GRACE, "500ms").get(key))));
        assertEquals("JQ020: configuration key jobqueue.undeclared-schedule-grace has the invalid value '500ms': use"
                + " at least 1s", error.getMessage());
    }

    @Test
    void a_node_name_that_does_not_fit_the_claimed_by_column_is_found_with_the_node_settings() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> NodeSettings.parse(
                key -> Optional.ofNullable(Map.of(NodeName.KEY, "n".repeat(201)).get(key))));
        assertTrue(error.getMessage().startsWith("JQ020: configuration key jobqueue.node-name has the invalid value"),
                error.getMessage());
        assertEquals(Optional.of("node-a"), NodeName.configured(key -> Optional.of(" node-a ")));
    }
}

package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeSettingsTest {

    @Test
    void unset_keys_take_their_defaults() {
        assertEquals(new NodeSettings.Values(Duration.ofSeconds(10), false, true, true, true, true),
                NodeSettings.parse(key -> Optional.empty()));
    }

    @Test
    void set_keys_are_read_as_microprofile_config_reads_booleans() {
        Map<String, String> config = Map.of(NodeSettings.SHUTDOWN_GRACE, "30s", NodeSettings.SCHEMA_CREATE, "YES",
                NodeSettings.NOTIFY_ENABLED, "off", NodeSettings.ADMIN_ENABLED, "0",
                NodeSettings.DASHBOARD_ENABLED, "n", NodeSettings.SHOW_PAYLOADS, "false");
        assertEquals(new NodeSettings.Values(Duration.ofSeconds(30), true, false, false, false, false),
                NodeSettings.parse(key -> Optional.ofNullable(config.get(key))));
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
}

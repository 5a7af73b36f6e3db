package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** ConfigKeys lists exactly the keys the code asks for, so the key check and the reference page can trust it. */
class ConfigKeysTest {

    /** A configuration with nothing set that notes every key asked for. */
    private static final class Recorder implements Function<String, Optional<String>> {
        final Set<String> asked = new TreeSet<>();

        @Override
        public Optional<String> apply(String key) {
            asked.add(key);
            return Optional.empty();
        }
    }

    private static Set<String> prefixed(String prefix, Set<String> options) {
        Set<String> keys = new TreeSet<>();
        options.forEach(option -> keys.add(prefix + option));
        return keys;
    }

    @Test
    void the_node_keys_are_the_keys_the_node_settings_read() {
        Recorder config = new Recorder();
        NodeSettings.parse(config);

        assertEquals(new TreeSet<>(ConfigKeys.NODE), config.asked);
    }

    @Test
    void the_queue_options_are_the_per_queue_keys_read_and_the_global_options_the_global_keys_read() {
        Recorder config = new Recorder();
        QueueOptionsResolver resolver = new QueueOptionsResolver(config, getClass().getClassLoader());
        resolver.resolve("email");
        resolver.producerOnly("email");
        resolver.unconsumedPayloadLimit();

        Set<String> expected = prefixed(ConfigKeys.QUEUE_PREFIX + "email.", ConfigKeys.QUEUE_OPTIONS);
        expected.addAll(prefixed(ConfigKeys.PREFIX, ConfigKeys.GLOBAL_OPTIONS));
        assertEquals(expected, config.asked);
    }
}

package dev.jobqueue.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jobqueue.internal.dispatch.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The tracing page lists every value a consumer span's {@code jobqueue.job.outcome} can take, and no other. */
class TracingReferenceTest {

    private static final Pattern OUTCOME_ROW = Pattern.compile("(?m)^.*`jobqueue\\.job\\.outcome`.*$");
    private static final Pattern VALUE = Pattern.compile("`([a-z_]+)`");

    @Test
    void the_outcome_attribute_lists_every_outcome_of_a_call() throws IOException {
        Matcher row = OUTCOME_ROW.matcher(Files.readString(Path.of("../docs/tracing.md")));
        row.find();
        Set<String> documented = new TreeSet<>();
        Matcher value = VALUE.matcher(row.group().substring(row.group().indexOf("how the call ended")));
        while (value.find()) {
            documented.add(value.group(1));
        }
        // A batch call or a transaction of several jobs that fails ends its span as SPLIT (BatchCall).
        Set<String> outcomes = Stream.concat(Arrays.stream(Outcome.values()).map(Enum::name), Stream.of("SPLIT"))
                .map(name -> name.toLowerCase(Locale.ROOT)).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(outcomes, documented);
    }
}

package dev.jobqueue.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.jobqueue.internal.config.ConfigKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference, {@code docs/reference/configuration.md}, names exactly the keys the code reads
 * ({@link ConfigKeys}) and the server variables of the shipped Liberty files, each in the table of its scope.
 * Surefire runs in the extension module's directory, so the page and the Liberty files are one level up.
 */
class ConfigurationReferenceTest {

    private static final Path PAGE = Path.of("../docs/reference/configuration.md");
    private static final Path LIBERTY_FILES = Path.of("../liberty-config/src/main/liberty/jobqueue");
    private static final Path WILDFLY_FILES = Path.of("../wildfly-config/src/main/wildfly/jobqueue");
    private static final Path PAYARA_FILES = Path.of("../payara-config/src/main/payara/jobqueue");
    private static final String NODE_TABLE = "Keys for the whole node";
    private static final String QUEUE_TABLE = "Queue options";
    private static final String SCHEDULE_TABLE = "Schedule options";
    private static final String SERVER_VARIABLE_TABLE = "Server variables of the shipped Liberty files";
    private static final String WILDFLY_TABLE = "System properties of the shipped WildFly files";
    private static final String PAYARA_TABLE = "System properties of the shipped Payara files";
    private static final String QUEUE_KEY = ConfigKeys.QUEUE_PREFIX + "<queue>.";
    private static final String SCHEDULE_KEY = ConfigKeys.SCHEDULE_PREFIX + "<name>.";
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern VARIABLE = Pattern.compile("(?:name=\"|\\$\\{)(jobqueue\\.[a-z0-9.-]+)");

    /** A table row: its cells, the first one being the key. */
    private record Row(List<String> cells) {
        String key() {
            return code(cells.get(0));
        }
    }

    @Test
    void the_node_table_names_exactly_the_node_keys() throws IOException {
        assertSameKeys(NODE_TABLE, ConfigKeys.NODE, keys(table(NODE_TABLE), ""));
    }

    @Test
    void the_queue_table_names_exactly_the_queue_options_and_which_have_a_global_key() throws IOException {
        List<Row> rows = table(QUEUE_TABLE);
        assertSameKeys(QUEUE_TABLE, ConfigKeys.QUEUE_OPTIONS, keys(rows, QUEUE_KEY));

        Set<String> documentedGlobal = new TreeSet<>();
        for (Row row : rows) {
            String option = row.key().substring(QUEUE_KEY.length());
            if (row.cells().get(4).contains("`" + ConfigKeys.PREFIX + option + "`")) {
                documentedGlobal.add(option);
            }
        }
        assertEquals(new TreeSet<>(ConfigKeys.GLOBAL_OPTIONS), documentedGlobal,
                PAGE + ": the options whose 'also set by' names the global key jobqueue.<option>");
    }

    @Test
    void the_schedule_table_names_exactly_the_schedule_options() throws IOException {
        assertSameKeys(SCHEDULE_TABLE, ConfigKeys.SCHEDULE_OPTIONS, keys(table(SCHEDULE_TABLE), SCHEDULE_KEY));
    }

    @Test
    void the_server_variable_table_names_exactly_the_variables_of_the_shipped_liberty_files() throws IOException {
        assertSameKeys(SERVER_VARIABLE_TABLE, variablesOf(LIBERTY_FILES, ".xml"),
                keys(table(SERVER_VARIABLE_TABLE), ""));
    }

    @Test
    void the_wildfly_and_payara_tables_name_exactly_the_properties_of_their_shipped_files() throws IOException {
        assertSameKeys(WILDFLY_TABLE, variablesOf(WILDFLY_FILES, ".cli"), keys(table(WILDFLY_TABLE), ""));
        assertSameKeys(PAYARA_TABLE, variablesOf(PAYARA_FILES, ".asadmin"), keys(table(PAYARA_TABLE), ""));
    }

    /** The {@code jobqueue.*} variables the files ending in {@code suffix} read, MicroProfile Config keys left out. */
    private static Set<String> variablesOf(Path folder, String suffix) throws IOException {
        Set<String> variables = new TreeSet<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(path -> path.toString().endsWith(suffix)).toList()) {
                Matcher found = VARIABLE.matcher(Files.readString(file));
                while (found.find()) {
                    variables.add(found.group(1));
                }
            }
        }
        variables.removeAll(ConfigKeys.NODE);
        return variables;
    }

    @Test
    void every_environment_variable_is_the_key_in_upper_case_with_non_alphanumerics_as_underscores()
            throws IOException {
        for (String heading : List.of(NODE_TABLE, QUEUE_TABLE, SCHEDULE_TABLE, SERVER_VARIABLE_TABLE)) {
            for (Row row : table(heading)) {
                Matcher written = CODE.matcher(row.cells().get(1));
                if (written.find()) {
                    String expected = row.key().toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9<>]", "_");
                    assertEquals(expected, written.group(1), PAGE + ": the environment variable of " + row.key());
                }
            }
        }
    }

    /** The documented keys of a table, without {@code prefix}; a key without it is kept whole, and so is extra. */
    private static Set<String> keys(List<Row> rows, String prefix) {
        Set<String> keys = new TreeSet<>();
        for (Row row : rows) {
            String key = row.key();
            keys.add(key.startsWith(prefix) ? key.substring(prefix.length()) : key);
        }
        return keys;
    }

    private static void assertSameKeys(String heading, Set<String> read, Set<String> documented) {
        Set<String> missing = new TreeSet<>(read);
        missing.removeAll(documented);
        Set<String> extra = new TreeSet<>(documented);
        extra.removeAll(read);
        if (!missing.isEmpty() || !extra.isEmpty()) {
            fail(PAGE + ", table '" + heading + "': read but not documented " + missing
                    + "; documented but never read " + extra);
        }
    }

    /** The rows of the table in the section under {@code ## heading}, header and separator left out. */
    private static List<Row> table(String heading) throws IOException {
        List<Row> rows = sections().get(heading);
        assertTrue(rows != null && !rows.isEmpty(), PAGE + " has no table under '## " + heading + "'");
        return rows;
    }

    private static Map<String, List<Row>> sections() throws IOException {
        Map<String, List<Row>> sections = new LinkedHashMap<>();
        List<Row> current = new ArrayList<>();
        for (String line : Files.readAllLines(PAGE)) {
            if (line.startsWith("## ")) {
                current = new ArrayList<>();
                sections.put(line.substring(3).strip(), current);
            } else if (line.startsWith("|") && !line.startsWith("|---")) {
                current.add(new Row(cells(line)));
            }
        }
        // The first row of each table is its header.
        sections.values().removeIf(List::isEmpty);
        sections.values().forEach(rows -> rows.remove(0));
        return sections;
    }

    private static List<String> cells(String line) {
        String inner = line.strip().substring(1, line.strip().length() - 1);
        return Stream.of(inner.split("\\|", -1)).map(String::strip).toList();
    }

    private static String code(String cell) {
        Matcher matcher = CODE.matcher(cell);
        return matcher.find() ? matcher.group(1) : cell;
    }
}

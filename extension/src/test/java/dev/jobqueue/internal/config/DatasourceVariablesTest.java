package dev.jobqueue.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DatasourceVariablesTest {

    private static final Optional<String> POSTGRESQL = Optional.of("datasource-postgresql.xml");

    @Test
    void a_missing_user_or_password_is_named_with_where_to_set_it() {
        List<String> problems = DatasourceVariables.problems(POSTGRESQL, Map.of("jobqueue.db.user", "jq")::containsKey);

        assertEquals(1, problems.size(), problems.toString());
        String problem = problems.get(0);
        assertTrue(problem.startsWith("JQ086: datasource-postgresql.xml needs the server variable"
                + " jobqueue.db.password, which is not set"), problem);
        assertTrue(problem.contains("bootstrap.properties") && problem.contains("JOBQUEUE_DB_PASSWORD"), problem);
    }

    @Test
    void both_missing_are_both_reported() {
        assertEquals(2, DatasourceVariables.problems(POSTGRESQL, variable -> false).size());
    }

    @Test
    void an_empty_password_that_was_set_explicitly_is_accepted() {
        Map<String, String> variables = Map.of("jobqueue.db.user", "root", "jobqueue.db.password", "");

        assertEquals(List.of(), DatasourceVariables.problems(Optional.of("datasource-mariadb.xml"),
                variables::containsKey));
    }

    @Test
    void without_a_shipped_datasource_nothing_is_required() {
        assertEquals(List.of(), DatasourceVariables.problems(Optional.empty(), variable -> false));
    }
}

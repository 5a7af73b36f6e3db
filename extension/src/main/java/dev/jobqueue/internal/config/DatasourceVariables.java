package dev.jobqueue.internal.config;

import dev.jobqueue.internal.Messages;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Checks that the server variables the shipped PostgreSQL and MariaDB datasources require are set. Those files
 * give the user and password no default (they used to fall back to a superuser with an empty password), and
 * Liberty passes an unset variable on as the text {@code ${...}}: a server that trusts local connections then
 * accepts it as a password. Each file declares {@value #MARKER}, naming itself, so that the check runs only when
 * one of them is in use. A variable set to the empty string counts as set: it is how an empty password is given.
 */
public final class DatasourceVariables {

    /** Declared by the shipped datasource files that need the credentials; its value is the file's name. */
    public static final String MARKER = "jobqueue.db.datasource";
    static final List<String> REQUIRED = List.of("jobqueue.db.user", "jobqueue.db.password");

    private DatasourceVariables() {
    }

    /**
     * Returns one message per required variable that is not set.
     *
     * @param datasourceFile the value of {@value #MARKER}, if a shipped datasource file declares it
     * @param isSet          whether a server variable is set, to any value including the empty string
     */
    public static List<String> problems(Optional<String> datasourceFile, Predicate<String> isSet) {
        if (datasourceFile.isEmpty()) {
            return List.of();
        }
        return REQUIRED.stream().filter(isSet.negate())
                .map(variable -> Messages.missingDatasourceVariable(datasourceFile.get(), variable)).toList();
    }
}

package dev.jobqueue.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatabaseTest {

    @Test
    void the_database_is_known_by_the_product_name_its_driver_reports() {
        assertEquals(Database.POSTGRESQL, Database.of("PostgreSQL"));
        assertEquals(Database.MARIADB, Database.of("MariaDB"));
        assertEquals(Database.H2, Database.of("H2"));
    }

    @Test
    void mysql_and_other_databases_are_refused_naming_the_supported_ones() {
        for (String product : new String[] {"MySQL", "Apache Derby"}) {
            IllegalStateException error = assertThrows(IllegalStateException.class, () -> Database.of(product));
            assertTrue(error.getMessage().startsWith("JQ032: jobqueue does not support the database " + product
                    + "; it supports PostgreSQL, MariaDB and H2"), error.getMessage());
        }
    }
}

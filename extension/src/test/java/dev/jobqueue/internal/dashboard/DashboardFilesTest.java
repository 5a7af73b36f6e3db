package dev.jobqueue.internal.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class DashboardFilesTest {

    private static final Path FOLDER = Path.of("src/main/resources/dev/jobqueue/dashboard");

    @Test
    void every_file_of_the_dashboard_folder_is_served_with_its_type() throws IOException {
        DashboardFiles files = new DashboardFiles();
        try (Stream<Path> shipped = Files.list(FOLDER)) {
            for (String name : shipped.map(path -> path.getFileName().toString()).toList()) {
                DashboardFiles.File file = files.find(name).orElseThrow(() -> new AssertionError(name + " not served"));
                assertTrue(file.content().length > 0 && file.contentType() != null, name);
            }
        }
    }

    @Test
    void names_that_are_not_shipped_are_refused_and_never_remembered() throws IOException {
        DashboardFiles files = new DashboardFiles();
        Set<String> shipped;
        try (Stream<Path> listing = Files.list(FOLDER)) {
            shipped = listing.map(path -> path.getFileName().toString()).collect(Collectors.toSet());
        }
        for (int i = 0; i < 10_000; i++) {
            assertTrue(files.find("a" + i + ".js").isEmpty());
        }
        assertTrue(files.find("../META-INF/beans.xml").isEmpty());
        assertEquals(shipped, files.names(), "the files held in memory are the shipped ones, whatever was asked");
    }
}

package dev.jobqueue.bench;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/** Serves the benchmark driver at /bench. */
@ApplicationPath("bench")
public class BenchApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(BenchResource.class);
    }
}

package dev.jobqueue.it.tracing;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/** Serves {@link TracingProbe} only. */
@ApplicationPath("test")
public class TracingProbeApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(TracingProbe.class);
    }
}

package dev.jobqueue.it.ops;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/** Serves {@link OpsProbe} only. */
@ApplicationPath("test")
public class OpsProbeApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(OpsProbe.class);
    }
}

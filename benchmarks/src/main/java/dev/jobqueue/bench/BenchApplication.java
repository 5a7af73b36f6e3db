package dev.jobqueue.bench;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.HashSet;
import java.util.Set;

/** Serves the benchmark driver at /bench. */
@ApplicationPath("bench")
public class BenchApplication extends Application {

    /** The JMS row's resource: in Liberty's build only (the WildFly build leaves its package out of the war). */
    private static final String JMS_DRAIN = "dev.jobqueue.bench.jms.JmsDrain";

    @Override
    public Set<Class<?>> getClasses() {
        Set<Class<?>> classes = new HashSet<>(Set.of(BenchResource.class));
        try {
            classes.add(Class.forName(JMS_DRAIN));
        } catch (ClassNotFoundException onWildFly) {
            // no JMS row on this server
        }
        return classes;
    }
}

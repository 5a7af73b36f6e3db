package dev.jobqueue.bench.jms;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Set;

/** Serves the JMS row's drain at /bench-jms, on Liberty only: the WildFly build leaves this package out. */
@ApplicationPath("bench-jms")
public class JmsApplication extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(JmsDrain.class);
    }
}

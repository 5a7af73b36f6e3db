package dev.jobqueue.demo;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.util.logging.Logger;

/** Prints how to try the demo once it is up. */
@ApplicationScoped
public class DemoBanner {

    private static final Logger LOG = Logger.getLogger(DemoBanner.class.getName());

    void started(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        LOG.info("jobqueue demo is up at http://localhost:9080/orders. Try: curl -X POST -H 'Content-Type: "
                + "application/json' -d '{\"customer\":\"ada\",\"item\":\"tea\"}' http://localhost:9080/orders");
    }
}

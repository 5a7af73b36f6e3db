package ${package};

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.servlet.ServletContext;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Says, once the application has started, where its API and jobqueue's dashboard are. */
@ApplicationScoped
public class StartupLog {

    private static final Logger LOG = Logger.getLogger(StartupLog.class.getName());

    /** The HTTP port, from server.xml. */
    @Inject
    @ConfigProperty(name = "app.http.port", defaultValue = "9080")
    String port;

    /** The development login, from server.xml; absent once its development users are gone. */
    @Inject
    @ConfigProperty(name = "app.dev.login")
    Optional<String> devLogin;

    void started(@Observes @Initialized(ApplicationScoped.class) ServletContext context) {
        String url = "http://localhost:" + port + context.getContextPath();
        LOG.info(() -> "Orders at " + url + "/api/orders, jobqueue's dashboard at " + url + "/jobqueue/"
                + devLogin.map(login -> " (development login " + login + ")").orElse(""));
    }
}

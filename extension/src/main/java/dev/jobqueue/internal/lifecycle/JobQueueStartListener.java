package dev.jobqueue.internal.lifecycle;

import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/**
 * Tells {@link JobQueueRuntime} that the servlet context is initialized, for the servers where jobqueue cannot start
 * with CDI (Payara, for an application without EJB). Everywhere else jobqueue has started by then, and this does
 * nothing. The runtime is looked up, not injected: Payara injects a listener of a library jar from a bean archive
 * that does not see the jar's beans.
 */
@WebListener
public class JobQueueStartListener implements ServletContextListener {

    @Override
    public void contextInitialized(ServletContextEvent event) {
        CDI.current().select(JobQueueRuntime.class).get().servletContextInitialized();
    }
}

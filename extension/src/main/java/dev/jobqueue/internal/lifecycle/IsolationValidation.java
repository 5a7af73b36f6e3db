package dev.jobqueue.internal.lifecycle;

import dev.jobqueue.internal.store.IsolationCheck;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;

/**
 * Fails the deployment when jobqueue's datasource does not run transactions at READ COMMITTED (JQ035). It is a
 * CDI deployment problem, like a bad consumer or a bad configuration value, so the server reports the
 * application as failed at once, before any queue starts: a failure when the application context starts
 * (as the schema check's) leaves the application merely "not started".
 */
public class IsolationValidation implements Extension {

    void validate(@Observes AfterDeploymentValidation event, BeanManager beans) {
        try {
            beans.createInstance().select(IsolationCheck.class).get().verify();
        } catch (IllegalStateException e) {
            event.addDeploymentProblem(new DeploymentException(e.getMessage(), e));
        }
    }
}

package dev.jobqueue.internal.lifecycle;

import dev.jobqueue.internal.store.IsolationCheck;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessManagedBean;

/**
 * Fails the deployment when jobqueue's datasource does not run transactions at READ COMMITTED (JQ035). It is a
 * CDI deployment problem, like a bad consumer or a bad configuration value, so the server reports the
 * application as failed at once, before any queue starts: a failure when the application context starts
 * (as the schema check's) leaves the application merely "not started".
 *
 * <p>The check's bean is kept when it is discovered and referenced through that bean, not looked up by type:
 * Payara gives an extension a bean manager of its own archive, which does not see the extension jar's beans.
 * Payara also cannot give an application without an EJB its {@code java:comp} resources while CDI validates the
 * deployment: when the datasource cannot be had yet, the check is {@link #deferred()}, and {@code JobQueueRuntime}
 * runs it when the application starts, which fails the deployment there.
 */
public class IsolationValidation implements Extension {

    private volatile Bean<IsolationCheck> check;
    private volatile boolean deferred;

    void found(@Observes ProcessManagedBean<IsolationCheck> event) {
        check = event.getBean();
    }

    void validate(@Observes AfterDeploymentValidation event, BeanManager beans) {
        Bean<IsolationCheck> bean = check;
        if (bean == null) {
            return;
        }
        IsolationCheck isolation = (IsolationCheck) beans.getReference(bean, IsolationCheck.class,
                beans.createCreationalContext(bean));
        try {
            isolation.prepare();
        } catch (RuntimeException datasourceNotYetThere) {
            deferred = true;
            return;
        }
        try {
            isolation.verify();
        } catch (IllegalStateException e) {
            event.addDeploymentProblem(new DeploymentException(e.getMessage(), e));
        }
    }

    /** Whether the check could not run while the deployment was validated, and must run at start-up. */
    public boolean deferred() {
        return deferred;
    }
}

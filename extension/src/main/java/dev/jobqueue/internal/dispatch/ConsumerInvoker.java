package dev.jobqueue.internal.dispatch;

import dev.jobqueue.JobContext;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.spi.CreationalContext;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import java.lang.reflect.InvocationTargetException;
import java.util.List;

/** Calls a consumer method on its bean's contextual reference, so interceptors and EJB services apply. */
@ApplicationScoped
class ConsumerInvoker {

    @Inject
    BeanManager beanManager;

    /**
     * Calls the consumer with the payloads of one job, or of several for a batch consumer, and their contexts in
     * the same order; what it throws is thrown as it is, not wrapped.
     */
    void invoke(ConsumerMethod consumer, List<Object> payloads, List<JobContext> contexts) throws Exception {
        CreationalContext<?> creationalContext = beanManager.createCreationalContext(consumer.bean());
        try {
            Object reference = beanManager.getReference(consumer.bean(), consumer.referenceType(), creationalContext);
            Object payload = consumer.batch() ? payloads : payloads.get(0);
            Object context = consumer.batch() ? contexts : contexts.get(0);
            Object[] args = consumer.takesContext() ? new Object[] {payload, context} : new Object[] {payload};
            consumer.invocable().invoke(reference, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            throw (Error) cause;
        } finally {
            if (consumer.bean().getScope() == Dependent.class) {
                creationalContext.release();
            }
        }
    }
}

package dev.jobqueue.internal.consumer;

import dev.jobqueue.Consumer;
import dev.jobqueue.internal.Messages;
import jakarta.enterprise.inject.spi.Bean;
import java.lang.reflect.Method;
import java.lang.reflect.Type;

/**
 * A validated {@code @Consumer} method.
 *
 * @param queue         the queue it consumes
 * @param annotation    the annotation, for the options set on it
 * @param bean          the CDI bean that declares it
 * @param method        the annotated method
 * @param referenceType the bean type to obtain the reference by: the bean class, or for a session bean
 *                      without a no-interface view, the business interface that declares the method
 * @param invocable     the method to call on that reference
 * @param payloadType   the type JSON-B reads a payload as: the first parameter's, or its list's elements'
 * @param takesContext  whether a second parameter, the {@code JobContext} or their list, is declared
 * @param batch         whether it takes lists: a batch consumer, called with several jobs at once
 */
public record ConsumerMethod(String queue, Consumer annotation, Bean<?> bean, Method method, Type referenceType,
        Method invocable, Type payloadType, boolean takesContext, boolean batch) {

    /** The method as users wrote it, for messages. */
    public String describe() {
        return Messages.describe(method);
    }
}

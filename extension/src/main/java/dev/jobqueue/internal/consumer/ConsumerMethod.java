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
 * @param payloadType   the declared type of the first parameter, the target of JSON-B
 * @param takesContext  whether a second {@code JobContext} parameter is declared
 */
public record ConsumerMethod(String queue, Consumer annotation, Bean<?> bean, Method method, Type referenceType,
        Method invocable, Type payloadType, boolean takesContext) {

    /** The method as users wrote it, for messages. */
    public String describe() {
        return Messages.describe(method);
    }
}

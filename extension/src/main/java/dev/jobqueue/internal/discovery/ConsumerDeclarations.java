package dev.jobqueue.internal.discovery;

import dev.jobqueue.Consumer;
import dev.jobqueue.Occurrence;
import dev.jobqueue.Recurring;
import dev.jobqueue.internal.Messages;
import dev.jobqueue.internal.QueueNames;
import dev.jobqueue.internal.consumer.ConsumerMethod;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.DefinitionException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code @Consumer} methods one managed bean declares: the valid ones, and a definition error for each
 * invalid one (a bad signature or queue name, or {@code @Recurring} where it cannot apply).
 */
record ConsumerDeclarations(List<ConsumerMethod> consumers, List<DefinitionException> errors) {

    static <T> ConsumerDeclarations of(Bean<?> bean, AnnotatedType<T> type) {
        List<ConsumerMethod> consumers = new ArrayList<>();
        List<DefinitionException> errors = new ArrayList<>();
        for (AnnotatedMethod<? super T> annotated : type.getMethods()) {
            Consumer annotation = annotated.getAnnotation(Consumer.class);
            if (annotation == null) {
                if (annotated.isAnnotationPresent(Recurring.class)) {
                    errors.add(new DefinitionException(Messages.invalidSignature(
                            annotated.getJavaMember(), "@Recurring needs @Consumer on the same method")));
                }
                continue;
            }
            Method method = annotated.getJavaMember();
            if (!QueueNames.isValid(annotation.queue())) {
                errors.add(new DefinitionException(Messages.invalidQueueName(annotation.queue(), method)));
                continue;
            }
            Optional<String> problem = ConsumerSignature.problemWith(method, annotation.jobsPerCall() != 0);
            if (problem.isPresent()) {
                errors.add(new DefinitionException(Messages.invalidSignature(method, problem.get())));
                continue;
            }
            Optional<Class<?>> referenceType = referenceType(bean, method);
            if (referenceType.isEmpty()) {
                errors.add(new DefinitionException(Messages.invalidSignature(method,
                        "it is not a business method of the bean's types " + bean.getTypes())));
                continue;
            }
            if (annotated.isAnnotationPresent(Recurring.class) && method.getGenericParameterTypes()[0] != Occurrence.class) {
                errors.add(new DefinitionException(Messages.invalidSignature(method,
                        "a @Recurring consumer takes an " + Occurrence.class.getName() + " as its payload")));
                continue;
            }
            consumers.add(consumerMethod(annotation, bean, method, referenceType.get()));
        }
        return new ConsumerDeclarations(consumers, errors);
    }

    private static Optional<Class<?>> referenceType(Bean<?> bean, Method method) {
        if (bean.getTypes().contains(bean.getBeanClass())) {
            return Optional.<Class<?>>of(bean.getBeanClass());
        }
        return bean.getTypes().stream()
                .filter(type -> type instanceof Class<?> c && c.isInterface() && declares(c, method))
                .<Class<?>>map(type -> (Class<?>) type).findFirst();
    }

    private static boolean declares(Class<?> type, Method method) {
        try {
            type.getMethod(method.getName(), method.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static ConsumerMethod consumerMethod(Consumer annotation, Bean<?> bean, Method method,
            Class<?> referenceType) {
        Method invocable;
        try {
            invocable = referenceType.getMethod(method.getName(), method.getParameterTypes());
        } catch (NoSuchMethodException e) {
            invocable = method;
        }
        invocable.setAccessible(true);
        boolean batch = annotation.jobsPerCall() != 0;
        return new ConsumerMethod(annotation.queue(), annotation, bean, method, referenceType, invocable,
                ConsumerSignature.payloadType(method, batch), method.getParameterCount() == 2, batch);
    }
}

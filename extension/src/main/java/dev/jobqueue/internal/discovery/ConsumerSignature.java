package dev.jobqueue.internal.discovery;

import dev.jobqueue.JobContext;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.Optional;

/** Checks that a {@code @Consumer} method can be called with a payload and an optional {@link JobContext}. */
final class ConsumerSignature {

    private ConsumerSignature() {
    }

    /** Returns the problem with the method's signature, or empty if it is valid. */
    static Optional<String> problemWith(Method method) {
        int modifiers = method.getModifiers();
        if (!Modifier.isPublic(modifiers)) {
            return Optional.of("it must be public");
        }
        if (Modifier.isStatic(modifiers)) {
            return Optional.of("it must not be static");
        }
        if (method.getReturnType() != void.class) {
            return Optional.of("it must return void, not " + method.getReturnType().getSimpleName());
        }
        Class<?>[] params = method.getParameterTypes();
        if (params.length == 0 || params.length > 2) {
            return Optional.of("it must take the payload and optionally a JobContext, but it takes "
                    + params.length + " parameters");
        }
        if (params[0] == JobContext.class) {
            return Optional.of("the first parameter must be the payload, not the JobContext");
        }
        Type payload = method.getGenericParameterTypes()[0];
        if (payload instanceof TypeVariable<?>) {
            return Optional.of("the payload type must be concrete, not the type variable " + payload.getTypeName());
        }
        if (params[0].isPrimitive()) {
            return Optional.of("the payload type must not be the primitive " + params[0].getName());
        }
        if (params.length == 2 && params[1] != JobContext.class) {
            return Optional.of("the second parameter must be dev.jobqueue.JobContext, not " + params[1].getName());
        }
        return Optional.empty();
    }
}

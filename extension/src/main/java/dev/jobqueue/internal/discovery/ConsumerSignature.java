package dev.jobqueue.internal.discovery;

import dev.jobqueue.JobContext;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.List;
import java.util.Optional;

/**
 * Checks that a {@code @Consumer} method can be called with a payload and an optional {@link JobContext}, or, for
 * a batch consumer, with a {@code List} of payloads and an optional {@code List<JobContext>}.
 */
final class ConsumerSignature {

    private ConsumerSignature() {
    }

    /** Returns the problem with the method's signature, or empty if it is valid. */
    static Optional<String> problemWith(Method method, boolean batch) {
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
        return batch ? batchProblem(method, params) : singleProblem(method, params);
    }

    /** The type JSON-B reads each payload as: the first parameter's, or for a batch consumer its list's elements'. */
    static Type payloadType(Method method, boolean batch) {
        Type first = method.getGenericParameterTypes()[0];
        return batch ? ((ParameterizedType) first).getActualTypeArguments()[0] : first;
    }

    private static Optional<String> singleProblem(Method method, Class<?>[] params) {
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

    private static Optional<String> batchProblem(Method method, Class<?>[] params) {
        if (params.length == 0 || params.length > 2) {
            return Optional.of("as a batch consumer (jobsPerCall is set) it must take a List of payloads and"
                    + " optionally a List<JobContext>, but it takes " + params.length + " parameters");
        }
        Type[] types = method.getGenericParameterTypes();
        Optional<Type> payload = listElement(types[0]);
        if (payload.isEmpty()) {
            return Optional.of("as a batch consumer (jobsPerCall is set) its first parameter must be a"
                    + " java.util.List of the payload type, not " + types[0].getTypeName());
        }
        Type element = payload.get();
        if (element instanceof TypeVariable<?> || element instanceof WildcardType) {
            return Optional.of("the payload type must be concrete, not " + element.getTypeName());
        }
        if (element == JobContext.class) {
            return Optional.of("the first parameter must be the List of payloads, not of JobContext");
        }
        if (params.length == 2 && !listElement(types[1]).filter(type -> type == JobContext.class).isPresent()) {
            return Optional.of("the second parameter of a batch consumer must be java.util.List<dev.jobqueue.JobContext>,"
                    + " not " + types[1].getTypeName());
        }
        return Optional.empty();
    }

    /** The element type of {@code List<E>}, if the type is exactly that. */
    private static Optional<Type> listElement(Type type) {
        if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == List.class) {
            return Optional.of(parameterized.getActualTypeArguments()[0]);
        }
        return Optional.empty();
    }
}

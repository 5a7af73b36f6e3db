package dev.jobqueue.internal.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobContext;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsumerSignatureTest {

    @SuppressWarnings("unused")
    public static class Samples {
        public void payloadOnly(String payload) {
        }

        public void payloadAndContext(List<String> payload, JobContext context) {
        }

        public String returnsSomething(String payload) {
            return payload;
        }

        public void noParameters() {
        }

        public void contextFirst(JobContext context, String payload) {
        }

        public void secondNotContext(String payload, int other) {
        }

        public <T> void typeVariable(T payload) {
        }

        public void primitive(int payload) {
        }

        void packagePrivate(String payload) {
        }

        public static void isStatic(String payload) {
        }
    }

    private static Optional<String> problemWith(String name) {
        for (Method method : Samples.class.getDeclaredMethods()) {
            if (method.getName().equals(name)) {
                return ConsumerSignature.problemWith(method);
            }
        }
        throw new IllegalArgumentException(name);
    }

    @Test
    void a_payload_alone_or_with_a_job_context_is_valid() {
        assertEquals(Optional.empty(), problemWith("payloadOnly"));
        assertEquals(Optional.empty(), problemWith("payloadAndContext"));
    }

    @Test
    void each_invalid_signature_is_refused_with_its_own_reason() {
        assertProblem("returnsSomething", "must return void");
        assertProblem("noParameters", "takes 0 parameters");
        assertProblem("contextFirst", "first parameter must be the payload");
        assertProblem("secondNotContext", "second parameter must be dev.jobqueue.JobContext, not int");
        assertProblem("typeVariable", "type variable T");
        assertProblem("primitive", "primitive int");
        assertProblem("packagePrivate", "must be public");
        assertProblem("isStatic", "must not be static");
    }

    private static void assertProblem(String method, String expected) {
        Optional<String> problem = problemWith(method);
        assertTrue(problem.isPresent() && problem.get().contains(expected), method + ": " + problem);
    }
}

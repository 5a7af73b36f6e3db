package dev.jobqueue.internal.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jobqueue.JobContext;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
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

        public void batchPayloads(List<String> payloads) {
        }

        public void batchWithContexts(List<Map<String, Integer>> payloads, List<JobContext> contexts) {
        }

        public void batchNotAList(String payload) {
        }

        public void batchRawList(@SuppressWarnings("rawtypes") List payloads) {
        }

        public void batchWildcard(List<?> payloads) {
        }

        public <T> void batchTypeVariable(List<T> payloads) {
        }

        public void batchSingleContext(List<String> payloads, JobContext context) {
        }
    }

    private static Optional<String> problemWith(String name) {
        return ConsumerSignature.problemWith(sample(name), name.startsWith("batch"));
    }

    private static Method sample(String name) {
        for (Method method : Samples.class.getDeclaredMethods()) {
            if (method.getName().equals(name)) {
                return method;
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

    @Test
    void a_batch_consumer_takes_a_list_of_payloads_and_optionally_a_list_of_contexts() throws Exception {
        assertEquals(Optional.empty(), problemWith("batchPayloads"));
        assertEquals(Optional.empty(), problemWith("batchWithContexts"));
        assertEquals(String.class, ConsumerSignature.payloadType(sample("batchPayloads"), true));
        assertEquals(Samples.class.getMethod("batchWithContexts", List.class, List.class)
                .getGenericParameterTypes()[0].getTypeName().replace("java.util.List<", "").replaceAll(">$", ""),
                ConsumerSignature.payloadType(sample("batchWithContexts"), true).getTypeName());
    }

    @Test
    void a_batch_consumer_without_a_list_of_a_concrete_type_is_refused() {
        assertProblem("batchNotAList", "first parameter must be a java.util.List of the payload type, not"
                + " java.lang.String");
        assertProblem("batchRawList", "must be a java.util.List of the payload type");
        assertProblem("batchWildcard", "payload type must be concrete, not ?");
        assertProblem("batchTypeVariable", "payload type must be concrete, not T");
        assertProblem("batchSingleContext", "second parameter of a batch consumer must be"
                + " java.util.List<dev.jobqueue.JobContext>");
    }

    private static void assertProblem(String method, String expected) {
        Optional<String> problem = problemWith(method);
        assertTrue(problem.isPresent() && problem.get().contains(expected), method + ": " + problem);
    }
}

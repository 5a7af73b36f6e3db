package dev.jobqueue.internal.enqueue;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.lang.reflect.Type;

/**
 * Turns payloads into JSON and back with JSON-B. The target type always comes from the consumer's
 * declared parameter, never from the stored row, so a row cannot make us instantiate a class of its choosing.
 */
@ApplicationScoped
public class PayloadCodec {

    private final Jsonb jsonb = JsonbBuilder.create();

    public String toJson(Object payload) {
        return jsonb.toJson(payload);
    }

    public Object fromJson(String json, Type type) {
        return jsonb.fromJson(json, type);
    }

    @PreDestroy
    void close() {
        try {
            jsonb.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot close JSON-B", e);
        }
    }
}

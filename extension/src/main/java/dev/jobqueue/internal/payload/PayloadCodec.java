package dev.jobqueue.internal.payload;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbConfig;
import java.io.StringWriter;
import java.lang.reflect.Type;

/**
 * Turns payloads into JSON and back with JSON-B. The target type always comes from the consumer's
 * declared parameter, never from the stored row, so a row cannot make us instantiate a class of its choosing.
 */
@ApplicationScoped
public class PayloadCodec {

    private final Jsonb jsonb = JsonbBuilder.create();
    /** Writes null fields too: what a payload's type would write for it, for {@link PayloadShape}. */
    private final Jsonb withNulls = JsonbBuilder.create(new JsonbConfig().withNullValues(true));

    /**
     * The payload as JSON. Written through a {@link StringWriter} because, given none, Yasson logs a bare
     * {@code SEVERE: Generating incomplete JSON} before it throws for a payload it cannot serialise; the put's
     * exception says what is wrong instead.
     */
    public String toJson(Object payload) {
        StringWriter json = new StringWriter();
        jsonb.toJson(payload, json);
        return json.toString();
    }

    /** The payload as JSON with every field, null ones included. */
    public String toJsonWithNulls(Object payload) {
        StringWriter json = new StringWriter();
        withNulls.toJson(payload, json);
        return json.toString();
    }

    public Object fromJson(String json, Type type) {
        return jsonb.fromJson(json, type);
    }

    /**
     * The size of {@code json} in UTF-8, as the database stores it, without encoding it. At most {@code limit}
     * bytes is all a caller needs to know, so text short enough to fit whatever its characters is not counted.
     *
     * @return the exact size, or a size not over {@code limit} when the text fits
     */
    public static long utf8Size(String json, long limit) {
        if ((long) json.length() * 3 <= limit) {
            return json.length();
        }
        long bytes = 0;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < json.length()
                    && Character.isLowSurrogate(json.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    @PreDestroy
    void close() {
        try {
            jsonb.close();
            withNulls.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot close JSON-B", e);
        }
    }
}

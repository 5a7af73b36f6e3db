package dev.jobqueue.internal.payload;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What sets a payload's JSON apart from the type it is read into, for queues with {@code strict-payload}: the
 * fields the JSON has and the type does not, and the fields of the type that the JSON leaves out. It compares
 * the stored JSON with the JSON the type writes, nulls included, for the object read from it: objects field by
 * field at every depth, arrays element by element. A left-out field that reads as null is not missing: JSON-B
 * leaves null fields out when a payload is put, so there the two are the same. A map's keys are data, so a
 * map never differs.
 */
public final class PayloadShape {

    private PayloadShape() {
    }

    /**
     * @param stored  the payload as put
     * @param written the object read from it, written back with null values included
     * @return one line per difference, such as {@code unknown field 'adress'} or {@code missing field 'items[0].sku'}
     */
    public static List<String> differences(String stored, String written) {
        List<String> found = new ArrayList<>();
        compare(read(stored), read(written), "", found);
        return found;
    }

    private static void compare(JsonValue stored, JsonValue written, String path, List<String> found) {
        if (stored instanceof JsonObject storedObject && written instanceof JsonObject writtenObject) {
            TreeSet<String> names = new TreeSet<>(storedObject.keySet());
            names.addAll(writtenObject.keySet());
            for (String name : names) {
                String field = path.isEmpty() ? name : path + "." + name;
                if (!writtenObject.containsKey(name)) {
                    found.add("unknown field '" + field + "'");
                } else if (!storedObject.containsKey(name)) {
                    if (writtenObject.get(name) != JsonValue.NULL) {
                        found.add("missing field '" + field + "'");
                    }
                } else {
                    compare(storedObject.get(name), writtenObject.get(name), field, found);
                }
            }
        } else if (stored instanceof JsonArray storedArray && written instanceof JsonArray writtenArray) {
            for (int i = 0; i < Math.min(storedArray.size(), writtenArray.size()); i++) {
                compare(storedArray.get(i), writtenArray.get(i), path + "[" + i + "]", found);
            }
        }
    }

    private static JsonValue read(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }
}

package dev.jobqueue.internal.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fields that set a payload's JSON apart from its type, as the strict-payload check reports them. */
class PayloadShapeTest {

    public record Line(String sku, int quantity) {
    }

    public record Order(String id, List<Line> lines, Map<String, String> notes) {
    }

    private final PayloadCodec codec = new PayloadCodec();

    private List<String> differences(String json) {
        Object read = codec.fromJson(json, Order.class);
        return PayloadShape.differences(json, codec.toJsonWithNulls(read));
    }

    @Test
    void a_payload_with_every_field_of_its_type_and_no_other_matches() {
        assertEquals(List.of(), differences("""
                {"id":"A-1","lines":[{"sku":"tea","quantity":2}],"notes":{"gift":"yes"}}"""));
    }

    @Test
    void a_null_field_whether_written_or_left_out_as_json_b_does_is_not_missing() {
        assertEquals(List.of(), differences("""
                {"id":null,"lines":[]}"""));
    }

    @Test
    void unknown_and_missing_fields_are_named_with_their_path_at_any_depth() {
        assertEquals(List.of("unknown field 'customer'", "unknown field 'lines[1].qty'",
                "missing field 'lines[1].quantity'"), differences("""
                {"id":"A-1","customer":"ada","lines":[{"sku":"tea","quantity":2},{"sku":"cake","qty":1}]}"""));
    }

    @Test
    void a_maps_keys_are_data_and_never_differ() {
        assertEquals(List.of(), differences("""
                {"id":"A-1","lines":[],"notes":{"anything":"goes","here":null}}"""));
    }
}

package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class SchemaCheckTest {
    /** An expected table "ns.t" with these columns (a JSON array). */
    static ExpectedTable table(String columns) throws Exception {
        return ExpectedTable.parse(new ObjectMapper().readTree(
                "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":" + columns + "}"));
    }

    private static final String COLUMNS = "["
            + "{\"name\":\"id\",\"type\":\"string\",\"required\":true},"
            + "{\"name\":\"ts\",\"type\":\"timestamp_ltz(3)\",\"required\":false},"
            + "{\"name\":\"amount\",\"type\":\"decimal(18,2)\",\"required\":false},"
            + "{\"name\":\"c\",\"type\":\"struct\",\"required\":false,\"fields\":["
            + "  {\"name\":\"a\",\"type\":\"struct\",\"required\":false,\"fields\":["
            + "    {\"name\":\"city\",\"type\":\"string\",\"required\":false}]}]},"
            + "{\"name\":\"items\",\"type\":\"array\",\"required\":false,"
            + "  \"element\":{\"type\":\"long\",\"required\":true}},"
            + "{\"name\":\"m\",\"type\":\"map\",\"required\":false,"
            + "  \"key\":{\"type\":\"string\",\"required\":true},"
            + "  \"value\":{\"type\":\"timestamp(6)\",\"required\":false}}"
            + "]";

    private static Schema schema(String city, boolean elementRequired) {
        return new Schema(
                Types.NestedField.required(1, "id", Types.StringType.get()),
                Types.NestedField.optional(2, "ts", Types.TimestampType.withZone()),
                Types.NestedField.optional(3, "amount", Types.DecimalType.of(18, 2)),
                Types.NestedField.optional(4, "c", Types.StructType.of(
                        Types.NestedField.optional(7, "a", Types.StructType.of(
                                Types.NestedField.optional(8, city, Types.StringType.get()))))),
                Types.NestedField.optional(5, "items", elementRequired
                        ? Types.ListType.ofRequired(9, Types.LongType.get())
                        : Types.ListType.ofOptional(9, Types.LongType.get())),
                Types.NestedField.optional(6, "m", Types.MapType.ofOptional(10, 11,
                        Types.StringType.get(), Types.TimestampType.withoutZone())));
    }

    @Test
    void matches() throws Exception {
        assertEquals(List.of(), SchemaCheck.compare(table(COLUMNS).columns, schema("city", true)));
    }

    @Test
    void findsNestedRenameAndNullability() throws Exception {
        List<String> d = SchemaCheck.compare(table(COLUMNS).columns, schema("town", false));
        assertEquals(2, d.size(), d.toString());
        assertTrue(d.get(0).startsWith("c.a.city: position 1 is 'town'"), d.get(0));
        assertTrue(d.get(1).startsWith("items[]: nullable in the table, required in the job"), d.get(1));
    }

    @Test
    void findsTypeAndOrder() throws Exception {
        Schema s = new Schema(
                Types.NestedField.required(1, "id", Types.StringType.get()),
                Types.NestedField.optional(3, "amount", Types.DecimalType.of(18, 3)),
                Types.NestedField.optional(2, "ts", Types.TimestampType.withoutZone()));
        List<String> d = SchemaCheck.compare(table(COLUMNS).columns, s);
        assertTrue(d.get(0).startsWith("ts: position 2 is 'amount'"), d.toString());
        assertTrue(d.get(1).startsWith("amount: position 3 is 'ts'"), d.toString());
        assertTrue(d.get(2).startsWith("c: the job writes this column"), d.toString());
    }

    @Test
    void decimalParameters() {
        assertEquals(null, SchemaCheck.typeMismatch("decimal(18,2)", Types.DecimalType.of(18, 2)));
        assertEquals("parameters", SchemaCheck.typeMismatch("decimal(18,2)", Types.DecimalType.of(19, 2)));
        assertEquals("kind", SchemaCheck.typeMismatch("timestamp(3)", Types.TimestampType.withZone()));
        assertEquals("kind", SchemaCheck.typeMismatch("binary", Types.FixedType.ofLength(16)));
        assertEquals("kind", SchemaCheck.typeMismatch("int", Types.LongType.get()));
    }
}

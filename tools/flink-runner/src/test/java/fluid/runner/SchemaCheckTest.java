// SPDX-License-Identifier: Apache-2.0
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

    /** An upsert table keyed by id, of two columns. */
    private static ExpectedTable keyed(String pk) throws Exception {
        return ExpectedTable.parse(new ObjectMapper().readTree(
                "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":["
                + "{\"name\":\"id\",\"type\":\"long\",\"required\":true},"
                + "{\"name\":\"region\",\"type\":\"string\",\"required\":true},"
                + "{\"name\":\"v\",\"type\":\"string\",\"required\":false}]"
                + (pk == null ? "" : ",\"primaryKey\":" + pk) + "}"));
    }

    private static Schema keyedSchema(Integer... identifierIds) {
        return new Schema(List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.required(2, "region", Types.StringType.get()),
                Types.NestedField.optional(3, "v", Types.StringType.get())),
                java.util.Set.of(identifierIds));
    }

    @Test
    void identifierFieldsMatchThePrimaryKey() throws Exception {
        assertEquals(List.of(), SchemaCheck.compare(keyed("[\"id\"]"), keyedSchema(1)));
        // A set: Iceberg keeps the ids without the contract's order.
        assertEquals(List.of(), SchemaCheck.compare(keyed("[\"region\",\"id\"]"), keyedSchema(1, 2)));
        assertEquals(List.of(), SchemaCheck.compare(keyed(null), keyedSchema()));
    }

    @Test
    void findsOtherIdentifierFields() throws Exception {
        List<String> d = SchemaCheck.compare(keyed("[\"id\"]"), keyedSchema(1, 2));
        assertEquals(List.of("identifier fields: id, region in the table, id in the job "
                + "(contract.primaryKey)"), d);
        d = SchemaCheck.compare(keyed("[\"id\"]"), keyedSchema());
        assertEquals(1, d.size(), d.toString());
        assertTrue(d.get(0).startsWith("identifier fields: none in the table, id in the job"), d.get(0));
        d = SchemaCheck.compare(keyed(null), keyedSchema(1));
        assertTrue(d.get(0).startsWith("identifier fields: id in the table, none in the job"), d.toString());
    }

    @Test
    void theCreatedTableCarriesTheKey() throws Exception {
        ExpectedTable t = keyed("[\"region\",\"id\"]");
        Schema s = IcebergSchema.of(t);
        assertEquals(java.util.Set.of("id", "region"), s.identifierFieldNames());
        assertEquals(List.of(), SchemaCheck.compare(t, s));
    }

    @Test
    void refusesAKeyThatIsNoRequiredColumn() {
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(
                ExpectedTable.FormatException.class, () -> keyed("[\"v\"]"));
        assertTrue(e.getMessage().contains("must be a required scalar column"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(
                ExpectedTable.FormatException.class, () -> keyed("[\"id\",\"id\"]"));
        assertTrue(e.getMessage().startsWith("primaryKey[1]"), e.getMessage());
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

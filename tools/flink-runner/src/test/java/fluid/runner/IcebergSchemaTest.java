// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class IcebergSchemaTest {
    // What Flink's DDL loses: a required field of a nullable struct, and of a
    // nullable array's struct element; plus every kind of type once.
    private static final String COLUMNS = "["
            + "{\"name\":\"id\",\"type\":\"string\",\"required\":true},"
            + "{\"name\":\"doc\",\"type\":\"struct\",\"required\":false,\"fields\":["
            + "  {\"name\":\"id\",\"type\":\"string\",\"required\":true},"
            + "  {\"name\":\"n\",\"type\":\"int\",\"required\":false}]},"
            + "{\"name\":\"items\",\"type\":\"array\",\"required\":false,"
            + "  \"element\":{\"type\":\"struct\",\"required\":false,\"fields\":["
            + "    {\"name\":\"sku\",\"type\":\"string\",\"required\":true}]}},"
            + "{\"name\":\"m\",\"type\":\"map\",\"required\":false,"
            + "  \"key\":{\"type\":\"string\",\"required\":true},"
            + "  \"value\":{\"type\":\"decimal(38,10)\",\"required\":true}},"
            + "{\"name\":\"b\",\"type\":\"boolean\",\"required\":false},"
            + "{\"name\":\"l\",\"type\":\"long\",\"required\":false},"
            + "{\"name\":\"f\",\"type\":\"float\",\"required\":false},"
            + "{\"name\":\"d\",\"type\":\"double\",\"required\":false},"
            + "{\"name\":\"dt\",\"type\":\"date\",\"required\":false},"
            + "{\"name\":\"tm\",\"type\":\"time\",\"required\":false},"
            + "{\"name\":\"bin\",\"type\":\"binary\",\"required\":false},"
            + "{\"name\":\"ts\",\"type\":\"timestamp(6)\",\"required\":false},"
            + "{\"name\":\"tz\",\"type\":\"timestamp_ltz(3)\",\"required\":true}"
            + "]";

    @Test
    void theSchemaTheCheckExpects() throws Exception {
        ExpectedTable t = SchemaCheckTest.table(COLUMNS);
        Schema s = IcebergSchema.of(t);
        assertEquals(List.of(), SchemaCheck.compare(t.columns, s));
    }

    @Test
    void keepsRequiredFieldsUnderNullableParents() throws Exception {
        Schema s = IcebergSchema.of(SchemaCheckTest.table(COLUMNS));
        Types.NestedField doc = s.findField("doc");
        assertFalse(doc.isRequired());
        assertTrue(doc.type().asStructType().field("id").isRequired());
        Types.ListType items = s.findField("items").type().asListType();
        assertFalse(items.isElementRequired());
        assertTrue(items.elementType().asStructType().field("sku").isRequired());
        assertTrue(s.findField("m").type().asMapType().isValueRequired());
    }

    @Test
    void everyIdOnce() throws Exception {
        Schema s = IcebergSchema.of(SchemaCheckTest.table(COLUMNS));
        Set<Integer> ids = new HashSet<>();
        for (Type t : List.<Type>of(s.asStruct())) {
            TypeUtil.indexById(t.asStructType()).keySet().forEach(id -> assertTrue(ids.add(id)));
        }
        assertEquals(s.highestFieldId(), ids.size());
    }

    @Test
    void descriptionsBecomeDocsOfColumnsAndStructFields() throws Exception {
        Schema s = IcebergSchema.of(SchemaCheckTest.table("["
                + "{\"name\":\"id\",\"type\":\"string\",\"required\":true,"
                + "\"description\":\"it's \\\\ -- /* a path */\"},"
                + "{\"name\":\"c\",\"type\":\"struct\",\"required\":false,\"description\":\"the customer\","
                + "  \"fields\":[{\"name\":\"n\",\"type\":\"int\",\"required\":false,\"description\":\"Zähler\"},"
                + "  {\"name\":\"m\",\"type\":\"int\",\"required\":false}]},"
                + "{\"name\":\"plain\",\"type\":\"int\",\"required\":false}]"));
        assertEquals("it's \\ -- /* a path */", s.findField("id").doc());
        assertEquals("the customer", s.findField("c").doc());
        assertEquals("Zähler", s.findField("c.n").doc());
        assertEquals(null, s.findField("c.m").doc());
        assertEquals(null, s.findField("plain").doc());
    }
}

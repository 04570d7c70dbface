// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The Iceberg schema of the table a job expects, built from BUILD.table.json
 * with the nullability it says at every level.
 *
 * <p>Why not let the script's CREATE TABLE make it: Flink 1.20's DDL (Calcite)
 * makes every field of a nullable ROW nullable, so {@code doc ROW<id STRING NOT
 * NULL>} becomes an Iceberg table with {@code doc.id} optional, and an array
 * element's required fields likewise. The contract says those fields are
 * required where their struct is present, so the runner creates the table from
 * the contract's own schema and the DDL then finds it there.
 *
 * <p>Each column's and struct field's description becomes its doc (the
 * script's COMMENT would give the columns theirs, but Flink 1.20's DDL drops a
 * ROW field's). An element, key or value has no doc in Iceberg.
 *
 * <p>Field ids are numbered in order here; the catalog assigns its own when it
 * creates the table.
 */
public final class IcebergSchema {
    private int nextId = 1;

    private IcebergSchema() {}

    public static Schema of(ExpectedTable t) {
        IcebergSchema b = new IcebergSchema();
        List<Types.NestedField> cols = b.fields(t.columns);
        if (t.primaryKey.isEmpty()) {
            return new Schema(cols);
        }
        // The primary key as identifier fields: Iceberg's upsert keys by them.
        Set<Integer> ids = new HashSet<>();
        for (Types.NestedField f : cols) {
            if (t.primaryKey.contains(f.name())) {
                ids.add(f.fieldId());
            }
        }
        return new Schema(cols, ids);
    }

    private List<Types.NestedField> fields(List<ExpectedTable.Column> cols) {
        // Ids of this level first, then the children's, as Iceberg numbers them.
        int[] ids = new int[cols.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = nextId++;
        }
        List<Types.NestedField> out = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            ExpectedTable.Column c = cols.get(i);
            out.add(Types.NestedField.of(ids[i], !c.required, c.name, type(c), c.doc));
        }
        return out;
    }

    private static final Pattern PARAM = Pattern.compile("([a-z_]+)(?:\\((\\d+)(?:,(\\d+))?\\))?");

    private Type type(ExpectedTable.Column c) {
        Matcher m = PARAM.matcher(c.type.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("unknown type '" + c.type + "'");
        }
        switch (m.group(1)) {
            case "string":
                return Types.StringType.get();
            case "boolean":
                return Types.BooleanType.get();
            case "int":
                return Types.IntegerType.get();
            case "long":
                return Types.LongType.get();
            case "float":
                return Types.FloatType.get();
            case "double":
                return Types.DoubleType.get();
            case "date":
                return Types.DateType.get();
            case "time":
                return Types.TimeType.get();
            case "binary":
                return Types.BinaryType.get();
            case "decimal":
                return Types.DecimalType.of(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
            // Iceberg keeps microseconds whatever the precision (see SchemaCheck).
            case "timestamp":
                return Types.TimestampType.withoutZone();
            case "timestamp_ltz":
                return Types.TimestampType.withZone();
            case "struct":
                return Types.StructType.of(fields(c.fields));
            case "array": {
                int id = nextId++;
                Type e = type(c.element);
                return c.element.required ? Types.ListType.ofRequired(id, e) : Types.ListType.ofOptional(id, e);
            }
            case "map": {
                int kid = nextId++;
                int vid = nextId++;
                Type k = type(c.key);
                Type v = type(c.value);
                return c.value.required
                        ? Types.MapType.ofRequired(kid, vid, k, v)
                        : Types.MapType.ofOptional(kid, vid, k, v);
            }
            default:
                throw new IllegalArgumentException("unknown type '" + c.type + "'");
        }
    }
}

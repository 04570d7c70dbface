// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Compares an Iceberg table's schema with the table a job expects, recursively:
 * column and field names, their order, types and nullability. Field ids are
 * not compared (the catalog assigns them).
 *
 * <p>Timestamps: Iceberg keeps microseconds whatever precision Flink declared,
 * so timestamp(p) matches {@code timestamp} and timestamp_ltz(p) matches
 * {@code timestamptz} for every p (fluid allows p up to 6). Every other
 * parameter (decimal precision and scale) must be equal.
 *
 * <p>Identifier fields: an upsert table's are its primary key, by which
 * Iceberg's upsert deletes a key's old row. A table whose identifier fields are
 * other columns (or none) would upsert by another key, or append, so they must
 * be the expected table's primaryKey, as a set (Iceberg keeps them as field
 * ids, without an order).
 */
public final class SchemaCheck {
    private SchemaCheck() {}

    /** compare(columns) and the identifier fields. */
    public static List<String> compare(ExpectedTable expected, Schema actual) {
        List<String> out = compare(expected.columns, actual);
        Set<String> want = new TreeSet<>(expected.primaryKey);
        Set<String> have = new TreeSet<>(actual.identifierFieldNames());
        if (!want.equals(have)) {
            out.add("identifier fields: " + (have.isEmpty() ? "none" : String.join(", ", have))
                    + " in the table, " + (want.isEmpty() ? "none" : String.join(", ", want))
                    + " in the job (contract.primaryKey)");
        }
        return out;
    }

    /** The differences, each naming the path; empty when the schemas match. */
    public static List<String> compare(List<ExpectedTable.Column> expected, Schema actual) {
        List<String> out = new ArrayList<>();
        fields("", expected, actual.asStruct().fields(), out);
        return out;
    }

    private static void fields(String prefix, List<ExpectedTable.Column> exp,
            List<Types.NestedField> act, List<String> out) {
        int n = Math.max(exp.size(), act.size());
        for (int i = 0; i < n; i++) {
            if (i >= exp.size()) {
                out.add(path(prefix, act.get(i).name()) + ": the table has this "
                        + (prefix.isEmpty() ? "column" : "field") + " (position " + (i + 1)
                        + "), the job does not write it");
                continue;
            }
            ExpectedTable.Column e = exp.get(i);
            if (i >= act.size()) {
                out.add(path(prefix, e.name) + ": the job writes this "
                        + (prefix.isEmpty() ? "column" : "field") + " (position " + (i + 1)
                        + "), the table does not have it");
                continue;
            }
            Types.NestedField a = act.get(i);
            if (!e.name.equals(a.name())) {
                out.add(path(prefix, e.name) + ": position " + (i + 1) + " is '" + a.name()
                        + "' in the table, '" + e.name + "' in the job");
                continue;
            }
            node(path(prefix, e.name), e, a.type(), a.isRequired(), out);
        }
    }

    private static void node(String path, ExpectedTable.Column e, Type a, boolean aRequired,
            List<String> out) {
        if (e.required != aRequired) {
            out.add(path + ": " + (aRequired ? "required" : "nullable") + " in the table, "
                    + (e.required ? "required" : "nullable") + " in the job");
        }
        String why = typeMismatch(e.type, a);
        if (why != null) {
            out.add(path + ": type " + a + " in the table, " + e.type + " in the job");
            return;
        }
        switch (a.typeId()) {
            case STRUCT:
                fields(path, e.fields, a.asStructType().fields(), out);
                break;
            case LIST:
                Types.ListType l = a.asListType();
                node(path + "[]", e.element, l.elementType(), l.isElementRequired(), out);
                break;
            case MAP:
                Types.MapType m = a.asMapType();
                node(path + "{key}", e.key, m.keyType(), true, out);
                node(path + "{value}", e.value, m.valueType(), m.isValueRequired(), out);
                break;
            default:
                break;
        }
    }

    private static final Pattern PARAM = Pattern.compile("([a-z_]+)(?:\\((\\d+)(?:,(\\d+))?\\))?");

    /** Null when the kinds (and decimal parameters) agree, else a reason. */
    static String typeMismatch(String expected, Type a) {
        Matcher m = PARAM.matcher(expected.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return "unknown";
        }
        switch (m.group(1)) {
            case "string":
                return is(a, Type.TypeID.STRING);
            case "boolean":
                return is(a, Type.TypeID.BOOLEAN);
            case "int":
                return is(a, Type.TypeID.INTEGER);
            case "long":
                return is(a, Type.TypeID.LONG);
            case "float":
                return is(a, Type.TypeID.FLOAT);
            case "double":
                return is(a, Type.TypeID.DOUBLE);
            case "date":
                return is(a, Type.TypeID.DATE);
            case "time":
                return is(a, Type.TypeID.TIME);
            case "binary":
                return is(a, Type.TypeID.BINARY);
            case "struct":
                return is(a, Type.TypeID.STRUCT);
            case "array":
                return is(a, Type.TypeID.LIST);
            case "map":
                return is(a, Type.TypeID.MAP);
            case "timestamp":
                if (a.typeId() != Type.TypeID.TIMESTAMP || ((Types.TimestampType) a).shouldAdjustToUTC()) {
                    return "kind";
                }
                return null;
            case "timestamp_ltz":
                if (a.typeId() != Type.TypeID.TIMESTAMP || !((Types.TimestampType) a).shouldAdjustToUTC()) {
                    return "kind";
                }
                return null;
            case "decimal":
                if (a.typeId() != Type.TypeID.DECIMAL || m.group(2) == null || m.group(3) == null) {
                    return "kind";
                }
                Types.DecimalType d = (Types.DecimalType) a;
                if (d.precision() != Integer.parseInt(m.group(2)) || d.scale() != Integer.parseInt(m.group(3))) {
                    return "parameters";
                }
                return null;
            default:
                return "unknown";
        }
    }

    private static String is(Type a, Type.TypeID want) {
        return a.typeId() == want ? null : "kind";
    }

    private static String path(String prefix, String name) {
        return prefix.isEmpty() ? name : prefix + "." + name;
    }
}

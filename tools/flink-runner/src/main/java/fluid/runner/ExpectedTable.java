// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The table a generated job writes, as fluid-sqlgen describes it in
 * BUILD.table.json: {"namespace", "name", "columns"}, each column in the IR
 * form of lib/types.h: {"name", "type", "required", "description"?, "fields" |
 * "element" | "key" | "value"}, children without "name" for element, key and
 * value; and,
 * for an upsert table of a change stream, "primaryKey": the names of the
 * top-level columns that are the table's identifier fields.
 */
public final class ExpectedTable {
    /** Thrown when the file is not in that form. */
    public static final class FormatException extends Exception {
        public FormatException(String msg) {
            super(msg);
        }
    }

    /** One column, struct field, element, key or value. */
    public static final class Column {
        public final String name; // null for element, key, value
        public final String type; // canonical IR name: "decimal(18,2)", "struct", ...
        public final boolean required;
        public final List<Column> fields;
        public final Column element;
        public final Column key;
        public final Column value;
        /** The contract's description, or null: the Iceberg field's doc. */
        public final String doc;

        Column(String name, String type, boolean required, List<Column> fields,
                Column element, Column key, Column value, String doc) {
            this.doc = doc;
            this.name = name;
            this.type = type;
            this.required = required;
            this.fields = fields;
            this.element = element;
            this.key = key;
            this.value = value;
        }
    }

    public final String namespace;
    public final String name;
    public final List<Column> columns;
    /** The identifier fields, in the contract's order; empty for an append-only table. */
    public final List<String> primaryKey;

    private ExpectedTable(String namespace, String name, List<Column> columns,
            List<String> primaryKey) {
        this.namespace = namespace;
        this.name = name;
        this.columns = columns;
        this.primaryKey = primaryKey;
    }

    public static ExpectedTable read(Path file) throws IOException, FormatException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new FormatException("not JSON: " + e.getOriginalMessage());
        }
        return parse(root);
    }

    public static ExpectedTable parse(JsonNode root) throws FormatException {
        if (root == null || !root.isObject()) {
            throw new FormatException("not a JSON object");
        }
        String ns = text(root, "namespace", "");
        String name = text(root, "name", "");
        JsonNode cols = root.get("columns");
        if (cols == null || !cols.isArray() || cols.isEmpty()) {
            throw new FormatException("columns: expected a non-empty array");
        }
        List<Column> columns = fields(cols, "columns");
        return new ExpectedTable(ns, name, columns, primaryKey(root.get("primaryKey"), columns));
    }

    /** "primaryKey": absent or null (none), or names of top-level required scalars, each once. */
    private static List<String> primaryKey(JsonNode pk, List<Column> columns) throws FormatException {
        if (pk == null || pk.isNull()) {
            return List.of();
        }
        if (!pk.isArray() || pk.isEmpty()) {
            throw new FormatException("primaryKey: expected a non-empty array of column names");
        }
        List<String> out = new ArrayList<>();
        int i = 0;
        for (JsonNode n : pk) {
            String where = "primaryKey[" + i++ + "]";
            if (!n.isTextual()) {
                throw new FormatException(where + ": expected a column name");
            }
            Column c = null;
            for (Column k : columns) {
                if (k.name.equals(n.asText())) {
                    c = k;
                }
            }
            if (c == null || out.contains(c.name)) {
                throw new FormatException(where + ": '" + n.asText()
                        + "' is not a column, or is listed twice");
            }
            if (!c.required || c.fields != null || c.element != null || c.key != null) {
                throw new FormatException(where + ": '" + c.name
                        + "' must be a required scalar column");
            }
            out.add(c.name);
        }
        return Collections.unmodifiableList(out);
    }

    private static List<Column> fields(JsonNode arr, String where) throws FormatException {
        List<Column> out = new ArrayList<>();
        int i = 0;
        for (JsonNode c : arr) {
            out.add(column(c, where + "[" + i + "]", true));
            i++;
        }
        return Collections.unmodifiableList(out);
    }

    private static final Pattern PARAM = Pattern.compile("([a-z_]+)(?:\\((\\d+)(?:,(\\d+))?\\))?");

    private static Column column(JsonNode c, String where, boolean named) throws FormatException {
        if (c == null || !c.isObject()) {
            throw new FormatException(where + ": expected an object");
        }
        String name = named ? text(c, "name", where) : null;
        String type = text(c, "type", where);
        JsonNode req = c.get("required");
        if (req == null || !req.isBoolean()) {
            throw new FormatException(where + ".required: expected true or false");
        }
        Matcher m = PARAM.matcher(type);
        if (!m.matches()) {
            throw new FormatException(where + ".type: unknown type '" + type + "'");
        }
        List<Column> fields = null;
        Column element = null;
        Column key = null;
        Column value = null;
        switch (m.group(1)) {
            case "struct":
                JsonNode f = c.get("fields");
                if (f == null || !f.isArray() || f.isEmpty()) {
                    throw new FormatException(where + ".fields: expected a non-empty array");
                }
                fields = fields(f, where + ".fields");
                break;
            case "array":
                element = column(c.get("element"), where + ".element", false);
                break;
            case "map":
                key = column(c.get("key"), where + ".key", false);
                value = column(c.get("value"), where + ".value", false);
                break;
            case "string": case "boolean": case "int": case "long": case "float":
            case "double": case "date": case "time": case "binary":
            case "decimal": case "timestamp": case "timestamp_ltz":
                break;
            default:
                throw new FormatException(where + ".type: unknown type '" + type + "'");
        }
        return new Column(name, type, req.asBoolean(), fields, element, key, value,
                description(c.get("description"), where));
    }

    /** Bytes of UTF-8 a description may have (lib/types.h TY_MAX_DOC_BYTES). */
    static final int MAX_DOC_BYTES = 1024;

    /**
     * "description": absent, or one line of text of at most MAX_DOC_BYTES, as
     * fluid-check lets through (lib/types.c ty_doc_why()); it becomes the
     * catalog's doc of the field, so the file is held to that rule again.
     */
    private static String description(JsonNode d, String where) throws FormatException {
        if (d == null) {
            return null;
        }
        if (!d.isTextual() || d.asText().isEmpty()
                || d.asText().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_DOC_BYTES) {
            throw new FormatException(where + ".description: expected text of 1 to " + MAX_DOC_BYTES + " bytes");
        }
        String s = d.asText();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x200e || c == 0x200f || c == 0x2028
                    || c == 0x2029 || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) {
                throw new FormatException(where + ".description: a control character, a line separator or a "
                        + "bidirectional control (one line of plain text only)");
            }
        }
        return s;
    }

    private static String text(JsonNode o, String field, String where) throws FormatException {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new FormatException((where.isEmpty() ? "" : where + ".") + field
                    + ": expected a non-empty string");
        }
        return v.asText();
    }
}

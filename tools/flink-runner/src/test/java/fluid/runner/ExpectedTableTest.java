// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExpectedTableTest {
    private static ExpectedTable parse(String json) throws Exception {
        return ExpectedTable.parse(new ObjectMapper().readTree(json));
    }

    @Test
    void readsNestedColumns() throws Exception {
        ExpectedTable t = parse("{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":["
                + "{\"name\":\"m\",\"type\":\"map\",\"required\":false,"
                + "\"key\":{\"type\":\"string\",\"required\":true},"
                + "\"value\":{\"type\":\"array\",\"required\":false,"
                + "\"element\":{\"type\":\"decimal(38,10)\",\"required\":true}}}]}");
        assertEquals("ns", t.namespace);
        assertEquals("decimal(38,10)", t.columns.get(0).value.element.type);
        assertTrue(t.columns.get(0).value.element.required);
    }

    @Test
    void refusesMalformedInput() {
        assertThrows(ExpectedTable.FormatException.class, () -> parse("[]"));
        assertThrows(ExpectedTable.FormatException.class,
                () -> parse("{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":[]}"));
        assertThrows(ExpectedTable.FormatException.class, () -> parse(
                "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":[{\"name\":\"a\",\"type\":\"int8\",\"required\":true}]}"));
        assertThrows(ExpectedTable.FormatException.class, () -> parse(
                "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":[{\"name\":\"a\",\"type\":\"int\"}]}"));
        assertThrows(ExpectedTable.FormatException.class, () -> parse(
                "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":[{\"name\":\"s\",\"type\":\"struct\",\"required\":true}]}"));
    }

    @Test
    void usageErrorsExitTwo(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        assertEquals(FlinkRunner.USAGE, FlinkRunner.run(new String[] {"only-one"}, ps, ps));
        assertEquals(FlinkRunner.USAGE, FlinkRunner.run(new String[] {"--bogus", "a", "b"}, ps, ps));
        assertEquals(FlinkRunner.USAGE, FlinkRunner.run(new String[] {"--set", "novalue", "a", "b"}, ps, ps));
        Path sql = dir.resolve("x.sql");
        Path json = dir.resolve("x.table.json");
        Files.writeString(sql, "SELECT 'unterminated;");
        Files.writeString(json, "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":[{\"name\":\"a\",\"type\":\"int\",\"required\":true}]}");
        assertEquals(FlinkRunner.USAGE, FlinkRunner.run(new String[] {sql.toString(), json.toString()}, ps, ps));
        assertTrue(buf.toString(StandardCharsets.UTF_8).contains("unterminated string literal"));
    }

    @Test
    void refusesADescriptionThatIsNotOneLineOfText() throws Exception {
        String col = "{\"namespace\":\"ns\",\"name\":\"t\",\"columns\":[{\"name\":\"a\",\"type\":\"int\","
                + "\"required\":true,\"description\":%s}]}";
        assertEquals("one line", parse(String.format(col, "\"one line\"")).columns.get(0).doc);
        assertEquals(1024, parse(String.format(col, "\"" + "x".repeat(1024) + "\"")).columns.get(0).doc.length());
        for (String bad : new String[] {"1", "\"\"", "\"a\\nb\"", "\"a\\u0085b\"", "\"a\\u202eb\"",
                "\"" + "x".repeat(1025) + "\""}) {
            assertThrows(ExpectedTable.FormatException.class, () -> parse(String.format(col, bad)), bad);
        }
    }
}

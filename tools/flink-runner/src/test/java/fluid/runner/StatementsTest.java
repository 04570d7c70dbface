// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementsTest {
    @Test
    void splitsAtTopLevelSemicolons() throws Exception {
        List<String> s = Statements.split("-- head\nSET 'a' = 'b';\n\nCREATE TABLE t (x INT);\n");
        assertEquals(List.of("SET 'a' = 'b'", "CREATE TABLE t (x INT)"), s);
    }

    @Test
    void keepsSemicolonsAndCommentMarkersInQuotes() throws Exception {
        List<String> s = Statements.split(
                "SELECT 'a;b', 'it''s -- not a comment', `we;ird``id` FROM t; /* c; */ SELECT 1");
        assertEquals(List.of("SELECT 'a;b', 'it''s -- not a comment', `we;ird``id` FROM t", "SELECT 1"), s);
    }

    @Test
    void dropsComments() throws Exception {
        List<String> s = Statements.split("SELECT 1 -- one; two\n, 2 /* x;\n y */ FROM t;");
        assertEquals(1, s.size());
        assertEquals("SELECT 1 \n, 2   FROM t", s.get(0));
    }

    @Test
    void keepsStatementSetTogether() throws Exception {
        List<String> s = Statements.split(
                "SET 'x' = 'y';\nEXECUTE STATEMENT SET BEGIN\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND;\n");
        assertEquals(2, s.size());
        assertEquals("EXECUTE STATEMENT SET BEGIN\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND", s.get(1));
    }

    @Test
    void eachStatementKnowsTheLineItStartsOn() throws Exception {
        List<Statements.Statement> s = Statements.splitWithLines(
                "-- head\n\nSET 'a' = 'b';\n/* c\n d */ CREATE TABLE t (\n x INT);\n\n'lit'\n;INSERT INTO t\nSELECT 1;\n"
                        + "EXECUTE STATEMENT SET BEGIN\nINSERT INTO a SELECT 1;\nEND;\n");
        assertEquals(List.of(3, 5, 8, 9, 11), s.stream().map(x -> x.line).toList());
        assertEquals("CREATE TABLE t (\n x INT)", s.get(1).text);
    }

    @Test
    void refusesUnterminated() {
        assertThrows(Statements.SyntaxException.class, () -> Statements.split("SELECT 'abc;"));
        assertThrows(Statements.SyntaxException.class, () -> Statements.split("SELECT `abc;"));
        assertThrows(Statements.SyntaxException.class, () -> Statements.split("SELECT 1 /* abc;"));
        assertThrows(Statements.SyntaxException.class,
                () -> Statements.split("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1;"));
    }
}

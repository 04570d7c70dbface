// SPDX-License-Identifier: Apache-2.0
package fluid.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a Flink SQL script into statements.
 *
 * <p>A statement ends at a semicolon outside string literals ('...', with ''
 * for a quote), quoted identifiers (`...`, with `` for a backtick), double
 * quoted text and comments. Comments ({@code -- ...} to the end of the line,
 * {@code /* ... *}{@code /}) are dropped; a comment marker inside a literal is
 * text, not a comment (unlike the operator's example runner, which strips
 * comments with a regular expression). {@code EXECUTE STATEMENT SET BEGIN ...
 * END;} is kept as one statement. Statements that are empty after dropping
 * comments are left out.
 */
public final class Statements {
    private Statements() {}

    /** Thrown for an unterminated literal, identifier or comment. */
    public static final class SyntaxException extends Exception {
        public SyntaxException(String msg) {
            super(msg);
        }
    }

    /** A statement and the line of the script its text starts on. */
    public static final class Statement {
        public final String text;
        public final int line;

        Statement(String text, int line) {
            this.text = text;
            this.line = line;
        }
    }

    public static List<String> split(String script) throws SyntaxException {
        List<String> out = new ArrayList<>();
        for (Statement s : splitWithLines(script)) {
            out.add(s.text);
        }
        return out;
    }

    /** As split, each statement with the line its first word is on. */
    public static List<Statement> splitWithLines(String script) throws SyntaxException {
        List<String> raw = new ArrayList<>();
        List<Integer> rawLine = new ArrayList<>();
        int first = -1;
        StringBuilder cur = new StringBuilder();
        int n = script.length();
        int line = 1;
        for (int i = 0; i < n; i++) {
            char c = script.charAt(i);
            if (c == '\n') {
                line++;
            }
            if (c == '\'' || c == '`' || c == '"') {
                int start = line;
                if (first < 0) {
                    first = line;
                }
                cur.append(c);
                i++;
                boolean closed = false;
                while (i < n) {
                    char d = script.charAt(i);
                    if (d == '\n') {
                        line++;
                    }
                    cur.append(d);
                    if (d == c) {
                        if (i + 1 < n && script.charAt(i + 1) == c) {
                            cur.append(c);
                            i += 2;
                            continue;
                        }
                        closed = true;
                        break;
                    }
                    i++;
                }
                if (!closed) {
                    throw new SyntaxException(
                            "line " + start + ": unterminated " + what(c));
                }
            } else if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                while (i < n && script.charAt(i) != '\n') {
                    i++;
                }
                if (i < n) {
                    cur.append('\n');
                    line++;
                }
            } else if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int start = line;
                int end = script.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new SyntaxException("line " + start + ": unterminated comment");
                }
                for (int k = i; k < end; k++) {
                    if (script.charAt(k) == '\n') {
                        line++;
                    }
                }
                cur.append(' ');
                i = end + 1;
            } else if (c == ';') {
                raw.add(cur.toString());
                rawLine.add(first < 0 ? line : first);
                cur.setLength(0);
                first = -1;
            } else {
                if (first < 0 && !Character.isWhitespace(c)) {
                    first = line;
                }
                cur.append(c);
            }
        }
        raw.add(cur.toString());
        rawLine.add(first < 0 ? line : first);

        List<Statement> out = new ArrayList<>();
        StringBuilder set = null;
        int setLine = 0;
        for (int k = 0; k < raw.size(); k++) {
            String t = raw.get(k).strip();
            if (set != null) {
                set.append(";\n").append(t);
                if (t.toUpperCase(Locale.ROOT).equals("END")) {
                    out.add(new Statement(set.toString(), setLine));
                    set = null;
                }
                continue;
            }
            if (t.isEmpty()) {
                continue;
            }
            if (startsWithWords(t, "EXECUTE", "STATEMENT", "SET") || startsWithWords(t, "BEGIN", "STATEMENT", "SET")) {
                set = new StringBuilder(t);
                setLine = rawLine.get(k);
                continue;
            }
            out.add(new Statement(t, rawLine.get(k)));
        }
        if (set != null) {
            throw new SyntaxException("statement set without END");
        }
        return out;
    }

    /**
     * Whether stmt holds "/*+" anywhere (a SQL hint; fluid writes none). By
     * the text alone, so that a literal holding it is refused too: the
     * cautious side.
     */
    public static boolean hasHint(String stmt) {
        return stmt.contains("/*+");
    }

    /** True if the statement's first words are these, case-insensitively. */
    public static boolean startsWithWords(String stmt, String... words) {
        String[] got = stmt.strip().split("\\s+", words.length + 1);
        if (got.length < words.length) {
            return false;
        }
        for (int i = 0; i < words.length; i++) {
            if (!got[i].equalsIgnoreCase(words[i])) {
                return false;
            }
        }
        return true;
    }

    private static String what(char q) {
        switch (q) {
            case '\'':
                return "string literal";
            case '`':
                return "quoted identifier";
            default:
                return "double-quoted text";
        }
    }
}

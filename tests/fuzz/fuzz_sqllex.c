/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_sqllex.c - the lexer that judges a build's own SQL (sqllex.h).
 *
 * The input, up to its first NUL, is the SQL.  Properties:
 *  - sqllex_next() covers the text: tokens follow each other with only
 *    white space between them, each at least one byte, up to the end;
 *  - a text sqllex_query() accepts, sqllex_statement() accepts;
 *  - a text sqllex_query() accepts, wrapped as sqlgen.c's insert()
 *    wraps it, is still one statement: sqllex_statement() accepts the
 *    whole, the wrapper's ')' is a token of its own that closes the
 *    wrapper's '(' and nothing else, and for the operator's runner no
 *    line but the last ends with ';' and no comment marker appears.
 */
#include "fuzz.h"
#include "sqllex.h"

#define HEAD	"INSERT INTO `t` (`a`)\nSELECT\n  `q`.`a` AS `a`\nFROM (\n"
#define TAIL	"\n) AS `q`;\n"

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v';
}

static void
covers(const char *s)
{
	struct sqllex_tok t;
	size_t pos = 0, i, n = strlen(s);

	for (;;) {
		sqllex_next(s, pos, &t);
		if (t.off < pos || t.off > n)
			fuzz_fail("a token before the last one's end");
		for (i = pos; i < t.off; i++)
			if (!is_space(s[i]))
				fuzz_fail("a byte skipped that is no space");
		if (t.kind == SQLLEX_END) {
			if (t.off != n)
				fuzz_fail("the end before the text's end");
			return;
		}
		if (t.len == 0 || t.off + t.len > n)
			fuzz_fail("a token of no bytes or past the end");
		if (t.kind == SQLLEX_OPEN && t.off + t.len != n)
			fuzz_fail("an open token that stops before the end");
		pos = t.off + t.len;
	}
}

/* The wrapped query stays one statement, for Flink and for the runner. */
static void
wrapped(const char *s)
{
	struct sqllex_tok t;
	struct sb w;
	size_t off, pos, close = strlen(HEAD) + strlen(s) + 1, depth = 0;
	const char *line, *nl, *end, *last = NULL;
	int found = 0;

	sb_init(&w);
	sb_adds(&w, HEAD);
	sb_adds(&w, s);
	sb_adds(&w, TAIL);
	if (sqllex_statement(w.buf, &off) != SQLLEX_OK)
		fuzz_fail("an accepted query, wrapped, is not one statement");
	for (pos = 0;; pos = t.off + t.len) {
		sqllex_next(w.buf, pos, &t);
		if (t.kind == SQLLEX_END || t.off > close)
			break;
		if (t.kind == SQLLEX_PUNCT && w.buf[t.off] == '(')
			depth++;
		else if (t.kind == SQLLEX_PUNCT && w.buf[t.off] == ')') {
			if (t.off == close && depth == 1)
				found = 1;
			depth--;
		}
	}
	if (!found)
		fuzz_fail("the wrapper's ')' closes something else");
	if (strstr(w.buf, "--") || strstr(w.buf, "/*") || strstr(w.buf, "*/"))
		fuzz_fail("a comment marker the runner would strip");
	/*
	 * The runner: a statement ends at a line whose text, trimmed as
	 * Java's trim() does (every byte up to ' '), ends with ';'.
	 */
	for (line = w.buf; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
		for (end = nl; end > line && (unsigned char)end[-1] <= ' '; end--)
			;
		if (end > line && end[-1] == ';') {
			if (last != NULL)
				fuzz_fail("the runner splits the wrapped query");
			last = nl;
		}
	}
	if (last == NULL || last[1] != '\0')
		fuzz_fail("the wrapper's ';' is not the script's last");
	sb_release(&w);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;
	size_t off;
	enum sqllex_err q, st;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	s = fuzz_cstr(data, size);
	covers(s);
	st = sqllex_statement(s, &off);
	if (st != SQLLEX_OK && off > strlen(s))
		fuzz_fail("a refusal past the text's end");
	q = sqllex_query(s, &off);
	if (q != SQLLEX_OK && off > strlen(s))
		fuzz_fail("a query refusal past the text's end");
	if (q == SQLLEX_OK) {
		if (st != SQLLEX_OK)
			fuzz_fail("a query accepted that is no statement");
		wrapped(s);
	}
	if (strcmp(sqllex_why(q), "?") == 0)
		fuzz_fail("a reason without words");
	free(s);
	return 0;
}

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_sqllex.c - unit tests for lib/sqllex.c, the lexer that judges a
 * build's own SQL in fluid-check and again in fluid-sqlgen.
 *
 * The expected tokens and verdicts were worked out by hand from Flink
 * 1.20's (Calcite's) lexical rules: '...' with '' for a quote and no
 * backslash escape, `...` and "..." with a doubled quote, "--" to the end
 * of the line, slash-star comments that do not nest, slash-star-plus
 * hints; and from the operator's SQL runner, which strips comments and
 * splits at a line's ";" without reading literals.
 */
#include <stdlib.h>
#include <string.h>

#include "sqllex.h"
#include "tap.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* The kinds of s's tokens as letters, e.g. "wpsq". */
static const char *
kinds(const char *s)
{
	static char buf[64];
	static const char letter[] = {
		[SQLLEX_END] = '.', [SQLLEX_WORD] = 'w',
		[SQLLEX_STRING] = 's', [SQLLEX_QUOTED] = 'q',
		[SQLLEX_COMMENT] = 'c', [SQLLEX_HINT] = 'h',
		[SQLLEX_PUNCT] = 'p', [SQLLEX_OPEN] = 'o',
	};
	struct sqllex_tok t;
	size_t n = 0, pos = 0;

	do {
		sqllex_next(s, pos, &t);
		buf[n++] = letter[t.kind];
		pos = t.off + t.len;
	} while (t.kind != SQLLEX_END && n < sizeof(buf) - 1);
	buf[n] = '\0';
	return buf;
}

static const struct {
	const char	*s;
	const char	*kinds;
} tokens[] = {
	{ "SELECT a", "ww." },
	{ "'it''s'", "s." },
	{ "'a\\' b", "sw." },		/* no backslash escape */
	{ "`a``b`.\"c\"\"d\"", "qpq." },
	{ "U&'\\00e9'", "wps." },
	{ "a -- x 'y\nb", "wcw." },	/* a quote in a comment */
	{ "a /* ' */ b", "wcw." },
	{ "/*+ OPTIONS() */", "h." },
	{ "/* /* */ */", "cpp." },	/* comments do not nest */
	{ "'open", "o." },
	{ "`open", "o." },
	{ "/* open", "o." },
	{ "x>=1.5e3", "wppwpw." },
	{ "\xc3\xa9t\xc3\xa9 $x", "ww." },
	{ "  \t\n", "." },
};

static const struct {
	const char	*s;
	enum sqllex_err	 stmt, query;
	size_t		 off;		/* where, if refused */
} verdicts[] = {
	{ "SELECT a FROM source_events", SQLLEX_OK, SQLLEX_OK, 0 },
	{ "SELECT f(a, b[1]) FROM t", SQLLEX_OK, SQLLEX_OK, 0 },
	{ "SELECT ')' , '(' FROM t", SQLLEX_OK, SQLLEX_OK, 0 },
	{ "SELECT `)` FROM t", SQLLEX_OK, SQLLEX_OK, 0 },
	{ "SELECT a FROM t;", SQLLEX_OK, SQLLEX_SEMICOLON, 15 },
	{ "SELECT a FROM t; -- end", SQLLEX_OK, SQLLEX_SEMICOLON, 15 },
	{ "SELECT 1; DROP TABLE t", SQLLEX_STATEMENTS, SQLLEX_SEMICOLON, 8 },
	{ "SELECT ';' FROM t", SQLLEX_OK, SQLLEX_SEMICOLON, 8 },
	{ "SELECT a WHERE b = '", SQLLEX_OPEN_STRING, SQLLEX_OPEN_STRING, 19 },
	{ "SELECT 'it''", SQLLEX_OPEN_STRING, SQLLEX_OPEN_STRING, 7 },
	{ "SELECT `a", SQLLEX_OPEN_IDENT, SQLLEX_OPEN_IDENT, 7 },
	{ "SELECT \"a", SQLLEX_OPEN_IDENT, SQLLEX_OPEN_IDENT, 7 },
	{ "SELECT a /* b", SQLLEX_OPEN_COMMENT, SQLLEX_COMMENTED, 9 },
	{ "SELECT a) AS q", SQLLEX_CLOSE, SQLLEX_CLOSE, 8 },
	{ "SELECT a[(1])", SQLLEX_CLOSE, SQLLEX_CLOSE, 11 },
	{ "SELECT f((a)", SQLLEX_UNCLOSED, SQLLEX_UNCLOSED, 8 },
	{ "", SQLLEX_EMPTY, SQLLEX_EMPTY, 0 },
	{ "-- only", SQLLEX_EMPTY, SQLLEX_DASHES, 0 },
	{ ";", SQLLEX_EMPTY, SQLLEX_SEMICOLON, 0 },
	{ "SELECT 'a--b'", SQLLEX_OK, SQLLEX_DASHES, 9 },
	{ "SELECT '*/'", SQLLEX_OK, SQLLEX_COMMENTED, 8 },
	{ "SELECT /*+ X */ 1", SQLLEX_OK, SQLLEX_HINTED, 7 },
	{ "SELECT 'a\n b'", SQLLEX_OK, SQLLEX_LINE_IN_QUOTE, 9 },
	{ "SELECT `a\rb`", SQLLEX_OK, SQLLEX_LINE_IN_QUOTE, 9 },
	{ "SELECT a,\n b\r\nFROM t", SQLLEX_OK, SQLLEX_OK, 0 },
	{ "SELECT a\x01", SQLLEX_OK, SQLLEX_CONTROL, 8 },
	{ "SELECT a\x7f", SQLLEX_OK, SQLLEX_CONTROL, 8 },
	{ "SELECT a\n  Execute Statement Set x", SQLLEX_OK,
	    SQLLEX_STATEMENT_SET, 11 },
	{ "SELECT 'EXECUTE STATEMENT SET'", SQLLEX_OK, SQLLEX_OK, 0 },
};

int
main(void)
{
	size_t i, off;
	enum sqllex_err e;
	struct sqllex_tok t;

	for (i = 0; i < NELEM(tokens); i++)
		is_str(kinds(tokens[i].s), tokens[i].kinds, "tokens #%zu", i);

	sqllex_next("  'a''b' x", 0, &t);
	ok(t.kind == SQLLEX_STRING && t.off == 2 && t.len == 6,
	    "a literal's offset and length include its quotes");
	sqllex_next("a -- b\nc", 1, &t);
	ok(t.kind == SQLLEX_COMMENT && t.off == 2 && t.len == 4,
	    "a line comment stops before the line break");

	for (i = 0; i < NELEM(verdicts); i++) {
		off = (size_t)-1;
		e = sqllex_statement(verdicts[i].s, &off);
		is_int(e, verdicts[i].stmt, "sqllex_statement #%zu", i);
		if (verdicts[i].stmt != SQLLEX_OK &&
		    verdicts[i].stmt == verdicts[i].query)
			is_int(off, verdicts[i].off,
			    "sqllex_statement #%zu: where", i);
		off = (size_t)-1;
		e = sqllex_query(verdicts[i].s, &off);
		is_int(e, verdicts[i].query, "sqllex_query #%zu", i);
		if (e != SQLLEX_OK)
			is_int(off, verdicts[i].off, "sqllex_query #%zu: where",
			    i);
	}
	for (e = SQLLEX_OK; e <= SQLLEX_STATEMENT_SET; e++)
		ok(strcmp(sqllex_why(e), "?") != 0, "sqllex_why(%d) has words",
		    (int)e);
	return done_testing();
}

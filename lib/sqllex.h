/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqllex.h - Flink SQL read as tokens, for the one kind of SQL fluid
 * writes without quoting it: a build's own query (properties.sql).
 *
 * fluid-check judges that query with sqllex_query() before the IR is
 * written, and fluid-sqlgen judges it again with the same function
 * before it writes the query inside its INSERT, because it reads
 * whatever document it is given.  The lexer knows Flink 1.20's
 * (Calcite's) lexical forms: '...' literals with '' for a quote and no
 * backslash escape (U&'...' and X'...' are a word, maybe '&', and one),
 * `...` and "..." quoted identifiers with a doubled quote inside, "--"
 * comments to the end of the line, slash-star comments (not nested) and
 * slash-star-plus hints.  Offsets are in bytes; nothing here allocates
 * but sqllex_statement()'s bracket stack.
 */
#ifndef FLUID_SQLLEX_H
#define FLUID_SQLLEX_H

#include <stddef.h>

enum sqllex_kind {
	SQLLEX_END,		/* the end of the text */
	SQLLEX_WORD,		/* a keyword, plain identifier or number */
	SQLLEX_STRING,		/* '...' */
	SQLLEX_QUOTED,		/* `...` or "...", a quoted identifier */
	SQLLEX_COMMENT,		/* "--" to the line's end, or slash-star */
	SQLLEX_HINT,		/* slash-star-plus ... star-slash */
	SQLLEX_PUNCT,		/* one other character: ( ) [ ] ; , . + ... */
	SQLLEX_OPEN		/* a quote or comment the text never closes:
				   the text at off says which */
};

struct sqllex_tok {
	enum sqllex_kind kind;
	size_t		 off;	/* where it starts in the text */
	size_t		 len;	/* bytes, quotes and delimiters included */
};

/* The token at or after s + off, past white space. */
void	sqllex_next(const char *s, size_t off, struct sqllex_tok *);

/* Why a text is refused; each has its words in sqllex_why(). */
enum sqllex_err {
	SQLLEX_OK,
	SQLLEX_EMPTY,		/* no token but comments */
	SQLLEX_OPEN_STRING,	/* a '...' never closed */
	SQLLEX_OPEN_IDENT,	/* a `...` or "..." never closed */
	SQLLEX_OPEN_COMMENT,	/* a slash-star never closed */
	SQLLEX_CLOSE,		/* ')' or ']' closes nothing, or another */
	SQLLEX_UNCLOSED,	/* '(' or '[' never closed */
	SQLLEX_STATEMENTS,	/* a ';' with a token after it */
	/* Only sqllex_query() refuses these. */
	SQLLEX_CONTROL,		/* a control character but tab, CR, LF */
	SQLLEX_SEMICOLON,	/* ';' anywhere, a literal's included */
	SQLLEX_HINTED,		/* a hint */
	SQLLEX_DASHES,		/* "--" anywhere */
	SQLLEX_COMMENTED,	/* slash-star or star-slash anywhere */
	SQLLEX_LINE_IN_QUOTE,	/* a line break inside a quoted token */
	SQLLEX_STATEMENT_SET	/* a line starting EXECUTE STATEMENT SET */
};

/*
 * Is s lexically one statement: every quote and comment closed, the
 * brackets ( ) [ ] balanced and nested, and no token after a ';' at its
 * end (so a statement set, with its inner ';', is not one)?  On refusal
 * *off is the byte where the problem starts.
 */
enum sqllex_err	sqllex_statement(const char *s, size_t *off);

/*
 * Can s be written as it is inside "FROM (\n" s "\n) AS q;" and stay
 * that one query, for Flink and for the operator's SQL runner?  That
 * runner strips "--" and slash-star comments with a regular expression
 * that does not know literals, splits statements at every line ending
 * in ";", trims and drops lines, and reads a line starting EXECUTE
 * STATEMENT SET as a statement set's start.  So on top of
 * sqllex_statement(): no ';' at all, no "--", slash-star or star-slash
 * even in a literal, no line break in a quoted token, no such line, and
 * no control character but tab, CR and LF.
 */
enum sqllex_err	sqllex_query(const char *s, size_t *off);

/* The reason, as a diagnostic's words ("a '...' literal is not closed"). */
const char	*sqllex_why(enum sqllex_err);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqllex.c - Flink SQL tokens and the own query's lexical rules (see
 * sqllex.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sqllex.h"
#include "xalloc.h"

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v';
}

/* Calcite's identifier characters; any non-ASCII byte is a letter's. */
static bool
is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '$' ||
	    (unsigned char)c >= 0x80;
}

void
sqllex_next(const char *s, size_t off, struct sqllex_tok *t)
{
	const char *p = s + off, *q;
	char c;

	while (is_space(*p))
		p++;
	t->off = (size_t)(p - s);
	c = *p;
	if (c == '\0') {
		t->kind = SQLLEX_END;
		t->len = 0;
		return;
	}
	if (c == '\'' || c == '"' || c == '`') {
		/* A doubled quote stands for one and does not close it. */
		for (q = p + 1; *q != '\0'; q++)
			if (*q == c) {
				if (q[1] != c)
					break;
				q++;
			}
		t->kind = *q == '\0' ? SQLLEX_OPEN : c == '\'' ?
		    SQLLEX_STRING : SQLLEX_QUOTED;
		t->len = (size_t)(q - p) + (*q != '\0');
		return;
	}
	if (c == '-' && p[1] == '-') {
		q = strchr(p, '\n');
		t->kind = SQLLEX_COMMENT;
		t->len = q != NULL ? (size_t)(q - p) : strlen(p);
		return;
	}
	if (c == '/' && p[1] == '*') {
		q = strstr(p + 2, "*/");
		t->kind = q == NULL ? SQLLEX_OPEN : p[2] == '+' ? SQLLEX_HINT :
		    SQLLEX_COMMENT;
		t->len = q != NULL ? (size_t)(q - p) + 2 : strlen(p);
		return;
	}
	if (is_word(c)) {
		for (q = p; is_word(*q); q++)
			;
		t->kind = SQLLEX_WORD;
		t->len = (size_t)(q - p);
		return;
	}
	t->kind = SQLLEX_PUNCT;
	t->len = 1;
}

static enum sqllex_err
open_err(const char *s, const struct sqllex_tok *t)
{
	switch (s[t->off]) {
	case '\'':
		return SQLLEX_OPEN_STRING;
	case '/':
		return SQLLEX_OPEN_COMMENT;
	default:
		return SQLLEX_OPEN_IDENT;
	}
}

enum sqllex_err
sqllex_statement(const char *s, size_t *off)
{
	struct sqllex_tok t;
	/* Where the open brackets are, innermost last. */
	size_t *stack = xcalloc(strlen(s) + 1, sizeof(*stack));
	size_t depth = 0, pos = 0, semi = 0;
	bool any = false, after_semi = false;
	enum sqllex_err err = SQLLEX_OK;

	for (;; pos = t.off + t.len) {
		sqllex_next(s, pos, &t);
		if (t.kind == SQLLEX_END)
			break;
		*off = t.off;
		if (t.kind == SQLLEX_OPEN) {
			err = open_err(s, &t);
			goto out;
		}
		if (t.kind == SQLLEX_COMMENT || t.kind == SQLLEX_HINT)
			continue;
		if (after_semi) {
			*off = semi;
			err = SQLLEX_STATEMENTS;
			goto out;
		}
		if (t.kind != SQLLEX_PUNCT) {
			any = true;
			continue;
		}
		switch (s[t.off]) {
		case '(':
		case '[':
			stack[depth++] = t.off;
			break;
		case ')':
		case ']':
			if (depth == 0 || s[stack[depth - 1]] !=
			    (s[t.off] == ')' ? '(' : '[')) {
				err = SQLLEX_CLOSE;
				goto out;
			}
			depth--;
			break;
		case ';':
			if (!any) {
				err = SQLLEX_EMPTY;
				goto out;
			}
			after_semi = true;
			semi = t.off;
			break;
		default:
			break;
		}
		any = true;
	}
	*off = t.off;
	if (!any)
		err = SQLLEX_EMPTY;
	else if (depth > 0) {
		/* The outermost bracket left open. */
		err = SQLLEX_UNCLOSED;
		*off = stack[0];
	}
out:
	free(stack);
	return err;
}

/* The first byte of s from which text starts, or NULL. */
static const char *
find(const char *s, const char *text, size_t *off)
{
	const char *p = strstr(s, text);

	if (p != NULL)
		*off = (size_t)(p - s);
	return p;
}

enum sqllex_err
sqllex_query(const char *s, size_t *off)
{
	struct sqllex_tok t;
	const char *p, *q;
	enum sqllex_err err;
	size_t a, b, pos;

	for (p = s; *p != '\0'; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t' && *p != '\n' &&
		    *p != '\r') || *p == 0x7f) {
			*off = (size_t)(p - s);
			return SQLLEX_CONTROL;
		}
	/* What the runner acts on wherever it is, literals included. */
	if (find(s, ";", off))
		return SQLLEX_SEMICOLON;
	if (find(s, "/*+", off))
		return SQLLEX_HINTED;
	if (find(s, "--", off))
		return SQLLEX_DASHES;
	if (find(s, "/*", &a) || find(s, "*/", &b)) {
		*off = strstr(s, "/*") ? a : b;
		return SQLLEX_COMMENTED;
	}
	if ((err = sqllex_statement(s, off)) != SQLLEX_OK)
		return err;
	/* The runner trims each line and drops the empty ones. */
	for (pos = 0;; pos = t.off + t.len) {
		sqllex_next(s, pos, &t);
		if (t.kind == SQLLEX_END)
			break;
		if (t.kind != SQLLEX_STRING && t.kind != SQLLEX_QUOTED)
			continue;
		for (q = s + t.off; q < s + t.off + t.len; q++)
			if (*q == '\n' || *q == '\r') {
				*off = (size_t)(q - s);
				return SQLLEX_LINE_IN_QUOTE;
			}
	}
	for (p = s; p != NULL; p = (p = strchr(p, '\n')) ? p + 1 : NULL) {
		for (q = p; *q == ' ' || *q == '\t' || *q == '\r'; q++)
			;
		if (strncasecmp(q, "EXECUTE STATEMENT SET", 21) == 0) {
			*off = (size_t)(q - s);
			return SQLLEX_STATEMENT_SET;
		}
	}
	return SQLLEX_OK;
}

const char *
sqllex_why(enum sqllex_err e)
{
	switch (e) {
	case SQLLEX_OK:
		return "one statement";
	case SQLLEX_EMPTY:
		return "there is no statement";
	case SQLLEX_OPEN_STRING:
		return "a '...' literal is not closed";
	case SQLLEX_OPEN_IDENT:
		return "a quoted identifier (`...` or \"...\") is not closed";
	case SQLLEX_OPEN_COMMENT:
		return "a comment is not closed";
	case SQLLEX_CLOSE:
		return "a closing bracket (')' or ']') does not close the "
		    "last one opened";
	case SQLLEX_UNCLOSED:
		return "an opening bracket ('(' or '[') is not closed";
	case SQLLEX_STATEMENTS:
		return "it is more than one statement";
	case SQLLEX_CONTROL:
		return "control characters are refused";
	case SQLLEX_SEMICOLON:
		return "semicolons are refused: the SQL is one SELECT, and "
		    "the in-pod SQL runner splits statements at a line's "
		    "';' without reading literals";
	case SQLLEX_HINTED:
		return "SQL hints (/*+ ... */) are refused";
	case SQLLEX_DASHES:
		return "'--' is refused: the in-pod SQL runner strips line "
		    "comments without reading literals";
	case SQLLEX_COMMENTED:
		return "comments ('/*', '*/') are refused: the in-pod SQL "
		    "runner strips them without reading literals";
	case SQLLEX_LINE_IN_QUOTE:
		return "a line break inside a literal or quoted identifier "
		    "is refused: the in-pod SQL runner trims and drops lines";
	case SQLLEX_STATEMENT_SET:
		return "a line starting 'EXECUTE STATEMENT SET' is refused: "
		    "the in-pod SQL runner reads it as a statement set";
	}
	return "?";
}

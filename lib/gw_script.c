/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * gw_script.c - a script as the statements the SQL Gateway runs one at
 * a time, and Flink's reasons without their stack traces (see gw.h).
 * Pure: no network, no process.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gw.h"
#include "sqllex.h"
#include "xalloc.h"

/* A name in an "ok:" line stays readable: longer ones are cut. */
#define GW_MAX_NAME	200
/* Lines of one exception's message kept in a reason. */
#define GW_REASON_LINES	3
#define GW_MAX_REASON	1000

static bool
is_word(const char *s, const struct sqllex_tok *t, const char *w)
{
	return t->kind == SQLLEX_WORD && strlen(w) == t->len &&
	    strncasecmp(s + t->off, w, t->len) == 0;
}

static bool
is_punct(const char *s, const struct sqllex_tok *t, char c)
{
	return t->kind == SQLLEX_PUNCT && s[t->off] == c;
}

/* The next token that is not a comment or a hint. */
static void
next_sig(const char *s, size_t off, struct sqllex_tok *t)
{
	do {
		sqllex_next(s, off, t);
		off = t->off + t->len;
	} while (t->kind == SQLLEX_COMMENT || t->kind == SQLLEX_HINT);
}

static size_t
line_at(const char *s, size_t off)
{
	size_t i, n = 1;

	for (i = 0; i < off; i++)
		if (s[i] == '\n')
			n++;
	return n;
}

/* An identifier token as its name: quotes removed, doubled ones halved. */
static void
add_ident(struct sb *sb, const char *s, const struct sqllex_tok *t)
{
	size_t i;
	char q;

	if (t->kind != SQLLEX_QUOTED || t->len < 2) {
		sb_addn(sb, s + t->off, t->len);
		return;
	}
	q = s[t->off];
	for (i = t->off + 1; i < t->off + t->len - 1; i++) {
		sb_addc(sb, s[i]);
		if (s[i] == q && s[i + 1] == q)
			i++;
	}
}

/* A '...' literal's text. */
static void
add_literal(struct sb *sb, const char *s, const struct sqllex_tok *t)
{
	size_t i;

	for (i = t->off + 1; t->len >= 2 && i < t->off + t->len - 1; i++) {
		sb_addc(sb, s[i]);
		if (s[i] == '\'' && s[i + 1] == '\'')
			i++;
	}
}

/*
 * The kind of the statement text st and what it names: the dotted name
 * after its keywords, a SET's key.
 */
static void
classify(struct gw_stmt *st)
{
	const char *s = st->text;
	struct sqllex_tok t;
	struct sb sb;
	bool temp = false;

	st->kind = GW_OTHER;
	st->name = NULL;
	next_sig(s, 0, &t);
	if (is_word(s, &t, "SET")) {
		st->kind = GW_SET;
		next_sig(s, t.off + t.len, &t);
		if (t.kind == SQLLEX_STRING) {
			sb_init(&sb);
			add_literal(&sb, s, &t);
			st->name = sb.buf ? sb.buf : xstrdup("");
		}
		return;
	}
	if (is_word(s, &t, "EXECUTE") || is_word(s, &t, "BEGIN")) {
		next_sig(s, t.off + t.len, &t);
		if (is_word(s, &t, "STATEMENT")) {
			st->kind = GW_STATEMENT_SET;
			return;
		}
		if (!is_word(s, &t, "INSERT"))
			return;
	}
	if (is_word(s, &t, "INSERT")) {
		st->kind = GW_INSERT;
		next_sig(s, t.off + t.len, &t);
		if (is_word(s, &t, "INTO") || is_word(s, &t, "OVERWRITE"))
			next_sig(s, t.off + t.len, &t);
	} else if (is_word(s, &t, "CREATE")) {
		next_sig(s, t.off + t.len, &t);
		if (is_word(s, &t, "OR")) {	/* OR REPLACE */
			next_sig(s, t.off + t.len, &t);
			next_sig(s, t.off + t.len, &t);
		}
		if (is_word(s, &t, "TEMPORARY")) {
			temp = true;
			next_sig(s, t.off + t.len, &t);
			if (is_word(s, &t, "SYSTEM"))
				next_sig(s, t.off + t.len, &t);
		}
		if (is_word(s, &t, "CATALOG"))
			st->kind = GW_CATALOG;
		else if (is_word(s, &t, "DATABASE"))
			st->kind = GW_DATABASE;
		else if (is_word(s, &t, "TABLE"))
			st->kind = temp ? GW_SOURCE : GW_TABLE;
		else if (is_word(s, &t, "VIEW"))
			st->kind = GW_VIEW;
		else
			return;
		next_sig(s, t.off + t.len, &t);
		if (is_word(s, &t, "IF")) {	/* IF NOT EXISTS */
			next_sig(s, t.off + t.len, &t);
			next_sig(s, t.off + t.len, &t);
			next_sig(s, t.off + t.len, &t);
		}
	} else
		return;
	sb_init(&sb);
	while ((t.kind == SQLLEX_WORD || t.kind == SQLLEX_QUOTED) &&
	    sb.len < GW_MAX_NAME) {
		add_ident(&sb, s, &t);
		next_sig(s, t.off + t.len, &t);
		if (!is_punct(s, &t, '.'))
			break;
		sb_addc(&sb, '.');
		next_sig(s, t.off + t.len, &t);
	}
	if (sb.len > GW_MAX_NAME) {
		sb_truncate(&sb, GW_MAX_NAME);
		sb_adds(&sb, "...");
	}
	st->name = sb.buf;
}

static void
add_stmt(struct gw_script *sc, const char *sql, size_t from, size_t to)
{
	struct gw_stmt *st;

	sc->v = xreallocarray(sc->v, sc->n + 1, sizeof(*sc->v));
	st = &sc->v[sc->n++];
	st->text = xstrndup(sql + from, to - from);
	st->line = line_at(sql, from);
	classify(st);
}

int
gw_script_split(const char *sql, struct gw_script *sc, const char **why,
    size_t *line)
{
	struct sqllex_tok t, first, prev;
	size_t off = 0, start, end;
	bool set;

	memset(sc, 0, sizeof(*sc));
	for (;;) {
		next_sig(sql, off, &t);
		while (is_punct(sql, &t, ';'))	/* an empty statement */
			next_sig(sql, t.off + t.len, &t);
		if (t.kind == SQLLEX_END)
			break;
		start = t.off;
		first = t;
		prev = t;
		set = false;
		/* EXECUTE STATEMENT SET or BEGIN STATEMENT SET: to END; */
		if (is_word(sql, &first, "EXECUTE") ||
		    is_word(sql, &first, "BEGIN")) {
			next_sig(sql, first.off + first.len, &t);
			set = is_word(sql, &t, "STATEMENT");
			t = first;
		}
		for (;;) {
			if (t.kind == SQLLEX_OPEN) {
				*line = line_at(sql, t.off);
				*why = sql[t.off] == '\'' ? "a '...' literal "
				    "is not closed" : sql[t.off] == '/' ?
				    "a comment is not closed" :
				    "a quoted identifier is not closed";
				gw_script_release(sc);
				return -1;
			}
			if (t.kind == SQLLEX_END)
				break;
			if (is_punct(sql, &t, ';') &&
			    (!set || is_word(sql, &prev, "END")))
				break;
			prev = t;
			next_sig(sql, t.off + t.len, &t);
		}
		end = prev.off + prev.len;
		add_stmt(sc, sql, start, end);
		if (t.kind == SQLLEX_END)
			break;
		off = t.off + t.len;
	}
	if (sc->n == 0) {
		*line = 1;
		*why = "the script has no statement";
		return -1;
	}
	return 0;
}

void
gw_script_release(struct gw_script *sc)
{
	size_t i;

	for (i = 0; i < sc->n; i++) {
		free(sc->v[i].text);
		free(sc->v[i].name);
	}
	free(sc->v);
	memset(sc, 0, sizeof(*sc));
}

bool
gw_stmt_starts_job(const struct gw_stmt *st)
{
	return st->kind == GW_INSERT || st->kind == GW_STATEMENT_SET;
}

char *
gw_stmt_label(const struct gw_stmt *st)
{
	static const char *const kinds[] = {
		[GW_SET] = "set", [GW_CATALOG] = "catalog",
		[GW_DATABASE] = "database", [GW_TABLE] = "table",
		[GW_SOURCE] = "source", [GW_VIEW] = "view",
		[GW_INSERT] = "insert", [GW_STATEMENT_SET] = "statement set",
		[GW_OTHER] = "statement"
	};
	struct sb sb;
	const char *p;
	char *out;

	sb_init(&sb);
	sb_adds(&sb, kinds[st->kind]);
	if (st->kind == GW_OTHER) {
		/* Its first word, so that the line says what it was. */
		for (p = st->text; *p != '\0' && !isspace((unsigned char)*p) &&
		    p - st->text < 40; p++)
			;
		sb_addc(&sb, ' ');
		sb_addn(&sb, st->text, (size_t)(p - st->text));
	} else if (st->name != NULL && *st->name != '\0') {
		sb_addc(&sb, ' ');
		sb_adds(&sb, st->name);
	}
	/* Names come from the script: one line, nothing a terminal acts on. */
	out = diag_escape(sb.buf, 0);
	sb_release(&sb);
	return out;
}

/* --- reasons ----------------------------------------------------------- */

/* Whether s (to n) is a Java class name: dotted, no blank. */
static bool
is_class(const char *s, size_t n)
{
	size_t i;
	bool dot = false;

	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] == '.')
			dot = true;
		else if (!isalnum((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '$')
			return false;
	}
	return dot;
}

/* s past every leading "a.b.Class: " (a wrapper repeats its cause's). */
static const char *
strip_classes(const char *s)
{
	const char *c;

	while ((c = strstr(s, ": ")) != NULL && is_class(s, (size_t)(c - s)))
		s = c + 2;
	if (is_class(s, strlen(s)))
		return "";	/* an exception without a message */
	return s;
}

/* The gateway's own wrappers, which say nothing about the statement. */
static bool
generic(const char *m)
{
	static const char *const says_nothing[] = {
		"Internal server error", "Failed to fetchResults",
		"Failed to execute the operation", "Failed to getOperationInfo",
		"Failed to fetch results", NULL
	};
	size_t i;

	if (*m == '\0')
		return true;
	for (i = 0; says_nothing[i] != NULL; i++)
		if (strncmp(m, says_nothing[i], strlen(says_nothing[i])) == 0)
			return true;
	return false;
}

/* A stack frame, "... 12 more", or a blank line: not the message. */
static bool
frame(const char *l, size_t n)
{
	size_t i = 0;

	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	if (i == n)
		return true;
	if (n - i >= 3 && strncmp(l + i, "at ", 3) == 0 && i > 0)
		return true;
	if (n - i >= 4 && strncmp(l + i, "... ", 4) == 0)
		return true;
	return false;
}

/*
 * "<Exception on server side:" and "End of exception on server side>",
 * which Flink's REST handler puts around the chain it sends.
 */
static bool
marker(const char *l, size_t n)
{
	static const char open[] = "<Exception on server side:";
	static const char close[] = "End of exception on server side>";

	while (n > 0 && (l[n - 1] == ' ' || l[n - 1] == '\t'))
		n--;
	if (n >= 11 && strncmp(l, "Caused by: ", 11) == 0)
		l += 11, n -= 11;
	return (n == sizeof(open) - 1 && memcmp(l, open, n) == 0) ||
	    (n == sizeof(close) - 1 && memcmp(l, close, n) == 0);
}

struct cause {
	struct sb	msg;
	size_t		lines;
};

char *
gw_reason(const char *errors)
{
	struct cause *c = NULL;
	size_t nc = 0, i, n, pick;
	const char *l, *e, *m;
	struct sb out;
	bool head, fresh = false;
	char *first;

	for (l = errors; *l != '\0'; l = *e ? e + 1 : e) {
		e = strchr(l, '\n');
		if (e == NULL)
			e = l + strlen(l);
		n = (size_t)(e - l);
		if (n > 0 && l[n - 1] == '\r')
			n--;
		/*
		 * The REST handler's frame around the chain (after another
		 * error string, "Caused by: " too): what follows is an
		 * exception of its own.
		 */
		if (marker(l, n)) {
			fresh = true;
			continue;
		}
		head = nc == 0 || fresh ||
		    (n >= 11 && strncmp(l, "Caused by: ", 11) == 0);
		fresh = false;
		/* A new error string starts a new chain entry too. */
		if (!head && (frame(l, n) || strncmp(l, "\tSuppressed", 11) == 0))
			continue;
		if (head) {
			c = xreallocarray(c, nc + 1, sizeof(*c));
			sb_init(&c[nc].msg);
			c[nc].lines = 0;
			nc++;
			if (strncmp(l, "Caused by: ", 11) == 0)
				l += 11, n -= 11;
		}
		if (c[nc - 1].lines >= GW_REASON_LINES)
			continue;
		if (c[nc - 1].msg.len > 0)
			sb_addc(&c[nc - 1].msg, ' ');
		while (n > 0 && (*l == ' ' || *l == '\t'))
			l++, n--;
		sb_addn(&c[nc - 1].msg, l, n);
		c[nc - 1].lines++;
	}
	sb_init(&out);
	pick = nc;
	for (i = 0; i < nc; i++) {
		m = strip_classes(c[i].msg.buf ? c[i].msg.buf : "");
		if (!generic(m)) {
			pick = i;
			break;
		}
	}
	if (pick < nc) {
		first = xstrdup(strip_classes(c[pick].msg.buf));
		sb_adds(&out, first);
		m = strip_classes(c[nc - 1].msg.buf ? c[nc - 1].msg.buf : "");
		if (pick != nc - 1 && !generic(m) && strstr(first, m) == NULL)
			sb_addf(&out, " (caused by: %s)", m);
		free(first);
	} else
		sb_adds(&out, "the gateway gave no reason");
	for (i = 0; i < nc; i++)
		sb_release(&c[i].msg);
	free(c);
	if (out.len > GW_MAX_REASON) {
		sb_truncate(&out, GW_MAX_REASON);
		sb_adds(&out, "...");
	}
	for (i = 0; i < out.len; i++)
		if ((unsigned char)out.buf[i] < 0x20 || out.buf[i] == 0x7f)
			out.buf[i] = ' ';
	return out.buf;
}

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * diag.c - collecting, placing and printing diagnostics (see diag.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "jptr.h"
#include "utf8.h"
#include "xalloc.h"


void
diags_init(struct diags *d)
{
	memset(d, 0, sizeof(*d));
}

void
diags_release(struct diags *d)
{
	size_t i;

	jptab_free(d->table);

	for (i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].ptr);
		free(d->v[i].msg);
	}
	free(d->v);
	diags_init(d);
}

void
diags_set_resolve(struct diags *d, json_t *section)
{
	jptab_free(d->table);
	d->table = NULL;
	d->decoded = 0;
	d->positions = json_object_get(section, "positions");
	d->files = json_object_get(section, "files");
	d->document = json_object_get(section, "document");
}

/* A number of at most nine digits at *sp, or -1 (none, or too long). */
static long
rec_num(const char **sp)
{
	const char *s = *sp;
	long v = 0;

	while (*s >= '0' && *s <= '9' && s - *sp < 9)
		v = v * 10 + (*s++ - '0');
	if (s == *sp || (*s >= '0' && *s <= '9'))
		return -1;
	*sp = s;
	return v;
}

struct decode_walk {
	struct jptab	*t;
	const char	*s;	/* the next record */
	long		 file;
	long long	 line;
};

/*
 * Take the record of node, at ptr, from the positions (diag.h); its
 * children's come after it.  Stops when the records do not match.
 */
static int
decode_node(json_t *node, const struct sb *ptr, void *arg)
{
	struct decode_walk *w = arg;
	const char *s = w->s;
	long a, col;
	int neg;

	(void)node;
	if (*s == '\0')
		return -1;
	if (*s == '-' && (s[1] == ' ' || s[1] == '\0'))
		s++;
	else {
		neg = *s == '-';
		s += neg;
		a = *s == ',' ? 0 : rec_num(&s);
		if (a == -1)
			return -1;
		if (*s == '@') {
			if (neg)
				return -1;
			w->file = a;
			s++;
			neg = *s == '-';
			s += neg;
			a = *s == ',' ? 0 : rec_num(&s);
			if (a == -1)
				return -1;
		}
		w->line += neg ? -a : a;
		if (*s++ != ',' || (col = rec_num(&s)) < 1 || w->line < 1 ||
		    w->line > 2000000000LL)
			return -1;
		jptab_put(w->t, ptr->buf, ptr->len, (int)w->file,
		    (int)w->line, (int)col);
	}
	if (*s == ' ')
		s++;
	else if (*s != '\0')
		return -1;
	w->s = s;
	return 0;
}

/* The positions as a table, once; NULL when they cannot be used. */
static struct jptab *
decode(struct diags *d)
{
	struct decode_walk w = { NULL, NULL, 0, 0 };
	struct sb ptr;

	if (d->decoded)
		return d->table;
	d->decoded = 1;
	if (d->document == NULL || !json_is_string(d->positions))
		return NULL;
	w.s = json_string_value(d->positions);
	w.t = d->table = jptab_new();
	sb_init(&ptr);
	if (jptr_walk(d->document, &ptr, decode_node, &w) == -1 ||
	    *w.s != '\0') {
		jptab_free(d->table);
		d->table = NULL;
	}
	sb_release(&ptr);
	return d->table;
}


/*
 * Code points that change how a line reads or where it ends, though
 * they are not control characters: the bidi embeddings, overrides,
 * isolates and marks (a "Trojan Source" message would show another
 * name than the one it names), the line and paragraph separators that
 * some terminals and editors break lines at, and the zero-width no-break
 * space (a BOM in the middle of text).
 */
static int
is_invisible(unsigned long cp)
{
	return (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0x200e || cp == 0x200f || cp == 0x061c ||
	    cp == 0x2028 || cp == 0x2029 || cp == 0xfeff;
}

/*
 * Whether the character at p (n bytes, 0 when not UTF-8) must be
 * escaped in a diagnostic.
 */
static int
needs_escape(const unsigned char *p, size_t n, unsigned long cp)
{
	return n == 0 || *p < 0x20 || *p == 0x7f ||
	    (*p == 0xc2 && p[1] < 0xa0) || is_invisible(cp);
}

/*
 * Make s one line of text: diagnostics quote the contract, which may
 * hold newlines, control characters, bytes that are not UTF-8 (which
 * --diagnostics=json cannot carry) or characters that reorder or break
 * what a terminal shows.  Those are written as \n, \r, \t, \xNN (a
 * control character or a byte that is not UTF-8) or \uNNNN (a C1
 * control, or a code point of is_invisible()); everything else is kept
 * as it is.  With DIAG_ESCAPE_LINES, newlines and tabs are kept.
 */
char *
diag_escape(const char *s, int flags)
{
	const unsigned char *p;
	unsigned long cp = 0;
	struct sb sb;
	size_t n;
	int lines = (flags & DIAG_ESCAPE_LINES) != 0;

	sb_init(&sb);
	for (p = (const unsigned char *)s; *p != '\0'; p += n) {
		n = utf8_char(p, &cp);
		if (lines && (*p == '\n' || *p == '\t'))
			sb_addc(&sb, (char)*p);
		else if (*p == '\n')
			sb_adds(&sb, "\\n");
		else if (*p == '\r')
			sb_adds(&sb, "\\r");
		else if (*p == '\t')
			sb_adds(&sb, "\\t");
		else if (n == 0 || *p < 0x20 || *p == 0x7f) {
			sb_addf(&sb, "\\x%02x", *p);
			n = 1;
		} else if (*p == 0xc2 && p[1] < 0xa0)
			sb_addf(&sb, "\\u%04x", p[1]);
		else if (needs_escape(p, n, cp))
			sb_addf(&sb, "\\u%04lx", cp);
		else
			sb_addn(&sb, (const char *)p, n);
	}
	return sb.buf != NULL ? sb_steal(&sb) : xstrdup("");
}

/* s (new) as diag_escape() writes it, s freed. */
static char *
one_line(char *s)
{
	const unsigned char *p;
	unsigned long cp = 0;
	char *out;
	size_t n;

	for (p = (const unsigned char *)s; *p != '\0'; p += n)
		if ((n = utf8_char(p, &cp)) == 0 || needs_escape(p, n, cp))
			break;
	if (*p == '\0')
		return s;
	out = diag_escape(s, 0);
	free(s);
	return out;
}

static struct diag *
diag_new(struct diags *d, enum diag_level level)
{
	struct diag *g;

	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->v = xreallocarray(d->v, d->cap, sizeof(*d->v));
	}
	g = &d->v[d->n++];
	memset(g, 0, sizeof(*g));
	g->level = level;
	if (level == DIAG_ERROR)
		d->nerrors++;
	else if (level == DIAG_FATAL)
		d->nfatal++;
	else
		d->nwarnings++;
	return g;
}

int
diag_locate(struct diags *d, const char *ptr, const char **file,
    int *line, int *col)
{
	struct jptab *t;
	const int *v;
	size_t n;

	if (ptr == NULL || (t = decode(d)) == NULL)
		return 0;
	/* Fall back to the parent: "/a/b" -> "/a" -> "". */
	n = strlen(ptr);
	while ((v = jptab_get(t, ptr, n)) == NULL && n > 0)
		while (n > 0 && ptr[--n] != '/')
			;
	if (v == NULL)
		return 0;
	*file = json_string_value(json_array_get(d->files, (size_t)v[0]));
	*line = v[1];
	*col = v[2];
	return *file != NULL;
}

void
diag_at(struct diags *d, enum diag_level level, const char *ptr,
    const char *fmt, ...)
{
	struct diag *g = diag_new(d, level);
	const char *file;
	va_list ap;

	va_start(ap, fmt);
	g->msg = one_line(xvasprintf(fmt, ap));
	va_end(ap);
	if (ptr != NULL)
		g->ptr = xstrdup(ptr);
	if (diag_locate(d, ptr, &file, &g->line, &g->col))
		g->file = one_line(xstrdup(file));
}

void
diag_pos(struct diags *d, enum diag_level level, const char *file,
    int line, int col, const char *fmt, ...)
{
	struct diag *g = diag_new(d, level);
	va_list ap;

	va_start(ap, fmt);
	g->msg = one_line(xvasprintf(fmt, ap));
	va_end(ap);
	g->file = file ? one_line(xstrdup(file)) : NULL;
	g->line = line;
	g->col = col;
}

int
diag_format_parse(const char *s)
{
	if (strcmp(s, "text") == 0)
		return DIAG_FORMAT_TEXT;
	if (strcmp(s, "json") == 0)
		return DIAG_FORMAT_JSON;
	if (strcmp(s, "github") == 0)
		return DIAG_FORMAT_GITHUB;
	return -1;
}

static const char *
level_name(enum diag_level l)
{
	return l == DIAG_ERROR ? "error" : "warning";
}

json_t *
diag_json(const struct diag *g, const char *contract)
{
	json_t *o;

	o = json_pack("{s:s, s:s}", "level", g->level == DIAG_FATAL ?
	    "fatal" : level_name(g->level), "message", g->msg);
	if (o == NULL)
		return NULL;	/* cannot happen: one_line() made it UTF-8 */
	if (g->file != NULL) {
		json_object_set_new(o, "file", json_string(g->file));
		json_object_set_new(o, "line", json_integer(g->line));
		json_object_set_new(o, "column", json_integer(g->col));
	}
	if (g->ptr != NULL)
		json_object_set_new(o, "pointer", json_string(g->ptr));
	if (contract != NULL)
		json_object_set_new(o, "contract", json_string(contract));
	return o;
}

void
diag_print(const struct diags *d, FILE *fp, enum diag_format fmt,
    const char *prog)
{
	diag_print_contract(d, fp, fmt, prog, NULL);
}

void
diag_print_contract(const struct diags *d, FILE *fp, enum diag_format fmt,
    const char *prog, const char *contract)
{
	const struct diag *g;
	json_t *o;
	char *s, *c;
	size_t i;

	/* The contract as a line may show it; a diagnostic in another file
	 * (a shared fragment) ends with it, as gcc ends one with [-Wflag]. */
	c = contract != NULL ? diag_escape(contract, 0) : NULL;
	for (i = 0; i < d->n; i++) {
		g = &d->v[i];
		if (fmt == DIAG_FORMAT_GITHUB) {
			diag_print_github(fp, g, prog, c);
			continue;
		}
		if (g->level == DIAG_FATAL) {
			fprintf(fp, "%s: %s\n", prog, g->msg);
			continue;
		}
		if (fmt == DIAG_FORMAT_JSON) {
			if ((o = diag_json(g, c)) == NULL) {
				fprintf(fp, "%s: %s: %s\n", prog,
				    level_name(g->level), g->msg);
				continue;
			}
			s = json_dumps(o, JSON_COMPACT);
			fprintf(fp, "%s\n", s);
			free(s);
			json_decref(o);
			continue;
		}
		if (g->file != NULL && g->line > 0)
			fprintf(fp, "%s:%d:%d: %s: %s", g->file, g->line,
			    g->col, level_name(g->level), g->msg);
		else if (g->file != NULL)
			fprintf(fp, "%s: %s: %s", g->file,
			    level_name(g->level), g->msg);
		else
			fprintf(fp, "%s: %s: %s", prog,
			    level_name(g->level), g->msg);
		if (c != NULL && g->file != NULL && strcmp(g->file, c) != 0)
			fprintf(fp, " [contract: %s]", c);
		fputc('\n', fp);
	}
	free(c);
	fflush(fp);
}
void
diags_strict(struct diags *d)
{
	char *m;
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].level == DIAG_WARNING) {
			d->v[i].level = DIAG_ERROR;
			m = xasprintf("%s [--strict]", d->v[i].msg);
			free(d->v[i].msg);
			d->v[i].msg = m;
		}
	d->nerrors += d->nwarnings;
	d->nwarnings = 0;
}

int
diag_status(const struct diags *d)
{
	if (d->nfatal)
		return EXIT_USAGE;
	return d->nerrors ? EXIT_REFUSED : EXIT_OK;
}

void
diag_fatal(struct diags *d, const char *fmt, ...)
{
	int e = errno;	/* for a format ending in ':' */
	struct diag *g = diag_new(d, DIAG_FATAL);
	va_list ap;

	errno = e;
	va_start(ap, fmt);
	g->msg = fl_vmessage(fmt, ap);
	va_end(ap);
}

const char *
diag_json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:	return "a mapping";
	case JSON_ARRAY:	return "a list";
	case JSON_STRING:	return "a string";
	case JSON_INTEGER:	return "an integer";
	case JSON_REAL:		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:	return "a boolean";
	case JSON_NULL:		return "empty";
	}
	return "a value";
}

/* One line, as a diagnostic is, whatever the arguments quote. */
char *
fl_vmessage(const char *fmt, va_list ap)
{
	int e = errno;
	size_t n = strlen(fmt);
	char *msg = one_line(xvasprintf(fmt, ap)), *with;

	if (n > 0 && fmt[n - 1] == ':') {
		with = xasprintf("%s %s", msg, strerror(e));
		free(msg);
		msg = with;
	}
	return msg;
}

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * yload.c - libyaml events to jansson values with positions (yload.h).
 *
 * The loader is event driven: libyaml does the scanning and parsing, we
 * keep a stack of open collections and the JSON pointer of the innermost
 * one, so every node's pointer is known when it is built.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "bounds.h"
#include "jptr.h"
#include "yload.h"

struct frame {
	json_t	*node;		/* the open mapping or sequence (borrowed) */
	char	*key;		/* mapping: key awaiting its value */
	size_t	 keylen;
	char	*last;		/* mapping: the key of its last member,
				   for the path in a message */
	char	*anchor;	/* anchor to register when it closes */
	size_t	 nodes0;	/* node count when it opened */
	size_t	 bytes0;	/* byte count when it opened */
};

struct loader {
	const char	*name;
	struct diags	*d;
	struct ypos	*pos;
	json_t		*anchors;	/* name -> node */
	json_t		*anchor_sizes;	/* name -> node count */
	json_t		*anchor_bytes;	/* name -> byte count */
	struct frame	 stack[FL_MAX_YAML_DEPTH];
	int		 depth;
	size_t		*nodes;
	size_t		 nodes0;	/* budget used before this file */
	size_t		 bytes;		/* of strings and keys in this file,
					   aliases expanded (bounds.h) */
	json_t		*root;
};

static int __attribute__((format(printf, 3, 4)))
fail(struct loader *ld, const yaml_mark_t *m, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	diag_pos(ld->d, DIAG_ERROR, ld->name, (int)m->line + 1,
	    (int)m->column + 1, "%s", msg);
	free(msg);
	return -1;
}

static int
is_int(const char *s, size_t len)
{
	size_t i = 0;

	if (len > 2 && s[0] == '0' && s[1] == 'o') {
		for (i = 2; i < len; i++)
			if (s[i] < '0' || s[i] > '7')
				return 0;
		return 1;
	}
	if (len > 2 && s[0] == '0' && s[1] == 'x') {
		for (i = 2; i < len; i++)
			if (strchr("0123456789abcdefABCDEF", s[i]) == NULL)
				return 0;
		return 1;
	}
	if (i < len && (s[i] == '-' || s[i] == '+'))
		i++;
	if (i == len)
		return 0;
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )? */
static int
is_float(const char *s, size_t len)
{
	size_t i = 0, digits = 0;

	if (i < len && (s[i] == '-' || s[i] == '+'))
		i++;
	if (len - i == 4 && (strncmp(s + i, ".inf", 4) == 0 ||
	    strncmp(s + i, ".Inf", 4) == 0 || strncmp(s + i, ".INF", 4) == 0))
		return 1;
	if (len == 4 && (strcmp(s, ".nan") == 0 || strcmp(s, ".NaN") == 0 ||
	    strcmp(s, ".NAN") == 0))
		return 1;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (digits == 0)
		return 0;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		if (i == len)
			return 0;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
	}
	return i == len;
}

/*
 * Is s (len bytes) the word w of length n, in one of the three
 * spellings the core schema knows: all lower case, capitalised, or all
 * upper case?  n is a constant where it is called, so that the
 * compiler compares whole words instead of calling memcmp().
 */
static inline int
is_word(const char *s, size_t len, const char *lower, const char *cap,
    const char *upper, size_t n)
{
	return len == n && (memcmp(s, lower, n) == 0 ||
	    memcmp(s, cap, n) == 0 || memcmp(s, upper, n) == 0);
}

enum yload_plain
yload_plain_kind(const char *s, size_t len)
{
	/*
	 * Called for every plain scalar and key: the first byte tells
	 * which of the spellings it could be, and most are none.
	 */
	if (len == 0)
		return YLOAD_PLAIN_NULL;
	switch (s[0]) {
	case '~':
		return len == 1 ? YLOAD_PLAIN_NULL : YLOAD_PLAIN_STRING;
	case 'n': case 'N':
		return is_word(s, len, "null", "Null", "NULL", 4) ?
		    YLOAD_PLAIN_NULL : YLOAD_PLAIN_STRING;
	case 't': case 'T':
		return is_word(s, len, "true", "True", "TRUE", 4) ?
		    YLOAD_PLAIN_BOOL : YLOAD_PLAIN_STRING;
	case 'f': case 'F':
		return is_word(s, len, "false", "False", "FALSE", 5) ?
		    YLOAD_PLAIN_BOOL : YLOAD_PLAIN_STRING;
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
	case '-': case '+': case '.':
		/* A number starts with a digit, a sign or a dot (.5, .inf). */
		if (is_int(s, len))
			return YLOAD_PLAIN_INT;
		if (is_float(s, len))
			return YLOAD_PLAIN_FLOAT;
		return YLOAD_PLAIN_STRING;
	default:
		return YLOAD_PLAIN_STRING;
	}
}

/*
 * Does the scalar of ev hold a NUL byte?  Only an escape can write one
 * (\0, \x00, \u0000): libyaml's reader refuses the byte itself as a
 * control character, and only double-quoted scalars have escapes.
 */
static int
has_nul(const yaml_event_t *ev)
{
	return ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE &&
	    memchr(ev->data.scalar.value, '\0', ev->data.scalar.length) !=
	    NULL;
}

static json_t *
scalar_value(struct loader *ld, const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	long long ll;
	double dbl;
	char *end;
	json_t *v;

	if (len > FL_MAX_STRING_BYTES) {
		fail(ld, &ev->start_mark, "scalar longer than %u bytes",
		    FL_MAX_STRING_BYTES);
		return NULL;
	}
	if (has_nul(ev)) {
		fail(ld, &ev->start_mark, "string contains a NUL byte");
		return NULL;
	}
	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		goto string;
	switch (yload_plain_kind(s, len)) {
	case YLOAD_PLAIN_NULL:
		return json_null();
	case YLOAD_PLAIN_BOOL:
		return json_boolean(s[0] == 't' || s[0] == 'T');
	case YLOAD_PLAIN_INT:
		/* Core schema: decimal (leading zeros too), 0o and 0x. */
		errno = 0;
		if (len > 2 && s[0] == '0' && s[1] == 'o')
			ll = strtoll(s + 2, &end, 8);
		else if (len > 2 && s[0] == '0' && s[1] == 'x')
			ll = strtoll(s + 2, &end, 16);
		else
			ll = strtoll(s, &end, 10);
		if (errno == ERANGE) {
			fail(ld, &ev->start_mark,
			    "integer out of range (quote it if it is text)");
			return NULL;
		}
		return json_integer(ll);
	case YLOAD_PLAIN_FLOAT:
		/* .inf and .nan are YAML's spelling, not strtod's. */
		dbl = strchr(s, 'n') || strchr(s, 'N') ? NAN : strtod(s, &end);
		if (!isfinite(dbl)) {
			fail(ld, &ev->start_mark, "number is not finite "
			    "(quote it if it is text)");
			return NULL;
		}
		return json_real(dbl);
	case YLOAD_PLAIN_STRING:
		break;
	}
string:
	/*
	 * Valid UTF-8 already, so not checked again: libyaml's reader
	 * refuses a malformed or overlong sequence, a surrogate and
	 * anything past U+10FFFF (in UTF-16 input too), and its scanner
	 * refuses an escape (\uXXXX, \UXXXXXXXX) to a surrogate or past
	 * U+10FFFF and writes the others in their shortest form.  NUL,
	 * which jansson would take, was refused above.
	 */
	if ((v = json_stringn_nocheck(s, len)) == NULL)
		fail(ld, &ev->start_mark, "out of memory");
	return v;
}

static int
count_node(struct loader *ld, const yaml_mark_t *m, size_t n)
{
	*ld->nodes += n;
	if (*ld->nodes > FL_MAX_NODES)
		return fail(ld, m, "document has more than %u nodes "
		    "(aliases and $refs expanded)", FL_MAX_NODES);
	return 0;
}

void
ypath_key(struct sb *path, const char *key)
{
	if (path->len > 0)
		sb_addc(path, '.');
	sb_adds(path, key);
}

void
ypath_index(struct sb *path, size_t i)
{
	sb_addc(path, '[');
	sb_addu(path, i);
	sb_addc(path, ']');
}

/*
 * The contract path of the node being read ("copies[73]"), for a
 * message: the open collections and where in each the next node goes.
 * pending is the key of a key being read, or NULL.  A new string.
 */
static char *
here(const struct loader *ld, const char *pending)
{
	const struct frame *f;
	struct sb path;
	size_t n;
	int i;

	sb_init(&path);
	for (i = 0; i < ld->depth; i++) {
		f = &ld->stack[i];
		if (json_is_array(f->node)) {
			/* An open child is attached already; the next is not. */
			n = json_array_size(f->node);
			ypath_index(&path, i + 1 < ld->depth && n > 0 ? n - 1 : n);
		} else if (i + 1 < ld->depth || pending == NULL) {
			if (f->key != NULL || f->last != NULL)
				ypath_key(&path, f->key ? f->key : f->last);
		}
	}
	if (pending != NULL)
		ypath_key(&path, pending);
	return sb_steal(&path);
}

/*
 * Count n bytes of strings and keys, read at m (an alias's copy when
 * alias is its name), against FL_MAX_EXPANDED_BYTES.
 */
static int
count_bytes(struct loader *ld, const yaml_mark_t *m, size_t n,
    const char *alias, const char *pending)
{
	char *path;

	if ((ld->bytes += n) <= FL_MAX_EXPANDED_BYTES)
		return 0;
	path = here(ld, pending);
	if (alias != NULL)
		fail(ld, m, "%s%salias '*%s' takes the document past %u MiB of "
		    "strings and keys (aliases expanded)", path,
		    *path ? ": " : "", alias, FL_MAX_EXPANDED_BYTES >> 20);
	else
		fail(ld, m, "%s%sdocument holds more than %u MiB of strings "
		    "and keys", path, *path ? ": " : "",
		    FL_MAX_EXPANDED_BYTES >> 20);
	free(path);
	return -1;
}

/* The next node, in the order of the file, stands at m. */
static void
record_pos(struct loader *ld, const yaml_mark_t *m, int alias)
{
	struct ypos *p = ld->pos;
	struct ypos_node *n;

	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		p->v = xreallocarray(p->v, p->cap, sizeof(*p->v));
	}
	n = &p->v[p->n++];
	/* Within bounds: a file has at most FL_MAX_INPUT_BYTES bytes. */
	n->line = (unsigned)m->line + 1;
	n->col = (unsigned)m->column + 1;
	n->alias = alias != 0;
	p->aliases += alias != 0;
}

static int
check_tag(struct loader *ld, const yaml_event_t *ev, const yaml_char_t *tag,
    int implicit)
{
	if (tag != NULL && !implicit)
		return fail(ld, &ev->start_mark,
		    "YAML tags are not supported ('%s')", (const char *)tag);
	return 0;
}

/*
 * A node in key position: must be a plain string scalar, new in the map.
 * The key is taken from ev, not copied.
 */
static int
take_key(struct loader *ld, struct frame *top, yaml_event_t *ev)
{
	const char *s;
	size_t len;

	if (ev->type != YAML_SCALAR_EVENT)
		return fail(ld, &ev->start_mark,
		    "mapping keys must be strings");
	if (check_tag(ld, ev, ev->data.scalar.tag,
	    ev->data.scalar.plain_implicit || ev->data.scalar.quoted_implicit))
		return -1;
	s = (const char *)ev->data.scalar.value;
	len = ev->data.scalar.length;
	if (has_nul(ev) || len > FL_MAX_KEY_BYTES)
		return fail(ld, &ev->start_mark,
		    "mapping key is not a usable string");
	if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    yload_plain_kind(s, len) != YLOAD_PLAIN_STRING)
		return fail(ld, &ev->start_mark,
		    "mapping key '%s' is not a string (quote it)", s);
	if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    strcmp(s, "<<") == 0)
		return fail(ld, &ev->start_mark,
		    "YAML merge keys ('<<') are not supported");
	if (json_object_getn(top->node, s, len) != NULL)
		return fail(ld, &ev->start_mark, "duplicate key '%s'", s);
	if (len == 4 && memcmp(s, "$ref", 4) == 0)
		ld->pos->refs++;
	if (count_bytes(ld, &ev->start_mark, len, NULL, s))
		return -1;
	/* libyaml's malloc'd copy: yaml_event_delete() skips a NULL. */
	top->key = (char *)ev->data.scalar.value;
	top->keylen = len;
	ev->data.scalar.value = NULL;
	return count_node(ld, &ev->start_mark, 1);
}

static void
register_anchor(struct loader *ld, const yaml_char_t *anchor, json_t *v,
    size_t count, size_t bytes)
{
	if (anchor == NULL)
		return;
	json_object_set(ld->anchors, (const char *)anchor, v);
	json_object_set_new(ld->anchor_sizes, (const char *)anchor,
	    json_integer((json_int_t)count));
	json_object_set_new(ld->anchor_bytes, (const char *)anchor,
	    json_integer((json_int_t)bytes));
}

/* Attach v (a new reference) to the innermost collection or as root. */
static void
attach(struct loader *ld, json_t *v)
{
	struct frame *top;

	if (ld->depth == 0) {
		ld->root = v;
		return;
	}
	top = &ld->stack[ld->depth - 1];
	if (json_is_object(top->node)) {
		/* Valid UTF-8 (see scalar_value()): no need to check again. */
		json_object_setn_new_nocheck(top->node, top->key, top->keylen,
		    v);
		free(top->last);
		top->last = top->key;
		top->key = NULL;
	} else
		json_array_append_new(top->node, v);
}

static int
on_node(struct loader *ld, yaml_event_t *ev)
{
	struct frame *top = ld->depth ? &ld->stack[ld->depth - 1] : NULL;
	json_t *v, *size;
	const char *anchor;
	int rc = 0;

	if (ld->depth == 0 && ld->root != NULL)
		return fail(ld, &ev->start_mark, "more than one root node");
	if (top != NULL && json_is_object(top->node) && top->key == NULL)
		return take_key(ld, top, ev);
	if (count_node(ld, &ev->start_mark, 1))
		return -1;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		if (check_tag(ld, ev, ev->data.scalar.tag,
		    ev->data.scalar.plain_implicit ||
		    ev->data.scalar.quoted_implicit) ||
		    (v = scalar_value(ld, ev)) == NULL) {
			rc = -1;
			break;
		}
		if (json_is_string(v) && count_bytes(ld, &ev->start_mark,
		    json_string_length(v), NULL, NULL)) {
			json_decref(v);
			rc = -1;
			break;
		}
		record_pos(ld, &ev->start_mark, 0);
		register_anchor(ld, ev->data.scalar.anchor, v, 1,
		    json_is_string(v) ? json_string_length(v) : 0);
		attach(ld, v);
		break;
	case YAML_ALIAS_EVENT:
		anchor = (const char *)ev->data.alias.anchor;
		v = json_object_get(ld->anchors, anchor);
		size = json_object_get(ld->anchor_sizes, anchor);
		if (v == NULL) {
			rc = fail(ld, &ev->start_mark,
			    "unknown alias '*%s'", anchor);
			break;
		}
		if ((rc = count_node(ld, &ev->start_mark,
		    (size_t)json_integer_value(size))) != 0 ||
		    (rc = count_bytes(ld, &ev->start_mark, (size_t)
		    json_integer_value(json_object_get(ld->anchor_bytes,
		    anchor)), anchor, NULL)) != 0)
			break;
		/*
		 * Shared, not copied: the resolver builds a fresh tree.  Only
		 * the alias itself gets a position; the nodes of its copy
		 * stand where it does, and the resolver places them there
		 * (recording each of them here would make a "billion laughs"
		 * cost as much time and memory as its expansion).
		 */
		record_pos(ld, &ev->start_mark, 1);
		attach(ld, json_incref(v));
		break;
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT:
		if (ev->type == YAML_MAPPING_START_EVENT)
			rc = check_tag(ld, ev, ev->data.mapping_start.tag,
			    ev->data.mapping_start.implicit);
		else
			rc = check_tag(ld, ev, ev->data.sequence_start.tag,
			    ev->data.sequence_start.implicit);
		if (rc)
			break;
		if (ld->depth == FL_MAX_YAML_DEPTH) {
			rc = fail(ld, &ev->start_mark,
			    "YAML nested deeper than %d levels", FL_MAX_YAML_DEPTH);
			break;
		}
		v = ev->type == YAML_MAPPING_START_EVENT ? json_object() :
		    json_array();
		record_pos(ld, &ev->start_mark, 0);
		attach(ld, v);
		top = &ld->stack[ld->depth++];
		top->node = v;
		top->key = NULL;
		top->last = NULL;
		anchor = (const char *)(ev->type == YAML_MAPPING_START_EVENT ?
		    ev->data.mapping_start.anchor :
		    ev->data.sequence_start.anchor);
		top->anchor = anchor ? xstrdup(anchor) : NULL;
		top->nodes0 = *ld->nodes;
		top->bytes0 = ld->bytes;
		return 0;
	default:
		break;
	}
	return rc;
}

static void
on_end(struct loader *ld)
{
	struct frame *top = &ld->stack[--ld->depth];

	if (top->anchor != NULL) {
		register_anchor(ld, (const yaml_char_t *)top->anchor, top->node,
		    *ld->nodes - top->nodes0 + 1, ld->bytes - top->bytes0);
		free(top->anchor);
	}
	free(top->key);
	free(top->last);
}

static void
loader_release(struct loader *ld)
{
	while (ld->depth > 0) {
		struct frame *top = &ld->stack[--ld->depth];

		free(top->key);
		free(top->last);
		free(top->anchor);
	}
	json_decref(ld->anchors);
	json_decref(ld->anchor_sizes);
	json_decref(ld->anchor_bytes);
}

/* The line and column (in characters) of byte offset off of buf. */
static yaml_mark_t
offset_mark(const unsigned char *buf, size_t len, size_t off)
{
	yaml_mark_t m = { 0, 0, 0 };
	size_t i;

	for (i = 0; i < off && i < len; i++) {
		if (buf[i] == '\n') {
			m.line++;
			m.column = 0;
		} else if ((buf[i] & 0xc0) != 0x80)
			m.column++;	/* count UTF-8 lead bytes only */
	}
	m.index = off;
	return m;
}

/* Where a file is read from, for yaml_parser_set_input(). */
struct yin {
	FILE	*fp;
	size_t	 total, max;
	int	 err;		/* errno of a failed read, EFBIG, or 0 */
};

static int
yin_read(void *data, unsigned char *buf, size_t size, size_t *nread)
{
	struct yin *in = data;
	size_t n;

	/* Never more than one byte past the limit. */
	if (size > in->max + 1 - in->total)
		size = in->max + 1 - in->total;
	n = fread(buf, 1, size, in->fp);
	if (n == 0 && ferror(in->fp)) {
		in->err = errno ? errno : EIO;
		return 0;
	}
	if ((in->total += n) > in->max) {
		in->err = EFBIG;
		return 0;
	}
	*nread = n;
	return 1;
}

/* offset_mark(), counting in the file from its start. */
static yaml_mark_t
file_offset_mark(FILE *fp, size_t off)
{
	unsigned char buf[1 << 14];
	yaml_mark_t m = { 0, 0, 0 }, part;
	size_t done = 0, n;

	if (fseek(fp, 0, SEEK_SET) == -1)
		return m;
	while (done < off && (n = fread(buf, 1, sizeof(buf), fp)) > 0) {
		if (n > off - done)
			n = off - done;
		part = offset_mark(buf, n, n);
		m.column = part.line ? part.column : m.column + part.column;
		m.line += part.line;
		done += n;
	}
	m.index = off;
	return m;
}

/*
 * Parse what parser was set to read: buf (len bytes) or in.  Returns 0,
 * -1 after adding an error to d, or -2 when in could not be read (in->err
 * says why; nothing added).
 */
static int
load(const char *name, yaml_parser_t *parser, const unsigned char *buf,
    size_t len, struct yin *in, json_t **doc, struct ypos **pos,
    size_t *nodes, struct diags *d)
{
	struct loader ld;
	yaml_event_t ev;
	int rc = 0, done = 0, ndocs = 0;

	memset(&ld, 0, sizeof(ld));
	ld.name = name;
	ld.d = d;
	ld.pos = xcalloc(1, sizeof(*ld.pos));
	ld.anchors = json_object();
	ld.anchor_sizes = json_object();
	ld.anchor_bytes = json_object();
	ld.nodes = nodes;
	*doc = NULL;
	*pos = NULL;

	while (!done && rc == 0) {
		if (!yaml_parser_parse(parser, &ev)) {
			char *msg;
			yaml_mark_t at = parser->problem_mark;

			if (in != NULL && in->err != 0) {
				rc = -2;
				break;
			}
			msg = xasprintf("malformed YAML: %s%s%s%s",
			    parser->problem ? parser->problem : "parse error",
			    parser->context ? " (" : "",
			    parser->context ? parser->context : "",
			    parser->context ? ")" : "");
			/*
			 * Reader errors (bad UTF-8, control characters) come
			 * with a byte offset but no mark: count it out.
			 */
			if (parser->error == YAML_READER_ERROR)
				at = in != NULL ? file_offset_mark(in->fp,
				    parser->problem_offset) : offset_mark(buf,
				    len, parser->problem_offset);
			rc = fail(&ld, &at, "%s", msg);
			free(msg);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++ndocs > 1)
				rc = fail(&ld, &ev.start_mark, "more than one "
				    "YAML document in one file");
			break;
		case YAML_SCALAR_EVENT:
		case YAML_ALIAS_EVENT:
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			rc = on_node(&ld, &ev);
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			on_end(&ld);
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	if (rc == 0 && ld.root == NULL) {
		diag_pos(d, DIAG_ERROR, name, 0, 0, "empty YAML document");
		rc = -1;
	}
	if (rc == 0) {
		*doc = ld.root;
		*pos = ld.pos;
	} else {
		json_decref(ld.root);
		ypos_free(ld.pos);
	}
	loader_release(&ld);
	return rc;
}

static void
parser_init(yaml_parser_t *parser)
{
	/* libyaml fails here only when it cannot allocate its buffers. */
	if (!yaml_parser_initialize(parser))
		xalloc_die("libyaml could not start a parser");
}

int
yload_buffer_pos(const char *name, const unsigned char *buf, size_t len,
    json_t **doc, struct ypos **pos, size_t *nodes, struct diags *d)
{
	yaml_parser_t parser;
	int rc;

	parser_init(&parser);
	yaml_parser_set_input_string(&parser, buf, len);
	rc = load(name, &parser, buf, len, NULL, doc, pos, nodes, d);
	yaml_parser_delete(&parser);
	return rc;
}

int
yload_file_pos(const char *name, FILE *fp, size_t max, json_t **doc,
    struct ypos **pos, size_t *nodes, struct diags *d)
{
	yaml_parser_t parser;
	struct yin in = { fp, 0, max, 0 };
	int rc;

	parser_init(&parser);
	yaml_parser_set_input(&parser, yin_read, &in);
	rc = load(name, &parser, NULL, 0, &in, doc, pos, nodes, d);
	yaml_parser_delete(&parser);
	if (rc == -2) {
		errno = in.err;
		return -2;
	}
	return rc;
}

void
ypos_free(struct ypos *p)
{
	if (p == NULL)
		return;
	free(p->v);
	free(p);
}

struct table_walk {
	struct jptab		*t;
	const struct ypos	*p;
	size_t			 i;	/* the next position to give */
};

/*
 * Give node, at ptr, the next position (its children take theirs after
 * it); an alias's copy has none below the alias.  Stops if the positions
 * run out (they do not, for the document they were recorded with).
 */
static int
table_node(json_t *node, const struct sb *ptr, void *arg)
{
	struct table_walk *w = arg;
	const struct ypos_node *n;

	(void)node;
	if (w->i == w->p->n)
		return -1;
	n = &w->p->v[w->i++];
	jptab_put(w->t, ptr->buf, ptr->len, (int)n->line, (int)n->col, 0);
	return n->alias ? 1 : 0;
}

struct jptab *
ypos_table(const struct ypos *p, json_t *doc)
{
	struct table_walk w = { jptab_new(), p, 0 };
	struct sb ptr;

	sb_init(&ptr);
	(void)jptr_walk(doc, &ptr, table_node, &w);
	sb_release(&ptr);
	return w.t;
}

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_util.c - the checker's locations, messages and typed getters.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "jptr.h"
#include "suggest.h"
#include "url.h"

void
chk_loc_init(struct chk_loc *l)
{
	sb_init(&l->ptr);
	sb_init(&l->path);
}

void
chk_loc_release(struct chk_loc *l)
{
	sb_release(&l->ptr);
	sb_release(&l->path);
}

struct chk_loc_mark
chk_loc_mark(const struct chk_loc *l)
{
	struct chk_loc_mark m = { l->ptr.len, l->path.len };

	return m;
}

void
chk_loc_reset(struct chk_loc *l, struct chk_loc_mark m)
{
	sb_truncate(&l->ptr, m.ptrlen);
	sb_truncate(&l->path, m.pathlen);
}

static bool
is_control(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

static char
ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

void
chk_loc_key(struct chk_loc *l, const char *key)
{
	const char *p = key;
	size_t n;

	jptr_push_key(&l->ptr, key);
	if (l->path.len > 0)
		sb_addc(&l->path, '.');
	/*
	 * Keys come from the contract and end up on a terminal or in a CI
	 * log: a control character (an escape sequence) is shown as '?'.
	 * The runs between them are copied whole.
	 */
	for (;;) {
		for (n = 0; p[n] != '\0' && !is_control(p[n]); n++)
			;
		sb_addn(&l->path, p, n);
		p += n;
		if (*p == '\0')
			break;
		sb_addc(&l->path, '?');
		p++;
	}
}

/* "[i]", without printf: the checker walks every list item. */
static void
path_idx(struct sb *path, size_t i)
{
	sb_addc(path, '[');
	sb_addu(path, i);
	sb_addc(path, ']');
}

void
chk_loc_idx(struct chk_loc *l, size_t i)
{
	jptr_push_index(&l->ptr, i);
	path_idx(&l->path, i);
}

void
chk_loc_named(struct chk_loc *l, size_t i, const char *name)
{
	jptr_push_index(&l->ptr, i);
	if (name == NULL) {
		path_idx(&l->path, i);
		return;
	}
	if (l->path.len > 0)
		sb_addc(&l->path, '.');
	sb_adds(&l->path, name);
}

void
chk_loc_set(struct chk_loc *l, const char *ptr, const char *path)
{
	sb_truncate(&l->ptr, 0);
	sb_truncate(&l->path, 0);
	sb_adds(&l->ptr, ptr);
	sb_adds(&l->path, path);
}

static void
vreport(struct chk *c, enum diag_level lvl, const struct chk_loc *l,
    const char *fmt, va_list ap)
{
	char *msg = xvasprintf(fmt, ap);

	diag_at(c->d, lvl, l->ptr.buf, "%s%s%s%s%s", c->lane, c->build,
	    l->path.buf, l->path.len ? ": " : "", msg);
	free(msg);
}

void
chk_err(struct chk *c, const struct chk_loc *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(c, DIAG_ERROR, l, fmt, ap);
	va_end(ap);
}

void
chk_warn(struct chk *c, const struct chk_loc *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(c, DIAG_WARNING, l, fmt, ap);
	va_end(ap);
}

void
chk_err_at(struct chk *c, struct chk_loc *l, const char *key,
    const char *fmt, ...)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	va_list ap;
	char *msg;

	/* Before the key is added: an argument may point into l. */
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (key != NULL)
		chk_loc_key(l, key);
	chk_err(c, l, "%s", msg);
	chk_loc_reset(l, m);
	free(msg);
}

bool
chk_suggest(struct chk *c)
{
	return c->suggestions++ < CHK_MAX_SUGGESTIONS;
}

const char *
chk_didyoumean(const char *name, const char *const *cands, size_t n, char *buf,
    size_t buflen)
{
	const char *near = suggest_near(name, cands, n);

	buf[0] = '\0';
	if (near != NULL)
		snprintf(buf, buflen, " (did you mean '%s'?)", near);
	return buf;
}

int
chk_word_index(const char *s, const char *const *words)
{
	int i;

	for (i = 0; words != NULL && words[i] != NULL; i++)
		if (strcmp(s, words[i]) == 0)
			return i;
	return -1;
}

int
chk_only_keys(struct chk *c, struct chk_loc *l, json_t *obj,
    const char *const *allowed)
{
	return chk_only_keys_except(c, l, obj, allowed, NULL);
}

int
chk_only_keys_except(struct chk *c, struct chk_loc *l, json_t *obj,
    const char *const *allowed, const char *const *ignored)
{
	const char *k;
	json_t *v;
	size_t n;
	int bad = 0;
	char hint[160];

	for (n = 0; allowed[n] != NULL; n++)
		;
	json_object_foreach(obj, k, v) {
		if (chk_word_index(k, allowed) >= 0 ||
		    chk_word_index(k, ignored) >= 0)
			continue;
		if (chk_has_control(k) || strlen(k) > 64)
			chk_err_at(c, l, k, "unknown key");
		else
			chk_err_at(c, l, k, "unknown key '%s'%s", k,
			    chk_didyoumean(k, allowed, n, hint, sizeof(hint)));
		bad++;
	}
	return bad;
}

static json_t *
typed_at(struct chk *c, struct chk_loc *l, const char *key, json_t *v,
    bool required, json_type type, const char *want)
{
	if (v == NULL || json_is_null(v)) {
		if (required)
			chk_err_at(c, l, key, "is required");
		return NULL;
	}
	if (json_typeof(v) != type) {
		chk_err_at(c, l, key, "must be %s, not %s", want,
		    diag_json_kind(v));
		return NULL;
	}
	return v;
}

static json_t *
get_typed(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool required, json_type type, const char *want)
{
	return typed_at(c, l, key, json_object_get(o, key), required, type,
	    want);
}

json_t *
chk_get_obj(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool required)
{
	return get_typed(c, l, o, key, required, JSON_OBJECT, "a mapping");
}

json_t *
chk_get_arr(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool required)
{
	return get_typed(c, l, o, key, required, JSON_ARRAY, "a list");
}

const char *
chk_get_str(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool required)
{
	return chk_str_at(c, l, key, json_object_get(o, key), required);
}

const char *
chk_str_at(struct chk *c, struct chk_loc *l, const char *key, json_t *v,
    bool required)
{
	v = typed_at(c, l, key, v, required, JSON_STRING, "a string");
	if (v == NULL)
		return NULL;
	if (json_string_length(v) == 0 && required) {
		chk_err_at(c, l, key, "must not be empty");
		return NULL;
	}
	return json_string_value(v);
}

int
chk_get_bool(struct chk *c, struct chk_loc *l, json_t *o, const char *key)
{
	return chk_bool_at(c, l, key, json_object_get(o, key));
}

int
chk_bool_at(struct chk *c, struct chk_loc *l, const char *key, json_t *v)
{
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_boolean(v)) {
		chk_err_at(c, l, key, "must be true or false, not %s",
		    diag_json_kind(v));
		return -1;
	}
	return json_is_true(v);
}

int
chk_get_int(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    json_int_t *out)
{
	json_t *v = json_object_get(o, key);

	if (v == NULL || json_is_null(v))
		return 1;
	if (!json_is_integer(v)) {
		chk_err_at(c, l, key, "must be a whole number, not %s",
		    diag_json_kind(v));
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

const char *
chk_get_enum(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool required, const char *const *words)
{
	const char *s = chk_get_str(c, l, o, key, required);
	struct chk_loc_mark m = chk_loc_mark(l);
	struct sb list;
	size_t i, n;
	char hint[160];

	if (s == NULL)
		return NULL;
	for (n = 0; words[n] != NULL; n++)
		if (strcmp(s, words[n]) == 0)
			return s;
	sb_init(&list);
	for (i = 0; i < n; i++)
		sb_addf(&list, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "",
		    words[i]);
	chk_loc_key(l, key);
	if (chk_has_control(s) || strlen(s) > 64)
		chk_err(c, l, "must be %s", list.buf);
	else
		chk_err(c, l, "'%s' is not supported: use %s%s", s, list.buf,
		    chk_didyoumean(s, words, n, hint, sizeof(hint)));
	chk_loc_reset(l, m);
	sb_release(&list);
	return NULL;
}

/*
 * C0, DEL and the C1 controls U+0080-U+009F (UTF-8 C2 80 to C2 9F),
 * which a terminal may read as CSI and the rest just as it does ESC [.
 */
bool
chk_has_control(const char *s)
{
	for (; *s != '\0'; s++)
		if (is_control(*s) || ((unsigned char)s[0] == 0xc2 &&
		    (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f))
			return true;
	return false;
}

char *
chk_lower_dup(const char *s)
{
	char *d = xstrdup(s), *p;

	for (p = d; *p != '\0'; p++)
		*p = ascii_lower(*p);
	return d;
}

json_t *
chk_field_name_json(json_t *names, const struct ty *st, size_t i)
{
	json_t *n = json_array_get(names, i);

	return n != NULL ? json_incref(n) : json_string(st->fields[i].name);
}

json_t *
chk_columns_json(struct chk *c, const struct ty *st, json_t *names)
{
	json_t *a = json_array(), *n;
	size_t i;

	for (i = 0; i < st->nfields; i++) {
		n = chk_field_name_json(names, st, i);
		json_array_append_new(a, ty_to_json_shared(st->fields[i].type,
		    n, &c->names));
		json_decref(n);
	}
	return a;
}

const char *
chk_lower_in(const char *s, char buf[CHK_LOWER_BUF], char **to_free)
{
	size_t n = strlen(s), i;
	char *d = buf;

	*to_free = NULL;
	if (n >= CHK_LOWER_BUF)
		d = *to_free = xmalloc(n + 1);
	for (i = 0; i <= n; i++)
		d[i] = ascii_lower(s[i]);
	return d;
}

char *
chk_str_join(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *p = xmalloc(na + nb + 1);

	memcpy(p, a, na);
	memcpy(p + na, b, nb + 1);
	return p;
}

bool
chk_name_in(json_t *set, const char *name)
{
	char buf[CHK_LOWER_BUF], *to_free;
	bool in;

	if (set == NULL)
		return false;
	in = json_object_get(set, chk_lower_in(name, buf, &to_free)) != NULL;
	free(to_free);
	return in;
}

struct chk_name_slot {
	const char	*name;		/* NULL: empty */
	uint64_t	 hash;
	size_t		 v;
};

/* FNV-1a, over the lower-case bytes when folding. */
static uint64_t
name_hash(const char *s, bool fold)
{
	uint64_t h = 14695981039346656037u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)(fold ? ascii_lower(*s) : *s)) *
		    1099511628211u;
	return h;
}

static bool
name_same(const char *a, const char *b, bool fold)
{
	if (!fold)
		return strcmp(a, b) == 0;
	for (; *a != '\0' && ascii_lower(*a) == ascii_lower(*b); a++, b++)
		;
	return ascii_lower(*a) == ascii_lower(*b);
}

void
chk_name_index_init(struct chk_name_index *x, bool fold)
{
	memset(x, 0, sizeof(*x));
	x->fold = fold;
}

void
chk_name_index_release(struct chk_name_index *x)
{
	free(x->slots);
	chk_name_index_init(x, x->fold);
}

/* Where name is, or the empty slot where it would go. */
static struct chk_name_slot *
name_find(const struct chk_name_index *x, const char *name, uint64_t hash)
{
	size_t i = (size_t)hash & (x->cap - 1);

	while (x->slots[i].name != NULL && (x->slots[i].hash != hash ||
	    !name_same(x->slots[i].name, name, x->fold)))
		i = (i + 1) & (x->cap - 1);
	return &x->slots[i];
}

/* At most three quarters of the slots are in use. */
static bool
name_index_fits(const struct chk_name_index *x, size_t n)
{
	return 4 * n <= 3 * x->cap;
}

/* Enough slots for n names. */
static void
name_index_grow(struct chk_name_index *x, size_t n)
{
	struct chk_name_slot *old = x->slots;
	size_t i, oldcap = x->cap;

	if (x->cap == 0)
		x->cap = 16;
	while (!name_index_fits(x, n))
		x->cap *= 2;
	x->slots = xcalloc(x->cap, sizeof(*x->slots));
	for (i = 0; i < oldcap; i++)
		if (old[i].name != NULL)
			*name_find(x, old[i].name, old[i].hash) = old[i];
	free(old);
}

void
chk_name_index_put(struct chk_name_index *x, const char *name, size_t v)
{
	uint64_t hash = name_hash(name, x->fold);
	struct chk_name_slot *sl;

	if (!name_index_fits(x, x->n + 1))
		name_index_grow(x, x->n + 1);
	sl = name_find(x, name, hash);
	if (sl->name == NULL)
		x->n++;
	sl->name = name;
	sl->hash = hash;
	sl->v = v;
}

void
chk_name_index_reserve(struct chk_name_index *x, size_t n)
{
	if (!name_index_fits(x, n))
		name_index_grow(x, n);
}

bool
chk_name_index_get(const struct chk_name_index *x, const char *name, size_t *v)
{
	const struct chk_name_slot *sl;

	if (x->n == 0)
		return false;
	sl = name_find(x, name, name_hash(name, x->fold));
	if (sl->name == NULL)
		return false;
	*v = sl->v;
	return true;
}

void
chk_init(struct chk *c, struct diags *d, json_t *doc)
{
	memset(c, 0, sizeof(*c));
	c->d = d;
	c->doc = doc;
	c->lane = "";
	c->build = "";
}

void
chk_release(struct chk *c)
{
	size_t i;

	ty_names_release(&c->names);
	for (i = 0; i < CHK_NWORDS; i++) {
		json_decref(c->words[i]);
		c->words[i] = NULL;
	}
}

json_t *
chk_word(struct chk *c, enum chk_word w)
{
	static const char *const words[] = { "value", "key", "metadata",
	    "element", "path", "cast", "widen", "struct" };
	_Static_assert(sizeof(words) / sizeof(*words) == CHK_NWORDS,
	    "a word for each slot");
	_Static_assert((int)CHK_WORD_ELEMENT == (int)CHK_ORIGIN_ELEMENT,
	    "the origins are the first words");

	if (c->words[w] == NULL)
		c->words[w] = json_string(words[w]);
	return json_incref(c->words[w]);
}

static int
hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* The port a scheme's clients use when none is written; 0: none. */
static int
default_port(const char *scheme)
{
	if (strcmp(scheme, "https") == 0)
		return 443;
	if (strcmp(scheme, "http") == 0)
		return 80;
	return 0;
}

/*
 * libcurl's parser (url_parse()) gives the scheme in lower case, the
 * host and port apart, and removes the dot segments it sees; what it
 * leaves is done here: the host's case, a default port, percent-escapes
 * and the dot segments they spell, repeated and trailing slashes.
 */
char *
chk_uri_norm(const char *s, const char **why)
{
	struct url u;
	struct sb out, seg;
	size_t i, mark, *ends = NULL, nends = 0;
	const char *p;
	int hi, lo;
	char ch;
	bool bad = false;

	if (url_parse(s, &u, why) == -1)
		return NULL;
	sb_init(&out);
	sb_init(&seg);
	for (i = 0; u.host[i] != '\0'; i++)
		if (u.host[i] >= 'A' && u.host[i] <= 'Z')
			u.host[i] = (char)(u.host[i] - 'A' + 'a');
	sb_addf(&out, strchr(u.host, ':') ? "%s://[%s]" : "%s://%s",
	    u.scheme, u.host);
	if (u.port != 0 && u.port != default_port(u.scheme))
		sb_addf(&out, ":%d", u.port);
	mark = out.len;
	/* One more than the segments there can be: a '/' ends the last. */
	ends = xreallocarray(NULL, strlen(u.path) + 2, sizeof(*ends));
	for (p = u.path;; p++) {
		if (*p == '%' && (hi = hexval(p[1])) >= 0 &&
		    (lo = hexval(p[2])) >= 0) {
			ch = (char)(hi * 16 + lo);
			p += 2;
			if ((unsigned char)ch < 0x20 || ch == 0x7f) {
				*why = "must not percent-encode control "
				    "characters";
				bad = true;
				break;
			}
		} else
			ch = *p;
		if (ch != '/' && ch != '\0') {
			sb_addc(&seg, ch);
			continue;
		}
		/* A segment ends: "" and "." are none, ".." drops one. */
		if (strcmp(seg.buf, "..") == 0) {
			if (nends > 0)
				nends--;
			sb_truncate(&out, nends > 0 ? ends[nends - 1] : mark);
		} else if (seg.len > 0 && strcmp(seg.buf, ".") != 0) {
			sb_addc(&out, '/');
			sb_addn(&out, seg.buf, seg.len);
			ends[nends++] = out.len;
		}
		sb_truncate(&seg, 0);
		if (*p == '\0')
			break;
	}
	free(ends);
	sb_release(&seg);
	url_release(&u);
	if (bad) {
		sb_release(&out);
		return NULL;
	}
	return sb_steal(&out);
}

/*
 * digest.c - sha256 through OpenSSL's EVP interface (see digest.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "digest.h"
#include "xalloc.h"

/*
 * OpenSSL starts itself on first use by reading the system's
 * openssl.cnf and registering every cipher and digest under its legacy
 * names: more than a millisecond, in stages that run for a few.  A
 * sha256 is the same whatever that file says, so start it without.
 */
static int
digest_start(void)
{
	static int started;

	if (!started)
		started = OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG |
		    OPENSSL_INIT_NO_ADD_ALL_CIPHERS |
		    OPENSSL_INIT_NO_ADD_ALL_DIGESTS, NULL);
	return started;
}

static void
digest_fail(void)
{
	fputs("fluid: OpenSSL could not compute sha256\n", stderr);
	exit(2);
}

static void
digest_hex(const unsigned char *md, unsigned int mdlen,
    char out[DIGEST_STRLEN])
{
	static const char hex[] = "0123456789abcdef";
	unsigned int i;

	memcpy(out, "sha256:", 7);
	for (i = 0; i < mdlen && i < 32; i++) {
		out[7 + 2 * i] = hex[md[i] >> 4];
		out[7 + 2 * i + 1] = hex[md[i] & 0xf];
	}
	out[7 + 2 * i] = '\0';
}

void
digest_bytes(const void *buf, size_t len, char out[DIGEST_STRLEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	if (!digest_start() ||
	    !EVP_Digest(buf, len, md, &mdlen, EVP_sha256(), NULL))
		digest_fail();
	digest_hex(md, mdlen, out);
}

/*
 * The canonical text is the one json_dump_callback() writes with
 * JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY (jansson 2.14): the
 * digests already published are of those bytes, so they are what must
 * be hashed.  It is written here instead, because jansson's writer
 * spends four times the hash on them: it hands the hash a piece at a
 * time (a quote, a comma, a key), checks every object and array for a
 * cycle by printing its address into a hash table, and looks every
 * sorted key up again to find its value.  canon_*() write the same bytes
 * into a buffer that the hash takes a block at a time.
 */
#define CANON_MAX_DEPTH	2048	/* deeper: let jansson write it */

struct canon_key {
	const char	*key;
	size_t		 len;
	const json_t	*value;
};

struct canon {
	EVP_MD_CTX	*ctx;
	struct canon_key *keys;		/* a stack of the objects open */
	size_t		 nkeys, capkeys;
	size_t		 len;
	unsigned char	 buf[16384];
};

static void
canon_flush(struct canon *c)
{
	if (c->len > 0 && !EVP_DigestUpdate(c->ctx, c->buf, c->len))
		digest_fail();
	c->len = 0;
}

static void
canon_put(struct canon *c, const void *s, size_t n)
{
	if (n > sizeof(c->buf) - c->len) {
		canon_flush(c);
		if (n > sizeof(c->buf)) {
			if (!EVP_DigestUpdate(c->ctx, s, n))
				digest_fail();
			return;
		}
	}
	memcpy(c->buf + c->len, s, n);
	c->len += n;
}

static void
canon_putc(struct canon *c, char ch)
{
	if (c->len == sizeof(c->buf))
		canon_flush(c);
	c->buf[c->len++] = (unsigned char)ch;
}

/*
 * The length of the UTF-8 sequence at s (at most n bytes) if it is one
 * jansson accepts (utf8_iterate(): no overlong form, no surrogate,
 * nothing past U+10FFFF), else 0.
 */
static size_t
utf8_seq(const unsigned char *s, size_t n)
{
	unsigned long v;
	size_t len, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, v = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, v = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, v = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) ||
	    (len == 3 && v < 0x800) || (len == 4 && v < 0x10000))
		return 0;
	return len;
}

/*
 * A string as jansson's dump_string() writes it without JSON_ENSURE_ASCII
 * or JSON_ESCAPE_SLASH: only '"', '\\' and control characters escaped.
 * Returns -1 for bad UTF-8, having written what dump_string() would
 * have written by then (a key's error goes unnoticed there).
 */
static int
canon_string(struct canon *c, const char *str, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *s = (const unsigned char *)str;
	size_t run = 0, i = 0, k;
	char esc[6];

	canon_putc(c, '"');
	while (i < n) {
		if (s[i] >= 0x80) {
			if ((k = utf8_seq(s + i, n - i)) == 0)
				return -1;
			i += k;
			continue;
		}
		if (s[i] >= 0x20 && s[i] != '"' && s[i] != '\\') {
			i++;
			continue;
		}
		canon_put(c, s + run, i - run);
		esc[0] = '\\';
		switch (s[i]) {
		case '"':  esc[1] = '"'; k = 2; break;
		case '\\': esc[1] = '\\'; k = 2; break;
		case '\b': esc[1] = 'b'; k = 2; break;
		case '\f': esc[1] = 'f'; k = 2; break;
		case '\n': esc[1] = 'n'; k = 2; break;
		case '\r': esc[1] = 'r'; k = 2; break;
		case '\t': esc[1] = 't'; k = 2; break;
		default:
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[s[i] >> 4];
			esc[5] = hex[s[i] & 0xf];
			k = 6;
		}
		canon_put(c, esc, k);
		run = ++i;
	}
	canon_put(c, s + run, n - run);
	canon_putc(c, '"');
	return 0;
}

/* "%" JSON_INTEGER_FORMAT, without printf. */
static void
canon_integer(struct canon *c, json_int_t v)
{
	char digits[24], *p = digits + sizeof(digits);
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v :
	    (unsigned long long)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	canon_put(c, p, (size_t)(digits + sizeof(digits) - p));
}

/* jansson's key order (compare_keys()): bytes, then the shorter first. */
static int
canon_key_cmp(const struct canon_key *a, const struct canon_key *b)
{
	int r = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);

	if (r != 0)
		return r;
	return a->len < b->len ? -1 : a->len > b->len;
}

static int
canon_key_qcmp(const void *a, const void *b)
{
	return canon_key_cmp(a, b);
}

/*
 * Keys are unique in an object, so any sort gives jansson's order.  Most
 * objects of a contract have a handful of keys: insertion sort.
 */
static void
canon_sort_keys(struct canon_key *k, size_t n)
{
	struct canon_key t;
	size_t i, j;

	if (n > 16) {
		qsort(k, n, sizeof(*k), canon_key_qcmp);
		return;
	}
	for (i = 1; i < n; i++) {
		t = k[i];
		for (j = i; j > 0 && canon_key_cmp(&k[j - 1], &t) > 0; j--)
			k[j] = k[j - 1];
		k[j] = t;
	}
}

static int canon_value(struct canon *, const json_t *, int);

static int
canon_object(struct canon *c, const json_t *v, int depth)
{
	size_t n = json_object_size(v), base = c->nkeys, i;
	const char *k;
	json_t *x;
	void *it;
	int rc;

	if (c->nkeys + n > c->capkeys) {
		c->capkeys = 2 * (c->nkeys + n);
		c->keys = xreallocarray(c->keys, c->capkeys, sizeof(*c->keys));
	}
	for (it = json_object_iter((json_t *)v); it != NULL;
	    it = json_object_iter_next((json_t *)v, it)) {
		k = json_object_iter_key(it);
		x = json_object_iter_value(it);
		c->keys[c->nkeys++] = (struct canon_key){ k,
		    json_object_iter_key_len(it), x };
	}
	canon_sort_keys(c->keys + base, n);
	canon_putc(c, '{');
	/* c->keys may move as the values write their own objects: index. */
	for (i = 0; i < n; i++) {
		if (i > 0)
			canon_putc(c, ',');
		(void)canon_string(c, c->keys[base + i].key,
		    c->keys[base + i].len);
		canon_putc(c, ':');
		if ((rc = canon_value(c, c->keys[base + i].value,
		    depth + 1)) < 0)
			return rc;
	}
	c->nkeys = base;
	canon_putc(c, '}');
	return 0;
}

/* Returns -1 where jansson's dump fails, -2 when nested too deep. */
static int
canon_value(struct canon *c, const json_t *v, int depth)
{
	char real[100];
	size_t i, n;
	int rc;

	if (v == NULL)
		return -1;
	if (depth > CANON_MAX_DEPTH)
		return -2;
	switch (json_typeof(v)) {
	case JSON_NULL:
		canon_put(c, "null", 4);
		return 0;
	case JSON_TRUE:
		canon_put(c, "true", 4);
		return 0;
	case JSON_FALSE:
		canon_put(c, "false", 5);
		return 0;
	case JSON_INTEGER:
		canon_integer(c, json_integer_value(v));
		return 0;
	case JSON_REAL:
		/* Rare, and its spelling is jansson's own: ask it. */
		n = json_dumpb(v, real, sizeof(real), JSON_ENCODE_ANY |
		    JSON_COMPACT);
		if (n == 0 || n > sizeof(real))
			return -1;
		canon_put(c, real, n);
		return 0;
	case JSON_STRING:
		return canon_string(c, json_string_value(v),
		    json_string_length(v));
	case JSON_ARRAY:
		canon_putc(c, '[');
		n = json_array_size(v);
		for (i = 0; i < n; i++) {
			if (i > 0)
				canon_putc(c, ',');
			if ((rc = canon_value(c, json_array_get(v, i),
			    depth + 1)) < 0)
				return rc;
		}
		canon_putc(c, ']');
		return 0;
	case JSON_OBJECT:
		return canon_object(c, v, depth);
	}
	return -1;
}

/* json_dump_callback() hands the canonical text over piece by piece. */
static int
digest_update(const char *buf, size_t len, void *ctx)
{
	return EVP_DigestUpdate(ctx, buf, len) ? 0 : -1;
}

/*
 * The canonical text goes straight into the hash, never built whole:
 * for a large contract building it cost a quarter of fluid-resolve.
 */
void
digest_json(const json_t *v, char out[DIGEST_STRLEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	struct canon c;
	int rc;

	c.keys = NULL;
	c.nkeys = c.capkeys = c.len = 0;
	if (!digest_start() || (c.ctx = EVP_MD_CTX_new()) == NULL ||
	    !EVP_DigestInit_ex(c.ctx, EVP_sha256(), NULL))
		digest_fail();
	rc = canon_value(&c, v, 0);
	free(c.keys);
	if (rc == -2) {
		/*
		 * Deeper than any contract goes, or a cycle: start again
		 * with jansson, which writes any depth and refuses a cycle.
		 */
		if (!EVP_DigestInit_ex(c.ctx, EVP_sha256(), NULL))
			digest_fail();
		c.len = 0;
		rc = json_dump_callback(v, digest_update, c.ctx,
		    JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
	}
	if (rc == -1)
		digest_fail();
	canon_flush(&c);
	if (!EVP_DigestFinal_ex(c.ctx, md, &mdlen))
		digest_fail();
	EVP_MD_CTX_free(c.ctx);
	digest_hex(md, mdlen, out);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_sqlq.c - unit tests for lib/sqlq.c, the one place where contract
 * text becomes Flink SQL.
 *
 * Two kinds of test: exact spellings (what each function writes for
 * a given input, checked by hand against Flink's grammar: identifiers in
 * backquotes with `` for a backquote, literals in single quotes with ''
 * for a quote, U&'...' with \XXXX escapes, no backslash escapes in a
 * plain literal), and round trips through a decoder written here from
 * that grammar, over hand-picked and seeded random inputs.  Every output
 * must also be safe for the operator's SQL runner, which strips "--" and
 * slash-star comments without reading literals and splits statements at
 * lines ending in ";": so no "--", no comment opener or closer (slash
 * star, star slash), no control character (a newline least of all) may
 * appear in anything these functions write.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sqlq.h"
#include "xalloc.h"
#include "tap.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * sb_steal() hands over the string but leaves a fresh (allocated) buffer
 * behind, so release that too.
 */
static char *
steal(struct sb *sb)
{
	char *p = sb_steal(sb);

	sb_release(sb);
	return p;
}

/* --- a decoder, from the grammar ------------------------------------ */

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Append code point cp to sb as UTF-8. */
static void
put_utf8(struct sb *sb, unsigned long cp)
{
	if (cp < 0x80)
		sb_addc(sb, (char)cp);
	else if (cp < 0x800) {
		sb_addc(sb, (char)(0xc0 | cp >> 6));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		sb_addc(sb, (char)(0xe0 | cp >> 12));
		sb_addc(sb, (char)(0x80 | (cp >> 6 & 0x3f)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	} else {
		sb_addc(sb, (char)(0xf0 | cp >> 18));
		sb_addc(sb, (char)(0x80 | (cp >> 12 & 0x3f)));
		sb_addc(sb, (char)(0x80 | (cp >> 6 & 0x3f)));
		sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
	}
}

/*
 * Decode one string literal that must be all of s: '...' or U&'...'.
 * Returns the decoded text (caller frees) or NULL if s is not exactly
 * one well-formed literal.  In U&'...' the escape character is the
 * backslash: \XXXX (4 hex digits), \+XXXXXX (6) or \\.
 */
static char *
decode_literal(const char *s)
{
	struct sb out;
	const char *p;
	int uni = 0, h, i;
	unsigned long cp;

	if (strncmp(s, "U&'", 3) == 0) {
		uni = 1;
		p = s + 3;
	} else if (*s == '\'')
		p = s + 1;
	else
		return NULL;
	sb_init(&out);
	for (;;) {
		if (*p == '\0' || *p == '\n')
			goto bad;
		if (*p == '\'') {
			if (p[1] == '\'') {
				sb_addc(&out, '\'');
				p += 2;
				continue;
			}
			if (p[1] != '\0')
				goto bad;	/* text after the literal */
			return steal(&out);
		}
		if (uni && *p == '\\') {
			if (p[1] == '\\') {
				sb_addc(&out, '\\');
				p += 2;
				continue;
			}
			int n = p[1] == '+' ? 6 : 4;
			const char *d = p + (p[1] == '+' ? 2 : 1);

			for (cp = 0, i = 0; i < n; i++) {
				if ((h = hexval((unsigned char)d[i])) < 0)
					goto bad;
				cp = cp << 4 | (unsigned long)h;
			}
			if (cp == 0 || cp > 0x10ffff)
				goto bad;
			put_utf8(&out, cp);
			p = d + n;
			continue;
		}
		sb_addc(&out, *p++);
	}
bad:
	sb_release(&out);
	return NULL;
}

/* Decode one backquoted identifier that must be all of s. */
static char *
decode_ident(const char *s)
{
	struct sb out;
	const char *p;

	if (*s != '`')
		return NULL;
	sb_init(&out);
	for (p = s + 1;; p++) {
		if (*p == '\0' || *p == '\n') {
			sb_release(&out);
			return NULL;
		}
		if (*p == '`') {
			if (p[1] == '`') {
				sb_addc(&out, '`');
				p++;
				continue;
			}
			if (p[1] != '\0') {
				sb_release(&out);
				return NULL;
			}
			return steal(&out);
		}
		sb_addc(&out, *p);
	}
}

/* Would the runner's comment regex or its line splitting touch s? */
static int
runner_safe(const char *s)
{
	const unsigned char *p;

	if (strstr(s, "--") || strstr(s, "/*") || strstr(s, "*/"))
		return 0;
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

/* --- helpers ---------------------------------------------------------- */

static char *
lit(const char *s)
{
	struct sb sb;

	sb_init(&sb);
	sqlq_literal(&sb, s);
	return steal(&sb);
}

/* The identifier, or "FAIL" (and then sb must have stayed empty). */
static char *
idn(const char *s)
{
	struct sb sb;

	sb_init(&sb);
	if (sqlq_ident(&sb, s) == -1) {
		int empty = sb.len == 0;

		sb_release(&sb);
		return xstrdup(empty ? "FAIL" : "FAIL, but appended");
	}
	return steal(&sb);
}

static char *
set(const char *k, const char *v)
{
	struct sb sb;

	sb_init(&sb);
	if (sqlq_set(&sb, k, v) == -1) {
		int empty = sb.len == 0;

		sb_release(&sb);
		return xstrdup(empty ? "FAIL" : "FAIL, but appended");
	}
	return steal(&sb);
}

/* --- exact spellings -------------------------------------------------- */

static void
test_ident(void)
{
	static const struct {
		const char *in, *want;
	} t[] = {
		{ "event_id", "`event_id`" },
		{ "order", "`order`" },		/* a reserved word */
		{ "fluid_iceberg", "`fluid_iceberg`" },
		{ "A_1", "`A_1`" },
		{ "a`b", "`a``b`" },
		{ "`", "````" },
		{ "``", "``````" },
		{ "it's", "`it's`" },
		{ "a b", "`a b`" },
		{ "a;", "`a;`" },
		{ "a-b", "`a-b`" },
		{ "a/b*c", "`a/b*c`" },
		{ "-", "`-`" },
		{ "caf\xc3\xa9", "`caf\xc3\xa9`" },
		{ "", "FAIL" },
		{ "a--b", "FAIL" },
		{ "--", "FAIL" },
		{ "a/*b", "FAIL" },
		{ "a*/b", "FAIL" },
		{ "a\nb", "FAIL" },
		{ "a\rb", "FAIL" },
		{ "a\tb", "FAIL" },
		{ "a\x7f", "FAIL" },
		{ "\x01", "FAIL" },
	};
	size_t i;
	char *got;

	for (i = 0; i < NELEM(t); i++) {
		got = idn(t[i].in);
		is_str(got, t[i].want, "sqlq_ident(%s)", tap_q(t[i].in));
		free(got);
	}
	/* It appends: what was in the buffer stays in front. */
	{
		struct sb sb;

		sb_init(&sb);
		sb_adds(&sb, "x.");
		is_int(sqlq_ident(&sb, "y"), 0, "sqlq_ident returns 0");
		is_str(sb.buf, "x.`y`", "sqlq_ident appends");
		is_int(sqlq_ident(&sb, "a--b"), -1, "sqlq_ident returns -1");
		is_str(sb.buf, "x.`y`", "a refused identifier appends nothing");
		sb_release(&sb);
	}
}

static void
test_literal(void)
{
	static const struct {
		const char *in, *want;
	} t[] = {
		/* Plain literals: only the quote is doubled. */
		{ "", "''" },
		{ "orders", "'orders'" },
		{ "it's", "'it''s'" },
		{ "'", "''''" },
		{ "''", "''''''" },
		{ "a`b", "'a`b'" },
		{ "a;b", "'a;b'" },
		{ ";", "';'" },
		{ "a-b", "'a-b'" },
		{ "-", "'-'" },
		{ "a-'-b", "'a-''-b'" },	/* no "--" in input or output */
		{ "*'/", "'*''/'" },
		{ "a*b/c", "'a*b/c'" },
		{ "s3://lake/warehouse", "'s3://lake/warehouse'" },
		{ "kafka:9092", "'kafka:9092'" },
		{ "env:ICEBERG_TOKEN", "'env:ICEBERG_TOKEN'" },
		{ "caf\xc3\xa9", "'caf\xc3\xa9'" },
		{ "\xe6\x97\xa5\xe6\x9c\xac", "'\xe6\x97\xa5\xe6\x9c\xac'" },
		{ "U&'x'", "'U&''x'''" },
		{ "$", "'$'" },
		/* U&'...': controls, backslash, '-', '*' and '/' escaped. */
		{ "a--b", "U&'a\\002d\\002db'" },
		{ "--", "U&'\\002d\\002d'" },
		{ "/*", "U&'\\002f\\002a'" },
		{ "*/", "U&'\\002a\\002f'" },
		{ "a\\b", "U&'a\\005cb'" },
		{ "\\", "U&'\\005c'" },
		{ "x\ny", "U&'x\\000ay'" },
		{ "x\r\n", "U&'x\\000d\\000a'" },
		{ "\t", "U&'\\0009'" },
		{ "\x7f", "U&'\\007f'" },
		{ "it's--", "U&'it''s\\002d\\002d'" },
		{ "https://h/a--b", "U&'https:\\002f\\002fh\\002fa\\002d\\002db'" },
		{ "caf\xc3\xa9--", "U&'caf\xc3\xa9\\002d\\002d'" },
		{ "';--", "U&''';\\002d\\002d'" },
		{ "\\0027", "U&'\\005c0027'" },
	};
	size_t i;
	char *got;

	for (i = 0; i < NELEM(t); i++) {
		got = lit(t[i].in);
		is_str(got, t[i].want, "sqlq_literal(%s)", tap_q(t[i].in));
		free(got);
	}
	{
		struct sb sb;

		sb_init(&sb);
		sb_adds(&sb, "m[");
		sqlq_literal(&sb, "k");
		sb_addc(&sb, ']');
		is_str(sb.buf, "m['k']", "sqlq_literal appends");
		sb_release(&sb);
	}
}

static void
test_plain(void)
{
	static const struct {
		const char	*in;
		bool		 plain;
	} t[] = {
		{ "", true }, { "orders", true }, { "it's", true },
		{ "a-b", true }, { "a*b", true }, { "a/b", true },
		{ "a;b", true }, { "a`b", true }, { "caf\xc3\xa9", true },
		{ "a--b", false }, { "/*", false }, { "*/", false },
		{ "a\\b", false }, { "a\nb", false }, { "\x01", false },
		{ "\x7f", false }, { "\t", false },
	};
	size_t i;

	for (i = 0; i < NELEM(t); i++)
		is_int(sqlq_plain(t[i].in), t[i].plain, "sqlq_plain(%s) is %s",
		    tap_q(t[i].in), t[i].plain ? "true" : "false");
}

static void
test_set(void)
{
	static const struct {
		const char *k, *v, *want;
	} t[] = {
		{ "pipeline.name", "commerce.orders-landed/land-orders",
		    "SET 'pipeline.name' = 'commerce.orders-landed/land-orders';\n" },
		{ "a", "", "SET 'a' = '';\n" },
		{ "a", "b c", "SET 'a' = 'b c';\n" },
		{ "a", "b;", "SET 'a' = 'b;';\n" },
		{ "a", "caf\xc3\xa9", "SET 'a' = 'caf\xc3\xa9';\n" },
		{ "", "v", "FAIL" },
		{ "a b", "v", "FAIL" },
		{ "a'", "v", "FAIL" },
		{ "a", "it's", "FAIL" },
		{ "a", "x--y", "FAIL" },
		{ "a--b", "v", "FAIL" },
		{ "a", "/*", "FAIL" },
		{ "a", "*/", "FAIL" },
		{ "a", "x\\y", "FAIL" },
		{ "a\\", "v", "FAIL" },
		{ "a", "x\ny", "FAIL" },
		{ "a\t", "v", "FAIL" },
	};
	size_t i;
	char *got;

	for (i = 0; i < NELEM(t); i++) {
		got = set(t[i].k, t[i].v);
		is_str(got, t[i].want, "sqlq_set(%s, %s)", tap_q(t[i].k),
		    tap_q(t[i].v));
		free(got);
	}
}

/* --- round trips -------------------------------------------------------- */

/* Round-trip one string through every function that accepts it. */
static int
round_trip(const char *s)
{
	char *l, *d, *i, *want;
	int good = 1;

	l = lit(s);
	d = decode_literal(l);
	if (d == NULL || strcmp(d, s) != 0 || !runner_safe(l) ||
	    (strncmp(l, "U&'", 3) == 0) == sqlq_plain(s) ||
	    strchr(l, '\n') != NULL)
		good = 0;
	free(d);
	free(l);

	i = idn(s);
	if (strcmp(i, "FAIL") == 0) {
		/* Refused: it must have been unsafe or empty. */
		if (*s != '\0' && runner_safe(s))
			good = 0;
	} else if ((d = decode_ident(i)) == NULL || strcmp(d, s) != 0 ||
	    !runner_safe(i))
		good = 0;
	else
		free(d);
	free(i);

	/*
	 * SET: the runner matches SET\s+'(\S+)'\s+=\s+'(.*)'; and applies
	 * group 2 as it is, so an accepted pair must be spelled exactly so,
	 * with no quote in the value that could end the match elsewhere.
	 */
	i = set("k.x", s);
	if (strcmp(i, "FAIL") != 0) {
		want = xasprintf("SET 'k.x' = '%s';\n", s);
		if (strcmp(i, want) != 0 || strchr(s, '\'') ||
		    !runner_safe(s) || strchr(s, '\\'))
			good = 0;
		free(want);
	} else if (sqlq_plain(s) && !strchr(s, '\''))
		good = 0;	/* refused a value it could have written */
	free(i);
	return good;
}

static void
test_round_trips(void)
{
	static const char *const t[] = {
		"", "a", "'", "''", "`", "\\", "\\\\", "--", "---", "/*",
		"*/", "/**/", "-*/", "/-*", ";", "';", "`;", "' OR '1'='1",
		"'; DROP TABLE t; --", "*/ INSERT /*", "U&'\\0027'",
		"\\0027", "\\+000027", "x\ny", "x\r", "\x1b[0m", "\x7f",
		"caf\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac--",
		"\xf0\x9f\x98\x80/*", "\xe2\x80\xa8", "a-", "-a", "a*",
		"*a", "/", "*", "-", "s3://bucket/a--b/*c*/;d\\e'f`g",
		"env:X", "${X}", "%s%n", "\"", "a\"b",
	};
	size_t i;
	unsigned int seed = 20261129;
	/* Pieces the random strings are made of. */
	static const char *const pieces[] = {
		"'", "`", "\\", "-", "*", "/", ";", "a", "Z", "0", " ", "\n",
		"\t", "\x01", "\x7f", "\"", "$", "{", "}", "&", "U", "+",
		"\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80", "\xe2\x80\xa8",
	};
	int n = 0, bad = 0;

	for (i = 0; i < NELEM(t); i++)
		ok(round_trip(t[i]), "round trip of hand-picked string %s",
		    tap_q(t[i]));
	for (i = 0; i < 2000; i++) {
		struct sb s;
		int k, len;

		sb_init(&s);
		seed = seed * 1103515245u + 12345u;
		len = (int)(seed >> 16) % 12;
		for (k = 0; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			sb_adds(&s, pieces[(seed >> 16) % NELEM(pieces)]);
		}
		n++;
		if (!round_trip(s.buf)) {
			bad++;
			if (bad <= 5)
				printf("# round trip failed for a %zu-byte "
				    "string\n", s.len);
		}
		sb_release(&s);
	}
	ok(bad == 0, "round trips of %d seeded random strings (%d failed)",
	    n, bad);
}

/* The decoder itself, so that a bug in it cannot hide one in sqlq. */
static void
test_decoder(void)
{
	char *d;

	d = decode_literal("'it''s'");
	is_str(d, "it's", "decoder: '' is a quote");
	free(d);
	d = decode_literal("U&'a\\002d\\+00263A\\\\'");
	is_str(d, "a-\xe2\x98\xba\\", "decoder: U& escapes");
	free(d);
	d = decode_ident("`a``b`");
	is_str(d, "a`b", "decoder: `` is a backquote");
	free(d);
	ok(decode_literal("'a'b'") == NULL, "decoder: text after a literal");
	ok(decode_literal("'a") == NULL, "decoder: unterminated literal");
	ok(decode_literal("U&'\\00g0'") == NULL, "decoder: bad escape");
	ok(decode_literal("U&'\\002'") == NULL, "decoder: short escape");
	ok(decode_ident("`a`b`") == NULL, "decoder: text after an identifier");
}

int
main(void)
{
	test_decoder();
	test_ident();
	test_literal();
	test_plain();
	test_set();
	test_round_trips();
	return done_testing();
}

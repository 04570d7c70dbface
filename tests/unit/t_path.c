/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_path.c - unit tests for lib/path.c.
 */
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "tap.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

#define R_EMPTY	"path is empty"
#define R_START	"path must start with a name"
#define R_NAME	"a name must start with a letter or '_'"
#define R_LONG	"name is longer than 128 bytes"
#define R_KEYSYN "a map key is written as ['literal']"
#define R_UNTERM "unterminated map key"
#define R_CLOSE	"a map key must be followed by ']'"
#define R_CTRL	"control character in map key"
#define R_UTF8	"map key is not valid UTF-8"
#define R_STEPS	"path has more than 64 steps"
#define R_AFTER	"unexpected character after a step"

/*
 * Paths that parse: the input, its steps written F:name or K:key with
 * "|" between them, and the canonical spelling.
 */
static const struct {
	const char	*in;
	const char	*steps;
	const char	*canon;
} good[] = {
	{ "a", "F:a", "a" },
	{ "_", "F:_", "_" },
	{ "event_id", "F:event_id", "event_id" },
	{ "A_1.b2._c", "F:A_1|F:b2|F:_c", "A_1.b2._c" },
	{ "customer.id", "F:customer|F:id", "customer.id" },
	{ "customer.address.country", "F:customer|F:address|F:country",
	    "customer.address.country" },
	{ "item", "F:item", "item" },
	{ "item.sku", "F:item|F:sku", "item.sku" },
	{ "attributes['channel']", "F:attributes|K:channel",
	    "attributes['channel']" },
	{ "m['']", "F:m|K:", "m['']" },
	{ "m['it''s']", "F:m|K:it's", "m['it''s']" },
	{ "m['''']", "F:m|K:'", "m['''']" },
	{ "m['''''']", "F:m|K:''", "m['''''']" },
	{ "m['a.b']", "F:m|K:a.b", "m['a.b']" },
	{ "m['[x]']", "F:m|K:[x]", "m['[x]']" },
	{ "m['x'']']", "F:m|K:x']", "m['x'']']" },
	{ "m[']']", "F:m|K:]", "m[']']" },
	{ "m['['']']", "F:m|K:[']", "m['['']']" },
	{ "m[' ']", "F:m|K: ", "m[' ']" },
	{ "m['a b c']", "F:m|K:a b c", "m['a b c']" },
	{ "m['a']['b'].c", "F:m|K:a|K:b|F:c", "m['a']['b'].c" },
	{ "m['k'].f['g'].h", "F:m|K:k|F:f|K:g|F:h", "m['k'].f['g'].h" },
	{ "m['; DROP TABLE x; --']", "F:m|K:; DROP TABLE x; --",
	    "m['; DROP TABLE x; --']" },
	{ "m[''' OR 1=1 --']", "F:m|K:' OR 1=1 --",
	    "m[''' OR 1=1 --']" },
	{ "m['`x`\"y\"\\z']", "F:m|K:`x`\"y\"\\z", "m['`x`\"y\"\\z']" },
	{ "m['caf\xc3\xa9']", "F:m|K:caf\xc3\xa9", "m['caf\xc3\xa9']" },
	{ "m['\xe6\x97\xa5\xe6\x9c\xac']", "F:m|K:\xe6\x97\xa5\xe6\x9c\xac",
	    "m['\xe6\x97\xa5\xe6\x9c\xac']" },
	{ "m['\xf0\x9f\x98\x80']", "F:m|K:\xf0\x9f\x98\x80",
	    "m['\xf0\x9f\x98\x80']" },
	{ "m['\xc2\xa0']", "F:m|K:\xc2\xa0", "m['\xc2\xa0']" },
	{ "m['\xef\xbf\xbf']", "F:m|K:\xef\xbf\xbf", "m['\xef\xbf\xbf']" },
	{ "m['\xf4\x8f\xbf\xbf']", "F:m|K:\xf4\x8f\xbf\xbf",
	    "m['\xf4\x8f\xbf\xbf']" }
};

static const struct {
	const char	*in;
	const char	*why;
} bad[] = {
	{ "", R_EMPTY },
	{ ".a", R_START },
	{ "1a", R_START },
	{ " a", R_START },
	{ "['k']", R_START },
	{ "'a'", R_START },
	{ "`a`", R_START },
	{ "\"a\"", R_START },
	{ "-- comment", R_START },
	{ "*", R_START },
	{ "\xc3\xa9t\xc3\xa9", R_START },
	{ "a.", R_NAME },
	{ "a..b", R_NAME },
	{ "a.1b", R_NAME },
	{ "a. b", R_NAME },
	{ "a.['k']", R_NAME },
	{ "a.*", R_NAME },
	{ "a.`b`", R_NAME },
	{ "a b", R_AFTER },
	{ "a;DROP TABLE x", R_AFTER },
	{ "a; DROP TABLE x", R_AFTER },
	{ "a.b--c", R_AFTER },
	{ "a--", R_AFTER },
	{ "a/*x*/", R_AFTER },
	{ "a['x'] OR 1=1", R_AFTER },
	{ "a['x']OR 1=1", R_AFTER },
	{ "a['x']b", R_AFTER },
	{ "a['x']]", R_AFTER },
	{ "a['x'];", R_AFTER },
	{ "a-b", R_AFTER },
	{ "a)", R_AFTER },
	{ "a(1)", R_AFTER },
	{ "a[0]", R_KEYSYN },
	{ "a`b`", R_AFTER },
	{ "a\n", R_AFTER },
	{ "a\t", R_AFTER },
	{ "a ", R_AFTER },
	{ "a\xc3\xa9", R_AFTER },
	{ "a||b", R_AFTER },
	{ "a,b", R_AFTER },
	{ "a=b", R_AFTER },
	{ "a:b", R_AFTER },
	{ "a[x]", R_KEYSYN },
	{ "a[\"x\"]", R_KEYSYN },
	{ "a[", R_KEYSYN },
	{ "a[ 'x']", R_KEYSYN },
	{ "a[]", R_KEYSYN },
	{ "a['x", R_UNTERM },
	{ "a['", R_UNTERM },
	{ "a['x''", R_UNTERM },
	{ "a['x'']", R_UNTERM },
	{ "a['x' ]", R_CLOSE },
	{ "a['x'", R_CLOSE },
	{ "a['x'y']", R_CLOSE },
	{ "a['x')", R_CLOSE },
	{ "a['x\ty']", R_CTRL },
	{ "a['x\ny']", R_CTRL },
	{ "a['\r']", R_CTRL },
	{ "a['\x01']", R_CTRL },
	{ "a['\x1b[31m']", R_CTRL },
	{ "a['\x7f']", R_CTRL },
	{ "a['\xc2\x80']", R_CTRL },
	{ "a['\xc2\x85']", R_CTRL },
	{ "a['\xc2\x9f']", R_CTRL },
	{ "a['\xff']", R_UTF8 },
	{ "a['\x80']", R_UTF8 },
	{ "a['\xc0\xaf']", R_UTF8 },
	{ "a['\xc1\xbf']", R_UTF8 },
	{ "a['\xe0\x80\xaf']", R_UTF8 },
	{ "a['\xf0\x80\x80\xaf']", R_UTF8 },
	{ "a['\xed\xa0\x80']", R_UTF8 },
	{ "a['\xed\xbf\xbf']", R_UTF8 },
	{ "a['\xf4\x90\x80\x80']", R_UTF8 },
	{ "a['\xf5\x80\x80\x80']", R_UTF8 },
	{ "a['\xe6\x97']", R_UTF8 },
	{ "a['\xe6\x97", R_UTF8 },
	{ "a['\xc3']", R_UTF8 },
	{ "a['\xc3", R_UTF8 }
};

/* The steps of p written as in good[].steps. */
static char *
steps_of(const struct path *p)
{
	struct sb sb;
	char *s;
	size_t i;

	sb_init(&sb);
	for (i = 0; i < p->n; i++) {
		if (i > 0)
			sb_addc(&sb, '|');
		sb_adds(&sb, p->steps[i].kind == PATH_FIELD ? "F:" : "K:");
		sb_adds(&sb, p->steps[i].name);
	}
	s = sb_steal(&sb);
	sb_release(&sb);
	return s;
}

static char *
print_of(const struct path *p)
{
	struct sb sb;
	char *s;

	sb_init(&sb);
	path_print(p, &sb);
	s = sb_steal(&sb);
	sb_release(&sb);
	return s;
}

static bool
path_equal(const struct path *a, const struct path *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->steps[i].kind != b->steps[i].kind ||
		    strcmp(a->steps[i].name, b->steps[i].name) != 0)
			return false;
	return true;
}

static void
test_good(void)
{
	struct path p, q;
	const char *why;
	char *s, *t;
	size_t i;

	for (i = 0; i < NELEM(good); i++) {
		why = NULL;
		if (!is_int(path_parse(good[i].in, &p, &why), 0,
		    "good path %s parses", tap_q(good[i].in))) {
			printf("#   why: %s\n", why);
			continue;
		}
		s = steps_of(&p);
		is_str(s, good[i].steps, "good path %s: into its steps", tap_q(good[i].in));
		free(s);
		s = print_of(&p);
		is_str(s, good[i].canon, "good path %s: prints canonically",
		    tap_q(good[i].in));
		ok(path_parse(s, &q, &why) == 0 && path_equal(&p, &q),
		    "good path %s: its print parses back",
		    tap_q(good[i].in));
		t = print_of(&q);
		is_str(t, s, "good path %s: prints the same again", tap_q(good[i].in));
		free(t);
		free(s);
		path_release(&q);
		path_release(&p);
	}
}

static void
test_bad(void)
{
	struct path p;
	const char *why, *why2;
	size_t i;

	for (i = 0; i < NELEM(bad); i++) {
		why = NULL;
		p.steps = (void *)&p;	/* garbage, to see it reset */
		p.n = 99;
		if (!is_int(path_parse(bad[i].in, &p, &why), -1,
		    "bad path %s is refused", tap_q(bad[i].in)))
			path_release(&p);
		is_str(why, bad[i].why, "bad path %s: the expected reason",
		    tap_q(bad[i].in));
		ok(p.steps == NULL && p.n == 0, "bad path %s: leaves p empty",
		    tap_q(bad[i].in));
		/*
		 * Several reasons spell out the grammar; an input that
		 * happens to be part of that text is still not echoed.
		 */
		if (bad[i].in[0] != '\0' && strstr(bad[i].why, bad[i].in) ==
		    NULL)
			ok(why != NULL && strstr(why, bad[i].in) == NULL,
			    "bad path %s: the reason does not quote it",
			    tap_q(bad[i].in));
	}

	why = NULL;
	ok(path_parse(NULL, &p, &why) == -1 && why != NULL &&
	    strcmp(why, R_EMPTY) == 0, "NULL is an empty path");
	ok(path_parse("a b", &p, NULL) == -1 && p.n == 0,
	    "why may be NULL");
	ok(path_parse("a.b", &p, NULL) == 0 && p.n == 2,
	    "why may be NULL on success");
	path_release(&p);
	path_release(&p);
	ok(p.steps == NULL && p.n == 0, "path_release twice is harmless");

	path_parse("x y", &p, &why);
	path_parse("long_name_here;DROP TABLE users", &p, &why2);
	ok(why == why2, "reasons are static strings");
}

/* Injection attempts: refused, and nothing of them in the reason. */
static void
test_injection(void)
{
	static const char *const inj[] = {
		"a; DROP TABLE x",
		"a;DROP TABLE x",
		"a.b--c",
		"a['x'] OR 1=1",
		"a['x'] OR '1'='1'",
		"a['x']) UNION SELECT secret FROM creds --",
		"a UNION SELECT 1",
		"a/**/OR/**/1=1",
		"a.b`; DROP TABLE x; --",
		"a[\"x\"] OR 1=1",
		"a['x'']; DROP TABLE x; --",
		"a['x\n'] OR 1=1",
		"a['x\x1b]0;pwned\x07']",
		"CAST(a AS STRING)",
		"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.0evil",
		"exec('rm -rf /')",
		"${jndi:ldap://evil/x}",
		"a.${jndi:ldap://evil/x}",
		"a['$(id)']x",
		"SELECT * FROM t"
	};
	static const char *const marks[] = {
		"DROP", "UNION", "SELECT", "OR", "1=1", "--", ";", "evil",
		"pwned", "jndi", "rm -rf", "$(id)", "CAST", "secret"
	};
	struct path p;
	const char *why;
	size_t i, k;
	bool clean;

	for (i = 0; i < NELEM(inj); i++) {
		why = NULL;
		ok(path_parse(inj[i], &p, &why) == -1 && p.n == 0,
		    "injection attempt %s is refused", tap_q(inj[i]));
		clean = why != NULL && strstr(why, inj[i]) == NULL;
		for (k = 0; k < NELEM(marks) && clean; k++)
			if (strstr(inj[i], marks[k]) != NULL &&
			    strstr(why, marks[k]) != NULL)
				clean = false;
		ok(clean, "injection %s: the reason shows none of it", tap_q(inj[i]));
		if (!clean)
			printf("#   why: %s\n", why ? why : "(null)");
		path_release(&p);
	}
}

static void
test_limits(void)
{
	struct path p, q;
	struct sb sb;
	const char *why;
	char *s;
	size_t i;

	/* 64 steps: a name and 63 more. */
	sb_init(&sb);
	sb_adds(&sb, "s0");
	for (i = 1; i < PATH_MAX_STEPS; i++)
		sb_addf(&sb, ".s%zu", i);
	ok(path_parse(sb.buf, &p, &why) == 0 && p.n == 64,
	    "64 steps are accepted");
	ok(p.n == 64 && strcmp(p.steps[63].name, "s63") == 0,
	    "the last step is there");
	s = print_of(&p);
	is_str(s, sb.buf, "and print back");
	free(s);
	path_release(&p);
	sb_adds(&sb, ".s64");
	why = NULL;
	ok(path_parse(sb.buf, &p, &why) == -1 && p.n == 0,
	    "65 steps are refused");
	is_str(why, R_STEPS, "...because there are too many");
	sb_adds(&sb, ".s65.s66");
	path_parse(sb.buf, &p, &why);
	is_str(why, R_STEPS, "so are 67");
	sb_release(&sb);

	/* Map keys count as steps too. */
	sb_init(&sb);
	sb_adds(&sb, "m");
	for (i = 1; i < PATH_MAX_STEPS; i++)
		sb_adds(&sb, i % 2 ? "['k''']" : ".f");
	ok(path_parse(sb.buf, &p, &why) == 0 && p.n == 64 &&
	    p.steps[63].kind == PATH_KEY &&
	    strcmp(p.steps[63].name, "k'") == 0,
	    "64 steps with map keys are accepted");
	path_release(&p);
	sb_adds(&sb, "['x']");
	why = NULL;
	ok(path_parse(sb.buf, &p, &why) == -1, "a 65th step that is a key");
	is_str(why, R_STEPS, "...is one too many");
	sb_release(&sb);

	/* A bad character after 64 steps is a bad character. */
	sb_init(&sb);
	sb_adds(&sb, "a");
	for (i = 1; i < PATH_MAX_STEPS; i++)
		sb_adds(&sb, ".a");
	sb_adds(&sb, ";DROP");
	path_parse(sb.buf, &p, &why);
	is_str(why, R_AFTER, "64 steps then ';' is a bad character");
	sb_release(&sb);

	/* A very long path is refused at step 65, whatever follows. */
	sb_init(&sb);
	sb_adds(&sb, "a");
	for (i = 0; i < 100000; i++)
		sb_adds(&sb, ".a");
	path_parse(sb.buf, &p, &why);
	is_str(why, R_STEPS, "100001 steps are refused");
	sb_release(&sb);

	/* Names of 128 bytes, first and later. */
	sb_init(&sb);
	for (i = 0; i < PATH_MAX_IDENT; i++)
		sb_addc(&sb, 'n');
	ok(path_parse(sb.buf, &p, &why) == 0 && p.n == 1 &&
	    strlen(p.steps[0].name) == 128, "a 128-byte name");
	path_release(&p);
	ok(path_is_ident(sb.buf), "is an identifier");
	sb_addc(&sb, 'n');
	why = NULL;
	ok(path_parse(sb.buf, &p, &why) == -1, "a 129-byte name is refused");
	is_str(why, R_LONG, "a 129-byte name: the reason is its length");
	ok(!path_is_ident(sb.buf), "and is not an identifier");
	sb_truncate(&sb, 0);
	sb_adds(&sb, "a.");
	for (i = 0; i < 129; i++)
		sb_addc(&sb, 'x');
	why = NULL;
	ok(path_parse(sb.buf, &p, &why) == -1,
	    "a 129-byte name after '.' is refused");
	is_str(why, R_LONG, "a 129-byte name after '.': the reason is its length");
	ok(why != NULL && strstr(why, "xxx") == NULL, "and not echoed");
	sb_truncate(&sb, 0);
	sb_adds(&sb, "a.");
	for (i = 0; i < 100000; i++)
		sb_addc(&sb, 'x');
	path_parse(sb.buf, &p, &why);
	is_str(why, R_LONG, "so is one of 100000 bytes");
	sb_release(&sb);

	/* Map keys have no length limit of their own. */
	sb_init(&sb);
	sb_adds(&sb, "m['");
	for (i = 0; i < 10000; i++)
		sb_adds(&sb, "''");
	sb_adds(&sb, "']");
	ok(path_parse(sb.buf, &p, &why) == 0 && p.n == 2 &&
	    strlen(p.steps[1].name) == 10000, "a key of 10000 quotes");
	s = print_of(&p);
	is_str(s, sb.buf, "prints back doubled");
	ok(path_parse(s, &q, &why) == 0 && path_equal(&p, &q),
	    "and parses back");
	path_release(&q);
	free(s);
	path_release(&p);
	sb_release(&sb);
}

/* Paths built by hand print so that they parse back to themselves. */
static void
test_print(void)
{
	static const char *const keys[] = {
		"", "'", "''", "'x'", "a.b", "[", "]", "['", "']", "x']['y",
		"a['b']", " ", "; DROP TABLE x; --", "\\", "\"", "`",
		"caf\xc3\xa9", "'; --", "x'']", "a.b['c'].d"
	};
	struct path_step st[3];
	struct path p, q;
	struct sb sb;
	const char *why;
	char *s;
	size_t i;

	for (i = 0; i < NELEM(keys); i++) {
		st[0].kind = PATH_FIELD;
		st[0].name = (char *)"m";
		st[1].kind = PATH_KEY;
		st[1].name = (char *)keys[i];
		st[2].kind = PATH_FIELD;
		st[2].name = (char *)"f";
		p.steps = st;
		p.n = 3;
		s = print_of(&p);
		why = NULL;
		ok(path_parse(s, &q, &why) == 0 && path_equal(&p, &q),
		    "key %zu round-trips through path_print", i);
		if (why != NULL)
			printf("#   why: %s\n", why);
		free(s);
		path_release(&q);
	}

	st[0].kind = PATH_FIELD;
	st[0].name = (char *)"a";
	st[1].kind = PATH_KEY;
	st[1].name = (char *)"it's";
	p.steps = st;
	p.n = 2;
	sb_init(&sb);
	sb_adds(&sb, "from: ");
	path_print(&p, &sb);
	is_str(sb.buf, "from: a['it''s']", "path_print appends, doubling '");
	sb_release(&sb);

	p.n = 0;
	s = print_of(&p);
	is_str(s, "", "an empty path prints nothing");
	free(s);
}

static void
test_ident(void)
{
	static const struct {
		const char	*s;
		bool		 ok;
	} id[] = {
		{ "a", true },
		{ "_", true },
		{ "Z", true },
		{ "event_id", true },
		{ "_A_1", true },
		{ "x9", true },
		{ "", false },
		{ "1a", false },
		{ "9", false },
		{ "a.b", false },
		{ "a-b", false },
		{ "a b", false },
		{ " a", false },
		{ "a ", false },
		{ "a['k']", false },
		{ "a;", false },
		{ "`a`", false },
		{ "\xc3\xa9", false },
		{ "a\xc3\xa9", false },
		{ "a\n", false }
	};
	size_t i;

	for (i = 0; i < NELEM(id); i++)
		ok(path_is_ident(id[i].s) == id[i].ok, "path_is_ident %s %s",
		    id[i].ok ? "accepts" : "refuses", tap_q(id[i].s));
	ok(!path_is_ident(NULL), "path_is_ident(NULL)");
}

/* The pod paths fluid-check admits and fluid-sqlgen re-checks. */
static void
test_pod(void)
{
	static const struct {
		const char *s;
		bool ok;
	} pp[] = {
		{ "/etc/kafka/truststore.p12", true },
		{ "/a", true },
		{ "/etc/kafka/..p12", true },
		{ "/etc/kafka/.hidden", true },
		{ "/etc/kafka/..", false },
		{ "/etc/kafka/.", false },
		{ "/etc/kafka/", false },
		{ "/..", false },
		{ "/.", false },
		{ "/", false },
		{ "", false },
		{ "etc/kafka/t.p12", false },
		{ "/etc/../t.p12", false },
		{ "/etc/./t.p12", false },
		{ "//etc/t.p12", false },
		{ "/etc//t.p12", false },
		{ "/etc/kafka/t p12", false },
		{ "/etc/kafka/t'p12", false },
		{ "/etc/kafka/t\np12", false },
		{ "/etc/kafka/\xc3\xa9", false }
	};
	char big[1100];
	size_t i;

	for (i = 0; i < NELEM(pp); i++)
		ok(path_pod_ok(pp[i].s) == pp[i].ok, "path_pod_ok %s %s",
		    pp[i].ok ? "accepts" : "refuses", tap_q(pp[i].s));
	ok(!path_pod_ok(NULL), "path_pod_ok(NULL)");
	big[0] = '/';
	memset(big + 1, 'a', 1023);
	big[1024] = '\0';
	ok(path_pod_ok(big), "path_pod_ok: 1024 bytes");
	big[1024] = 'a';
	big[1025] = '\0';
	ok(!path_pod_ok(big), "path_pod_ok: 1025 bytes");
}

int
main(void)
{
	test_good();
	test_bad();
	test_injection();
	test_limits();
	test_print();
	test_ident();
	test_pod();
	return done_testing();
}

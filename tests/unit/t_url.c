/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_url.c - lib/url.c's reading of hosts: an IPv4 address is canonical
 * dotted decimal or refused, because libcurl and the job's Java clients
 * read the other forms as different addresses (0177.1.2.3: 127.1.2.3 to
 * libcurl, 177.1.2.3 to Java).  The refusal holds wherever a host is
 * read: url_parse() (the checker, net.c, targets), url_host_ascii() and
 * so the allowlists (allow_host(), allow_secret_ref(), their entries).
 */
#include <stdlib.h>
#include <string.h>

#include "allow.h"
#include "url.h"
#include "tap.h"

#define HOST	"FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST"
#define REF	"FLUID_ACQUISITION_SECRET_REF_ALLOWLIST"

static const char *const *environment;

static char *
fake_getenv(const char *name)
{
	size_t i;

	for (i = 0; environment != NULL && environment[i] != NULL; i += 2)
		if (strcmp(environment[i], name) == 0)
			return (char *)(unsigned long)environment[i + 1];
	return NULL;
}

static void
load(struct allow *a, const char *const *pairs)
{
	environment = pairs;
	allow_load(a, fake_getenv);
	environment = NULL;
}

static bool
literal(const char *h)
{
	const char *why = NULL;
	bool r = url_host_literal_ok(h, strlen(h), &why);

	if (!r && (why == NULL || strcmp(why, URL_IPV4_WHY) != 0))
		return true;	/* a refusal without its message fails */
	return r;
}

static bool
parses(const char *s, const char **why)
{
	struct url u;

	*why = NULL;
	if (url_parse(s, &u, why) == -1)
		return false;
	url_release(&u);
	return true;
}

static void
t_literals(void)
{
	static const char *const bad[] = {
		"0177.1.2.3", "012.0.0.5", "127.1", "127.0.1", "0x7f.0.0.1",
		"0X7F.0.0.1", "2130706433", "0", "10.0.0.05", "1.2.3.4.5",
		"256.1.1.1", "127.0.0.1.", "0.", "1..2.3", "00.0.0.0",
		"0x.0.0.0", NULL
	};
	static const char *const good[] = {
		"127.0.0.1", "10.0.0.5", "0.0.0.0", "255.255.255.255",
		"catalog.example.com", "data.2024", "x.0x10", "1a.2.3.4",
		"kafka", "[::1]", "::ffff:10.0.0.1", "xn--bcher-kva.example",
		NULL
	};
	size_t i;

	for (i = 0; bad[i] != NULL; i++)
		ok(!literal(bad[i]), "'%s' is refused", bad[i]);
	for (i = 0; good[i] != NULL; i++)
		ok(literal(good[i]), "'%s' is read alike", good[i]);
	ok(url_host_literal_ok("012.0.0.5:80", 9, &(const char *){ NULL }) ==
	    false, "only the n bytes given are read");
}

static void
t_parse(void)
{
	static const char *const bad[] = {
		"https://0177.1.2.3/", "https://012.0.0.5/catalog",
		"http://127.1:8181/", "http://0x7f.0.0.1/", "http://2130706433/",
		"https://user:pw@012.0.0.5:8443/x", "s3://012.0.0.5/bucket",
		"http://%31%32%37.0.0.1/", "http://127.0.0.1./", NULL
	};
	const char *why;
	struct url u;
	char *h;
	size_t i;

	for (i = 0; bad[i] != NULL; i++) {
		ok(!parses(bad[i], &why), "url_parse refuses %s", bad[i]);
		is_str(why, URL_IPV4_WHY, "with the one message");
	}
	ok(url_parse("https://10.0.0.5:8443/catalog", &u, &why) == 0,
	    "canonical dotted decimal is read");
	is_str(u.host, "10.0.0.5", "as written");
	url_release(&u);
	ok(parses("https://data.2024.example/x", &why) &&
	    parses("s3://logs.2024/x", &why) && parses("http://[::1]:80/", &why),
	    "a name with a numeric label, an IPv6 literal: read");
	h = url_host_ascii("http://0177.1.2.3/", &why);
	ok(h == NULL, "url_host_ascii refuses it too");
	is_str(why, URL_IPV4_WHY, "with the same message");
	free(h);
	h = url_host_ascii("http://\xef\xbc\x91\xef\xbc\x92\xef\xbc\x97.0.0.1/",
	    &why);
	ok(h == NULL, "full-width digits that IDNA turns into 127.0.0.1");
	free(h);
	h = url_host_ascii("http://8.8.8.8:53/", &why);
	is_str(h, "8.8.8.8", "a canonical address passes url_host_ascii");
	free(h);
}

static void
t_allowlists(void)
{
	static const char *const env[] = {
		HOST, "0177.1.2.3,8.8.8.8",
		REF, "ICEBERG_TOKEN@012.0.0.5,OTHER@10.0.0.5",
		NULL
	};
	struct allow a;
	char *why = NULL;

	load(&a, env);
	/* The case: 012.0.0.5 is 10.0.0.5 to libcurl, private. */
	ok(!allow_host(&a, "https://012.0.0.5/catalog", &why),
	    "a private address in octal is not admitted as private");
	ok(why != NULL && strstr(why, URL_IPV4_WHY) != NULL, "the refusal "
	    "says why: %s", why ? why : "(none)");
	free(why);
	why = NULL;
	ok(!allow_host(&a, "0177.1.2.3:9092", &why), "a broker in octal");
	free(why);
	why = NULL;
	ok(!allow_host(&a, "http://127.1/", NULL), "127.1");
	ok(!allow_host(&a, "http://2130706433/", NULL), "one number");
	ok(allow_host(&a, "127.0.0.1:9092", NULL) &&
	    allow_host(&a, "https://10.0.0.5/", NULL),
	    "canonical loopback and private addresses need no entry");
	ok(!allow_host(&a, "177.1.2.3", &why), "an entry 0177.1.2.3 admits "
	    "neither 177.1.2.3 ...");
	ok(why != NULL && strstr(why, "(entry 1 of " HOST " admits nothing: "
	    "it " URL_IPV4_WHY ")") != NULL, "and the refusal says why the "
	    "entry did not: %s", why ? why : "(none)");
	free(why);
	why = NULL;
	ok(!allow_host(&a, "0177.1.2.3", NULL), "... nor itself");
	ok(allow_host(&a, "8.8.8.8", NULL), "a canonical entry still admits");
	ok(!allow_secret_ref(&a, ALLOW_CMD_APPLY, "ICEBERG_TOKEN",
	    "https://012.0.0.5/", &why), "the token is not sent to "
	    "012.0.0.5, paired as it is");
	ok(why != NULL && strstr(why, URL_IPV4_WHY) != NULL, "and says why");
	free(why);
	why = NULL;
	ok(!allow_secret_ref(&a, ALLOW_CMD_APPLY, "ICEBERG_TOKEN",
	    "https://10.0.0.5/", &why), "an entry NAME@012.0.0.5 pairs "
	    "nothing, not 10.0.0.5");
	ok(why != NULL && strstr(why, "(entry 1 of " REF " admits nothing")
	    != NULL, "and says which entry: %s", why ? why : "(none)");
	free(why);
	why = NULL;
	ok(allow_secret_ref(&a, ALLOW_CMD_APPLY, "OTHER", "https://10.0.0.5/",
	    NULL), "a canonical pairing admits");
	ok(allow_host_normalize("012.0.0.5", &(const char *){ NULL }) == NULL,
	    "allow_host_normalize refuses it");
	allow_release(&a);
}

int
main(void)
{
	t_literals();
	t_parse();
	t_allowlists();
	return done_testing();
}

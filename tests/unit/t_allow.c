/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_allow.c - unit tests for lib/allow.c, the operator allowlists: each
 * rule of the specification's "Operator settings", admitted and refused,
 * with the examples of issue 15.  The environment is a table here, so
 * nothing depends on the environment the tests run in.
 */
#include <stdlib.h>
#include <string.h>

#include "allow.h"
#include "xalloc.h"
#include "tap.h"

#define CTX	"FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST"
#define NS	"FLUID_FLINK_NAMESPACE_ALLOWLIST"
#define IMG	"FLUID_FLINK_IMAGE_ALLOWLIST"
#define SA	"FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST"
#define SEC	"FLUID_FLINK_SECRET_ALLOWLIST"
#define HOST	"FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST"
#define REF	"FLUID_ACQUISITION_SECRET_REF_ALLOWLIST"
#define SQL	"FLUID_FLINK_CONTRACT_SQL_ALLOWLIST"

/* 64 hex digits: what a pinned image carries. */
#define D64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define PIN "@sha256:" D64

/* printf '%s' 'SELECT event_id FROM source_events' | sha256sum */
#define THE_SQL "SELECT event_id FROM source_events"
#define SQL_DIGEST \
	"sha256:77ccf39f738122f181e1031cf63e0f2a41ebb7ac3f56c9bc6273e6b691e6211b"

static const char *const *environment;

static char *
fake_getenv(const char *name)
{
	const char *const *p;

	for (p = environment; p != NULL && p[0] != NULL; p += 2)
		if (strcmp(p[0], name) == 0)
			return (char *)(size_t)p[1];
	return NULL;
}

/* Load a from name/value pairs, NULL-terminated. */
static void
load(struct allow *a, const char *const *pairs)
{
	environment = pairs;
	allow_load(a, fake_getenv);
	environment = NULL;
}

/* A matcher's verdict, and its message freed unless wanted. */
static char *last;

static bool
keep(bool ok, char *why)
{
	free(last);
	last = ok ? NULL : why;
	if (ok && why != NULL)
		last = xstrdup("a message for an admitted value");
	return ok;
}

static bool
host(const struct allow *a, const char *s)
{
	char *why = NULL;

	bool admitted = allow_host(a, s, &why);

	return keep(admitted, why);
}

static bool
image(const struct allow *a, const char *s)
{
	char *why = NULL;

	bool admitted = allow_image(a, s, &why);

	return keep(admitted, why);
}

static bool
ref(const struct allow *a, enum allow_cmd cmd, const char *name,
    const char *s)
{
	char *why = NULL;

	bool admitted = allow_secret_ref(a, cmd, name, s, &why);

	return keep(admitted, why);
}

static bool
sql(const struct allow *a, const char *product, const char *build,
    const char *text)
{
	char *why = NULL;

	bool admitted = allow_contract_sql(a, product, build, text, &why);

	return keep(admitted, why);
}

static bool
has(const char *s, const char *part)
{
	return s != NULL && strstr(s, part) != NULL;
}

static void
t_variables(void)
{
	static const char *const names[] = { CTX, NS, IMG, SA, SEC, HOST,
	    REF, SQL };
	size_t i;
	bool all = true;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		all &= allow_is_list_variable(names[i]);
	ok(all, "every list variable of the specification is a list variable");
	ok(!allow_is_list_variable("PATH"), "PATH is not a list variable");
	ok(!allow_is_list_variable("fluid_flink_image_allowlist"),
	    "variable names are case-sensitive");
	ok(!allow_is_list_variable(IMG "_X"), "a longer name is not one");
	ok(!allow_is_list_variable("FLUID_FLINK_IMAGE"), "nor a shorter one");
	ok(!allow_is_list_variable(NULL), "NULL is not a list variable");
	is_str(allow_variable(ALLOW_HOST), HOST, "allow_variable names it");
}

static void
t_unset(void)
{
	static const char *const empty[] = { CTX, "", NS, " , ,", NULL };
	struct allow a;
	char *why = NULL;

	load(&a, NULL);
	ok(!allow_kube_context(&a, "development", &why),
	    "an unset context list allows nothing");
	is_str(why, "kube context 'development' is not allowed: "
	    "export FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=development",
	    "the refusal names the value, the variable and the entry");
	free(why);
	ok(!host(&a, "catalog.example.com"), "an unset host list allows "
	    "no host name");
	ok(!image(&a, "registry.example.com/forge-flink" PIN),
	    "an unset image list allows no image");
	ok(!ref(&a, ALLOW_CMD_APPLY, "TOKEN", "https://c.example.com/"),
	    "an unset secret-ref list pairs nothing");
	ok(!sql(&a, "p", "b", THE_SQL), "an unset SQL list allows no SQL");
	allow_release(&a);

	load(&a, empty);
	ok(!allow_kube_context(&a, "", NULL), "an empty list allows not "
	    "even the empty name");
	ok(!allow_namespace(&a, "data-products", NULL),
	    "a list of blanks and commas allows nothing");
	allow_release(&a);
}

static void
t_exact(void)
{
	static const char *const env[] = {
		CTX, "development, staging",
		NS, "data-products",
		NULL
	};
	struct allow a;
	char *why = NULL;

	load(&a, env);
	ok(allow_kube_context(&a, "development", NULL), "a listed context");
	ok(allow_kube_context(&a, "staging", NULL),
	    "blanks around an entry are not part of it");
	ok(!allow_kube_context(&a, "develop", NULL), "a prefix of an entry "
	    "is not listed");
	ok(!allow_kube_context(&a, "development2", NULL), "an entry is not a "
	    "prefix");
	ok(!allow_kube_context(&a, "Development", NULL), "names are exact");
	ok(allow_namespace(&a, "data-products", NULL), "a listed namespace");
	ok(!allow_namespace(&a, "kube-system", &why), "another namespace");
	is_str(why, "namespace 'kube-system' is not allowed: export "
	    "FLUID_FLINK_NAMESPACE_ALLOWLIST=\"$FLUID_FLINK_NAMESPACE_"
	    "ALLOWLIST,kube-system\"",
	    "a list with entries: the export adds to it");
	free(why);
	why = NULL;
	ok(!allow_kube_context(&a, "prod$(rm -rf ~)", &why),
	    "a name with shell characters is refused");
	ok(why != NULL && !has(why, "rm -rf") && has(why, CTX),
	    "and not echoed, though the variable is named");
	free(why);
	why = NULL;
	ok(!allow_namespace(&a, "data-products\n", &why),
	    "a control character is refused");
	ok(why != NULL && strchr(why, '\n') == NULL, "and the message is "
	    "one line");
	free(why);
	allow_release(&a);
}

static void
t_image(void)
{
	static const char *const env[] = {
		IMG, "registry.example.com/forge-flink,ghcr.io/acme,"
		    "mirror.example.com/,flink,localhost:5000/team/",
		NULL
	};
	struct allow a;
	char *why = NULL;

	load(&a, env);
	ok(image(&a, "registry.example.com/forge-flink" PIN),
	    "an exact repository, pinned");
	ok(image(&a, "registry.example.com/forge-flink:1.20" PIN),
	    "a tag beside the digest does not decide");
	ok(image(&a, "registry.example.com/forge-flink:evil" PIN),
	    "whatever the tag says");
	ok(!image(&a, "registry.example.com/forge-flink:1.20"),
	    "a tag without a digest is refused");
	ok(has(last, "pinned by digest") &&
	    has(last, "registry.example.com/forge-flink@sha256:<digest>"),
	    "the refusal asks for the digest");
	ok(!image(&a, "registry.example.com/forge-flink"),
	    "an unpinned repository is refused");
	ok(!image(&a, "registry.example.com/forge-flink@sha256:abc"),
	    "a short digest is not a pin");
	ok(!image(&a, "registry.example.com/forge-flink@md5:" D64),
	    "nor another algorithm");
	ok(!image(&a, "registry.example.com/forge-flink-evil" PIN),
	    "an exact entry is not a prefix");
	ok(!image(&a, "registry.example.com/forge-flink/sub" PIN),
	    "nor a prefix of a path");
	ok(image(&a, "ghcr.io/acme" PIN), "ghcr.io/acme admits itself");
	ok(!image(&a, "ghcr.io/acmeevil" PIN),
	    "a prefix without the slash: ghcr.io/acme does not admit "
	    "ghcr.io/acmeevil");
	ok(!image(&a, "ghcr.io/acme/flink" PIN),
	    "nor what is under it");
	ok(image(&a, "mirror.example.com/a/b/c:1" PIN),
	    "a prefix ending in '/' admits every repository under it");
	ok(!image(&a, "mirror.example.com.evil.io/a" PIN),
	    "but not a registry that starts with its name");
	ok(image(&a, "MIRROR.Example.COM/a" PIN),
	    "the registry's case does not matter");
	ok(!image(&a, "mirror.example.com/A" PIN),
	    "an upper-case repository is not a reference");
	ok(image(&a, "flink:1.20" PIN), "Docker Hub's short form");
	ok(image(&a, "docker.io/library/flink" PIN),
	    "flink is docker.io/library/flink");
	ok(!image(&a, "evil/flink" PIN), "but not another Hub repository");
	ok(image(&a, "localhost:5000/team/x" PIN),
	    "a registry with a port, as a prefix");
	ok(!image(&a, "localhost:5001/team/x" PIN), "not another port");
	ok(!image(&a, "quay.io/other/x:latest" PIN), "an unlisted repository");
	is_str(last, "image 'quay.io/other/x' is not allowed: export "
	    "FLUID_FLINK_IMAGE_ALLOWLIST=\"$FLUID_FLINK_IMAGE_ALLOWLIST,"
	    "quay.io/other/x\"",
	    "the refusal gives the repository, without tag or digest");
	ok(!image(&a, "a b" PIN), "a blank is refused");
	ok(!image(&a, "" PIN), "an empty repository is refused");
	allow_release(&a);

	load(&a, NULL);
	ok(!allow_image(&a, "registry.example.com/forge-flink:1" PIN, &why),
	    "unset list");
	is_str(why, "image 'registry.example.com/forge-flink' is not "
	    "allowed: export FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com"
	    "/forge-flink", "the issue's example refusal");
	free(why);
	allow_release(&a);

	{
		static const char *const bad[] = {
			IMG, "ghcr.io/acme:1.0,ghcr.io/x@sha256:" D64, NULL
		};
		load(&a, bad);
		ok(!image(&a, "ghcr.io/acme" PIN),
		    "an entry with a tag admits nothing");
		ok(!image(&a, "ghcr.io/x" PIN),
		    "an entry with a digest admits nothing");
		allow_release(&a);
	}
}

static void
t_namespaced(void)
{
	static const char *const env[] = {
		SA, "data-products/flink,runner",
		SEC, "data-products/flink-storage",
		NULL
	};
	struct allow a;
	char *why = NULL;

	load(&a, env);
	ok(allow_service_account(&a, "data-products", "flink", NULL),
	    "namespace/name admits that account");
	ok(!allow_service_account(&a, "other", "flink", &why),
	    "not the same name in another namespace");
	is_str(why, "service account 'other/flink' is not allowed: export "
	    "FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST=\"$FLUID_FLINK_SERVICE_"
	    "ACCOUNT_ALLOWLIST,other/flink\"", "the refusal asks for "
	    "namespace/name");
	free(why);
	ok(!allow_service_account(&a, "data-products", "flinkx", NULL),
	    "nor a longer name");
	ok(!allow_service_account(&a, "data", "products/flink", NULL),
	    "a name with a slash cannot forge namespace/name");
	ok(allow_service_account(&a, "data-products", "runner", NULL),
	    "a bare name admits it in one namespace");
	ok(allow_service_account(&a, "other", "runner", NULL),
	    "and in any other");
	ok(allow_secret(&a, "data-products", "flink-storage", NULL),
	    "a listed Secret");
	ok(!allow_secret(&a, "data-products", "flink", NULL),
	    "the service account list does not admit Secrets");
	ok(!allow_secret(&a, "prod", "flink-storage", NULL),
	    "the Secret in another namespace");
	allow_release(&a);
}

static void
t_host_names(void)
{
	static const char *const env[] = {
		HOST, "catalog.example.com,svc.cluster.local,"
		    "Registry.Example.ORG.,bücher.example,"
		    "xn--mnchen-3ya.example",
		NULL
	};
	struct allow a;
	char *why = NULL;

	load(&a, env);
	ok(host(&a, "catalog.example.com"), "a listed host name");
	ok(host(&a, "https://catalog.example.com:8443/catalog/v1"),
	    "in a URL, with a port");
	ok(host(&a, "CATALOG.Example.COM."), "case and a trailing dot");
	ok(host(&a, "https://catalog.example.com./"), "a trailing dot in a URL");
	ok(!host(&a, "catalog.example.com.."), "two trailing dots are not "
	    "a host name");
	ok(host(&a, "catalog.ns.svc.cluster.local"),
	    "svc.cluster.local covers catalog.ns.svc.cluster.local");
	ok(host(&a, "svc.cluster.local"), "and itself");
	ok(!host(&a, "evilsvc.cluster.local"),
	    "but not evilsvc.cluster.local");
	ok(!host(&a, "cluster.local"), "a subdomain does not cover its "
	    "parent");
	ok(!host(&a, "sub.catalog.example.com.evil.io"),
	    "an entry in the middle of a name does not cover it");
	ok(!host(&a, "example.com"), "nor its parent domain");
	ok(host(&a, "registry.example.org"), "an entry's case and trailing "
	    "dot are normalised too");
	ok(host(&a, "xn--bcher-kva.example"), "an IDNA entry admits its "
	    "punycode");
	ok(host(&a, "https://BÜCHER.example/"), "and its Unicode, in any case");
	ok(host(&a, "https://münchen.example/"), "a punycode entry admits "
	    "the Unicode name");
	ok(!host(&a, "https://bucher.example/"), "not the name without the "
	    "umlaut");
	ok(!host(&a, "localhost"), "localhost is a name and needs an entry");
	ok(!host(&a, "db.localhost"), "so does db.localhost");
	ok(!allow_host(&a, "https://user:secret@evil.example.com/p/q?x=1",
	    &why), "an unlisted host in a URL with credentials");
	is_str(why, "host 'evil.example.com' is not allowed: export "
	    "FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST=\"$FLUID_"
	    "ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST,evil.example.com\"",
	    "the refusal names the host only");
	free(why);
	why = NULL;
	ok(!allow_host(&a, "https://exa mple.com/", &why),
	    "a blank is refused");
	ok(why != NULL && !has(why, "exa"), "without echoing the value");
	free(why);
	ok(!host(&a, "catalog.example.com/path"), "a bare host has no path");
	ok(!host(&a, "ftp@catalog.example.com"), "nor a user");
	ok(!host(&a, ""), "the empty host is refused");
	allow_release(&a);
}

static void
t_host_addresses(void)
{
	static const char *const env[] = {
		HOST, "8.8.8.8,[2001:db8::1],169.254.169.254,fe80::1,"
		    "172.32.0.1",
		NULL
	};
	struct allow a;

	load(&a, NULL);
	ok(!host(&a, "1.1.1.1"), "a public IPv4 address needs an entry");
	ok(host(&a, "10.1.2.3"), "10/8 is private: no entry");
	ok(host(&a, "172.16.0.1") && host(&a, "172.31.255.255"),
	    "172.16/12 is private");
	ok(!host(&a, "172.32.0.1") && !host(&a, "172.15.0.1"),
	    "172.32 and 172.15 are public");
	ok(host(&a, "192.168.1.1"), "192.168/16 is private");
	ok(host(&a, "127.0.0.1") && host(&a, "127.9.9.9"),
	    "127/8 is loopback: no entry");
	ok(!host(&a, "http://2130706433/"), "127.0.0.1 as one number is "
	    "refused (t_url.c: not canonical dotted decimal)");
	ok(!host(&a, "http://134744072/"), "8.8.8.8 as one number too");
	ok(!host(&a, "169.254.169.254"), "link-local IPv4 is refused");
	ok(has(last, "always refused"), "and says it always is");
	ok(host(&a, "[::1]:9092"), "::1 is loopback");
	ok(host(&a, "::1"), "without brackets too");
	ok(host(&a, "http://[fd12:3456::1]:8181/"), "fc00::/7 is private");
	ok(!host(&a, "[2001:db8::1]"), "a public IPv6 address needs an entry");
	ok(!host(&a, "[fe80::1]:80"), "fe80::/10 is refused");
	ok(!host(&a, "http://[FEBF::1]/"), "the end of fe80::/10, in upper "
	    "case");
	ok(host(&a, "[::ffff:10.0.0.1]"), "IPv4-mapped private");
	ok(!host(&a, "[::ffff:169.254.169.254]"), "IPv4-mapped link-local "
	    "is refused");
	ok(!host(&a, "http://[::FFFF:A9FE:A9FE]/"), "in hex too");
	ok(!host(&a, "[64:ff9b::169.254.169.254]"),
	    "NAT64 of a link-local address is refused");
	ok(!host(&a, "[::ffff:8.8.8.8]:443"), "IPv4-mapped public needs "
	    "an entry");
	allow_release(&a);

	load(&a, env);
	ok(host(&a, "8.8.8.8") && host(&a, "8.8.8.8:53"),
	    "a listed public IPv4 address");
	ok(host(&a, "[::ffff:8.8.8.8]:443"), "the IPv4-mapped form of a "
	    "listed address");
	ok(!host(&a, "8.8.8.9") && !host(&a, "8.8.8.80"), "only that one");
	ok(host(&a, "https://[2001:DB8:0:0::1]:8443/"),
	    "a listed IPv6 address, however written");
	ok(!host(&a, "[2001:db8::2]"), "not its neighbour");
	ok(!host(&a, "169.254.169.254"), "a link-local entry admits nothing");
	ok(!host(&a, "[fe80::1]"), "in IPv6 either");
	ok(!host(&a, "x.8.8.8.8"), "an address entry covers no name");
	ok(host(&a, "172.32.0.1"), "a listed public 172.32 address");
	allow_release(&a);
}

static void
t_normalize(void)
{
	const char *why;
	char *h;

	h = allow_host_normalize("Catalog.Example.COM.", &why);
	is_str(h, "catalog.example.com", "case and a trailing dot");
	free(h);
	h = allow_host_normalize("http://[::FFFF:A00:1]:80/x", &why);
	is_str(h, "10.0.0.1", "IPv4-mapped IPv6 becomes IPv4");
	free(h);
	h = allow_host_normalize("[2001:DB8:0:0::1]:9092", &why);
	is_str(h, "2001:db8::1", "IPv6 in its short form");
	free(h);
	h = allow_host_normalize("https://bücher.example/", &why);
	is_str(h, "xn--bcher-kva.example", "IDNA to punycode");
	free(h);
	h = allow_host_normalize("broker-1:9092", &why);
	is_str(h, "broker-1", "the port is dropped");
	free(h);
	ok(allow_host_normalize("a b", &why) == NULL, "a blank is no host");
	ok(allow_host_normalize("", &why) == NULL, "nor the empty string");
	ok(allow_host_normalize("[::1", &why) == NULL, "nor an open bracket");
}

static void
t_secret_ref(void)
{
	static const char *const env[] = {
		REF, "LAKEKEEPER_TOKEN@catalog.example.com,"
		    "OTHER@example.com,LOCAL@localhost,ANY,V6@[::1]",
		NULL
	};
	struct allow a;
	char *why = NULL;

	load(&a, env);
	ok(ref(&a, ALLOW_CMD_APPLY, "LAKEKEEPER_TOKEN",
	    "https://catalog.example.com/catalog"), "NAME@host admits that "
	    "host");
	ok(ref(&a, ALLOW_CMD_APPLY, "LAKEKEEPER_TOKEN",
	    "https://CATALOG.example.com.:443/"), "after normalisation");
	ok(!ref(&a, ALLOW_CMD_APPLY, "LAKEKEEPER_TOKEN",
	    "https://sub.catalog.example.com/"), "not a subdomain");
	ok(!ref(&a, ALLOW_CMD_APPLY, "OTHER", "https://catalog.example.com/"),
	    "a parent domain does not cover a host");
	ok(!ref(&a, ALLOW_CMD_APPLY, "LAKEKEEPER", "https://catalog.example."
	    "com/"), "NAME is exact");
	ok(!ref(&a, ALLOW_CMD_APPLY, "lakekeeper_token",
	    "https://catalog.example.com/"), "and case-sensitive");
	ok(ref(&a, ALLOW_CMD_APPLY, "ANY", "https://anywhere.example.net/"),
	    "a bare NAME allows every host");
	ok(!allow_secret_ref(&a, ALLOW_CMD_APPLY, "LAKEKEEPER_TOKEN",
	    "https://evil.example.com/", &why), "an unpaired host");
	is_str(why, "catalog credential 'LAKEKEEPER_TOKEN' may not be sent "
	    "to 'evil.example.com': export FLUID_ACQUISITION_SECRET_REF_"
	    "ALLOWLIST=\"$FLUID_ACQUISITION_SECRET_REF_ALLOWLIST,"
	    "LAKEKEEPER_TOKEN@evil.example.com\"", "the refusal asks for "
	    "NAME@host");
	free(why);
	why = NULL;
	ok(!allow_secret_ref(&a, ALLOW_CMD_APPLY, "ghp_abc123secret!",
	    "https://catalog.example.com/", &why), "a credential in place "
	    "of a name");
	ok(why != NULL && !has(why, "ghp_"), "is never echoed");
	free(why);

	/* Loopback: verify sends from the operator's machine. */
	ok(ref(&a, ALLOW_CMD_VERIFY, "UNLISTED", "http://localhost:8181/"),
	    "verify: localhost needs no pairing");
	ok(ref(&a, ALLOW_CMD_VERIFY, "UNLISTED", "http://127.0.0.5/"),
	    "verify: nor 127.0.0.0/8");
	ok(ref(&a, ALLOW_CMD_VERIFY, "UNLISTED", "http://[::1]:8181/"),
	    "verify: nor ::1");
	ok(ref(&a, ALLOW_CMD_VERIFY, "UNLISTED", "http://LOCALHOST./"),
	    "verify: nor LOCALHOST.");
	ok(!ref(&a, ALLOW_CMD_VERIFY, "UNLISTED", "http://db.localhost/"),
	    "verify: db.localhost is not loopback");
	ok(!ref(&a, ALLOW_CMD_VERIFY, "UNLISTED", "http://10.0.0.1/"),
	    "verify: a private address is not loopback");
	ok(!ref(&a, ALLOW_CMD_APPLY, "UNLISTED", "http://localhost:8181/"),
	    "apply: localhost is the pod and needs its pairing");
	ok(ref(&a, ALLOW_CMD_APPLY, "LOCAL", "http://localhost:8181/"),
	    "apply: NAME@localhost pairs it");
	ok(!ref(&a, ALLOW_CMD_APPLY, "LOCAL", "http://127.0.0.1:8181/"),
	    "apply: NAME@localhost does not pair 127.0.0.1");
	ok(ref(&a, ALLOW_CMD_APPLY, "V6", "http://[0:0::1]/"),
	    "apply: NAME@[::1] pairs ::1 however written");
	allow_release(&a);
}

static void
t_sql(void)
{
	static const char *const env[] = {
		SQL, "commerce.nested-events/ingest-orders@" SQL_DIGEST ","
		    "commerce.orders/enrich,analytics",
		NULL
	};
	struct allow a;
	char *why = NULL;

	load(&a, env);
	ok(sql(&a, "commerce.nested-events", "ingest-orders", THE_SQL),
	    "pinned: the SQL of that digest");
	ok(!sql(&a, "commerce.nested-events", "ingest-orders",
	    THE_SQL " WHERE 1 = 1"), "pinned: not what it is edited into");
	ok(!sql(&a, "commerce.nested-events", "other-build", THE_SQL),
	    "pinned: not another build with the same SQL");
	ok(sql(&a, "commerce.orders", "enrich", "SELECT anything"),
	    "product/build: whatever SQL the build runs");
	ok(!sql(&a, "commerce.orders", "enrich2", "SELECT 1"),
	    "product/build: not another build");
	ok(!sql(&a, "commerce", "orders/enrich", "SELECT 1"),
	    "a slash in a build cannot forge product/build");
	ok(sql(&a, "analytics", "a", "SELECT 1") &&
	    sql(&a, "analytics", "b", "SELECT 2"),
	    "product: every build of the product");
	ok(!sql(&a, "analytics2", "a", "SELECT 1"), "product: exact");
	ok(!allow_contract_sql(&a, "commerce.nested-events", "ingest-orders",
	    "SELECT 1 FROM source_events", &why), "another SQL");
	is_str(why, "the SQL of build 'ingest-orders' of product "
	    "'commerce.nested-events' is not allowed: export "
	    "FLUID_FLINK_CONTRACT_SQL_ALLOWLIST=\"$FLUID_FLINK_CONTRACT_SQL_"
	    "ALLOWLIST,commerce.nested-events/ingest-orders@sha256:"
	    "044491e4df622d606517c68887f51cf2ee8205c236f73c995f73dffc3f36c41f"
	    "\"", "the refusal prints the pinned entry for the SQL found, "
	    "never the SQL");
	free(why);
	allow_release(&a);
}

/* The targets of a deployment the lists below admit. */
static struct allow_targets
targets(void)
{
	struct allow_targets t;

	memset(&t, 0, sizeof(t));
	t.context = (struct allow_target){ "development", "/ctx" };
	t.ns = (struct allow_target){ "data-products", "/ns" };
	t.image = (struct allow_target){
	    "registry.example.com/forge-flink:1" PIN, "/image" };
	t.service_account = (struct allow_target){ "flink", "/sa" };
	t.catalog = (struct allow_target){
	    "https://catalog.example.com/catalog", "/catalog" };
	t.catalog_auth = (struct allow_target){ "LAKEKEEPER_TOKEN", "/auth" };
	t.bootstrap_servers = (struct allow_target){
	    "kafka-0.kafka.svc.cluster.local:9092, 10.0.0.7:9092",
	    "/brokers" };
	t.schema_registry = (struct allow_target){
	    "http://registry.svc.cluster.local:8081", "/registry" };
	t.product = "commerce.nested-events";
	t.build = "ingest-orders";
	return t;
}

static const char *const deploy_env[] = {
	CTX, "development",
	NS, "data-products",
	IMG, "registry.example.com/forge-flink",
	SA, "data-products/flink",
	SEC, "data-products/flink-storage",
	HOST, "catalog.example.com,auth.example.com,svc.cluster.local",
	REF, "LAKEKEEPER_TOKEN@catalog.example.com",
	SQL, "commerce.nested-events/ingest-orders@" SQL_DIGEST,
	NULL
};

static size_t
run(const struct allow *a, enum allow_cmd cmd, const struct allow_targets *t,
    struct allow_refusals *r)
{
	allow_refusals_release(r);
	allow_refusals_init(r);
	return allow_check(a, cmd, t, r);
}

static void
t_check(void)
{
	static const struct allow_target secrets[] = {
		{ "flink-storage", "/secrets/0" }, { "db-admin", "/secrets/1" }
	};
	static const struct allow_target endpoints[] = {
		{ "http://minio.svc.cluster.local:9000", "/s3" },
		{ "https://s3.amazonaws.com", "/s3b" }
	};
	struct allow a, none;
	struct allow_targets t = targets();
	struct allow_refusals r;
	size_t n;

	allow_refusals_init(&r);
	load(&a, deploy_env);
	load(&none, NULL);
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 0, "apply: a listed "
	    "deployment is admitted");
	is_int(run(&a, ALLOW_CMD_VERIFY, &t, &r), 0, "verify: so it is");
	is_int(run(&none, ALLOW_CMD_DIFF, &t, &r), 4, "diff with no lists: "
	    "context, namespace, image and service account are refused");
	is_str(r.n == 4 ? r.v[0].where : NULL, "/ctx",
	    "a refusal carries the target's place");
	n = run(&none, ALLOW_CMD_APPLY, &t, &r);
	/* 4 deployment, catalog host, its pairing, 2 broker + registry */
	ok(n == 8, "apply with no lists refuses every target, "
	    "together (%zu)", n);

	t.secrets = secrets;
	t.nsecrets = 2;
	is_int(run(&a, ALLOW_CMD_DIFF, &t, &r), 1, "diff: an unlisted "
	    "Secret");
	is_str(r.n ? r.v[0].where : NULL, "/secrets/1", "the second Secret");
	t.nsecrets = 0;

	t.catalog.value = "https://evil.example.net/catalog";
	is_int(run(&a, ALLOW_CMD_DIFF, &t, &r), 0, "diff does not check the "
	    "catalog");
	is_int(run(&a, ALLOW_CMD_VERIFY, &t, &r), 2, "verify: an unlisted "
	    "catalog host and its credential");
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 2, "apply: the same two");
	t = targets();

	/* OAuth2: the token endpoint and the catalog both need a pair. */
	t.token_endpoint = (struct allow_target){
	    "https://auth.example.com/realms/x/token", "/token" };
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 1, "OAuth2 with the "
	    "catalog entry only: the token endpoint is refused");
	is_str(r.n ? r.v[0].where : NULL, "/token", "at the token endpoint");
	ok(r.n && has(r.v[0].msg, "LAKEKEEPER_TOKEN@auth.example.com"),
	    "asking for NAME@token-host");
	{
		static const char *const only_token[] = {
			CTX, "development", NS, "data-products",
			IMG, "registry.example.com/forge-flink",
			SA, "flink",
			HOST, "catalog.example.com,auth.example.com,"
			    "svc.cluster.local",
			REF, "LAKEKEEPER_TOKEN@auth.example.com",
			NULL
		};
		static const char *const both[] = {
			CTX, "development", NS, "data-products",
			IMG, "registry.example.com/forge-flink",
			SA, "flink",
			HOST, "catalog.example.com,auth.example.com,"
			    "svc.cluster.local",
			REF, "LAKEKEEPER_TOKEN@auth.example.com,"
			    "LAKEKEEPER_TOKEN@catalog.example.com",
			NULL
		};
		struct allow b;

		load(&b, only_token);
		is_int(run(&b, ALLOW_CMD_APPLY, &t, &r), 1, "OAuth2 with the "
		    "token entry only: the catalog is refused");
		is_str(r.n ? r.v[0].where : NULL, "/catalog", "at the catalog");
		allow_release(&b);
		load(&b, both);
		is_int(run(&b, ALLOW_CMD_APPLY, &t, &r), 0, "OAuth2 with both "
		    "entries is admitted");
		is_int(run(&b, ALLOW_CMD_VERIFY, &t, &r), 0, "by verify too");
		allow_release(&b);
	}
	t.token_endpoint.value = "http://auth.example.com/token";
	n = run(&a, ALLOW_CMD_VERIFY, &t, &r);
	ok(n == 2 && has(r.v[0].msg, "must be an https:// URL"),
	    "a token endpoint that is not https:// is refused (and it is "
	    "not paired either)");
	t = targets();

	/* Loopback catalog: verify needs nothing, apply needs both lists. */
	t.catalog.value = "http://localhost:8181/catalog";
	is_int(run(&a, ALLOW_CMD_VERIFY, &t, &r), 0, "verify: a localhost "
	    "catalog needs neither entry");
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 2, "apply: localhost needs a "
	    "host entry and its pairing");
	t.catalog.value = "http://127.0.0.1:8181/catalog";
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 1, "apply: 127.0.0.1 needs "
	    "no host entry, but its pairing");
	t.catalog.value = "http://db.localhost:8181/catalog";
	is_int(run(&a, ALLOW_CMD_VERIFY, &t, &r), 2, "verify: db.localhost "
	    "is not loopback");
	t = targets();

	/* apply only: endpoints, brokers, registry, SQL. */
	t.endpoints = endpoints;
	t.nendpoints = 2;
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 1, "apply: an unlisted "
	    "s3.endpoint");
	is_str(r.n ? r.v[0].where : NULL, "/s3b", "at that property");
	is_int(run(&a, ALLOW_CMD_VERIFY, &t, &r), 0, "verify does not check "
	    "s3.endpoint");
	t.nendpoints = 0;
	t.bootstrap_servers.value = "kafka-0.kafka.svc.cluster.local:9092,"
	    "8.8.8.8:9092,,[2001:db8::9]:9092";
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 2, "apply: each public broker "
	    "is refused, each on its own");
	is_int(run(&a, ALLOW_CMD_VERIFY, &t, &r), 0, "verify does not check "
	    "brokers");
	t.bootstrap_servers.value = NULL;
	t.schema_registry.value = "https://registry.confluent.cloud";
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 1, "apply: the schema "
	    "registry");
	t = targets();
	t.sql = (struct allow_target){ THE_SQL, "/sql" };
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 0, "apply: the pinned SQL");
	t.sql.value = "SELECT * FROM other_table";
	is_int(run(&a, ALLOW_CMD_APPLY, &t, &r), 1, "apply: other SQL");
	is_int(run(&a, ALLOW_CMD_DIFF, &t, &r), 0, "diff does not check SQL");
	is_int(run(&a, ALLOW_CMD_VERIFY, &t, &r), 0, "nor does verify");
	t = targets();
	t.context.value = NULL;
	is_int(run(&a, ALLOW_CMD_DIFF, &t, &r), 1, "an unknown context is "
	    "refused, not skipped");

	allow_refusals_release(&r);
	allow_release(&a);
	allow_release(&none);
}

struct seen {
	char	buf[512];
};

static void
seen_one(void *arg, size_t line, const char *var)
{
	struct seen *w = arg;
	size_t n = strlen(w->buf);

	snprintf(w->buf + n, sizeof(w->buf) - n, "%zu:%s ", line, var);
}

/* A project's .env may not set a list: which lines try to. */
static void
t_dotenv(void)
{
	static const char env[] =
	    "# a project's .env\n"
	    "FLUID_FLINK_IMAGE_ALLOWLIST=ghcr.io/acme/\n"
	    "  export   FLUID_FLINK_NAMESPACE_ALLOWLIST = data\n"
	    "OTHER=FLUID_FLINK_SECRET_ALLOWLIST=x\n"
	    "#FLUID_FLINK_SECRET_ALLOWLIST=commented\n"
	    "FLUID_FLINK_IMAGE_ALLOWLISTX=not-a-list\n"
	    "exportFLUID_FLINK_KUBE_CONTEXT_ALLOWLIST=glued\n"
	    "FLUID_ACQUISITION_SECRET_REF_ALLOWLIST";
	struct seen w = { "" };
	size_t n;

	n = allow_settings_in_text(env, sizeof(env) - 1, seen_one, &w);
	ok(n == 2 && strcmp(w.buf, "2:FLUID_FLINK_IMAGE_ALLOWLIST "
	    "3:FLUID_FLINK_NAMESPACE_ALLOWLIST ") == 0,
	    ".env: a list set plainly and with export, nothing else (%s)",
	    w.buf);
	w.buf[0] = '\0';
	n = allow_settings_in_text("FLUID_FLINK_SECRET_ALLOWLIST=a", 30,
	    seen_one, &w);
	ok(n == 1 && strcmp(w.buf, "1:FLUID_FLINK_SECRET_ALLOWLIST ") == 0,
	    ".env: a last line without a newline (%s)", w.buf);
	w.buf[0] = '\0';
	ok(allow_settings_in_text("", 0, seen_one, &w) == 0 &&
	    w.buf[0] == '\0', ".env: an empty file sets nothing");
}

int
main(void)
{
	t_variables();
	t_unset();
	t_exact();
	t_image();
	t_namespaced();
	t_host_names();
	t_host_addresses();
	t_normalize();
	t_secret_ref();
	t_sql();
	t_check();
	t_dotenv();
	free(last);
	return done_testing();
}

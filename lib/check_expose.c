/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_expose.c - the Iceberg table an expose names, and how the job
 * reaches its REST catalog.
 *
 * Credentials never appear here by value: catalogAuth names environment
 * variables that the pod (or fluid verify) resolves.  Everything else
 * of the catalog that reaches the job is catalog text (catalog_text()),
 * which may not make Iceberg read the job's environment, and the
 * catalog properties are a closed list (known_props[]) that holds no
 * credential and chooses no way of authenticating.  Every URL the job
 * contacts goes into the IR's catalog "hosts", for fluid apply to check
 * against the operator's host allowlist.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "url.h"

static const char *const binding_keys[] = {
	"platform", "format", "location", "catalogProperties", "catalogAuth",
	"icebergConfig", NULL
};
static const char *const location_keys[] = {
	"catalog", "uri", "warehouse", "namespace", "table", NULL
};
static const char *const bearer_keys[] = { "type", "tokenEnv", NULL };
static const char *const oauth2_keys[] = {
	"type", "credentialEnv", "oauth2ServerUri", "scope", NULL
};
static const char *const iceberg_keys[] = {
	"partitionSpec", "maxSnapshotAgeSeconds", "fileFormat",
	"formatVersion", NULL
};
static const char *const partition_keys[] = { "column", "transform", NULL };
static const char *const formats[] = { "iceberg", NULL };
static const char *const catalogs[] = { "rest", NULL };
static const char *const auth_types[] = { "bearer", "oauth2", NULL };
static const char *const file_formats[] = { "parquet", "orc", "avro", NULL };
static const char *const web[] = { "https", "http", NULL };
static const char *const https_only[] = { "https", NULL };

/*
 * The catalog properties fluid passes on, sorted, each with what its
 * value must be.  man/fluid-check.1 lists them with what each does; the
 * two lists change together.  None holds a credential, chooses how the
 * job authenticates or names a class to load: a property not here is
 * refused, so a new one is a decision, not an accident.
 */
enum prop_kind {
	PROP_BOOL,	/* "true" or "false" */
	PROP_COUNT,	/* a whole number, 0 to 999999999 */
	PROP_TEXT,	/* any catalog text */
	PROP_URL,	/* an http(s) URL the job contacts */
	PROP_SIGNER,	/* the same, sent the catalog's credential */
	PROP_SSE	/* an S3 server-side encryption without a key */
};
static const struct known_prop {
	const char	*name;
	enum prop_kind	 kind;
} known_props[] = {
	{ "cache-enabled",		PROP_BOOL },
	{ "client.region",		PROP_TEXT },
	{ "s3.checksum-enabled",	PROP_BOOL },
	{ "s3.delete-enabled",		PROP_BOOL },
	{ "s3.endpoint",		PROP_URL },
	{ "s3.multipart.num-threads",	PROP_COUNT },
	{ "s3.multipart.part-size-bytes", PROP_COUNT },
	{ "s3.path-style-access",	PROP_BOOL },
	{ "s3.retry.num-retries",	PROP_COUNT },
	{ "s3.signer.uri",		PROP_SIGNER },
	{ "s3.sse.type",		PROP_SSE },
	{ "s3.use-arn-region-enabled",	PROP_BOOL },
	{ "s3.write.storage-class",	PROP_TEXT },
};
#define NPROPS	(sizeof(known_props) / sizeof(known_props[0]))
/* SSE-C ("custom") needs its key in s3.sse.key, a credential. */
static const char *const sse_types[] = {
	"none", "s3", "kms", "dsse-kms", NULL
};

/* Properties fluid writes itself from the binding. */
static const char *const reserved_props[] = {
	"type", "catalog-type", "catalog-impl", "uri", "warehouse", "io-impl",
	"token", "credential", "oauth2-server-uri", "scope", NULL
};
/*
 * Beginnings (any case) of properties that choose how the job
 * authenticates: Iceberg's auth managers and SigV4, HTTP headers
 * (Authorization, X-Api-Key), AWS credentials providers and role
 * assumption, S3 remote signing and access grants, OAuth2 tuning.
 */
static const char *const auth_prefixes[] = {
	"rest.auth.", "rest.sigv4", "rest.signing-", "header.",
	"client.credentials-provider", "client.assume-role.",
	"client.factory", "s3.remote-signing-enabled", "s3.access-grants.",
	"audience", "resource", "token-", "oauth2-", NULL
};

#define CATALOG_TEXT_WHY "must not start with env:, contain ${ or a " \
	"control character: Iceberg would resolve it from the job's " \
	"environment (only catalogAuth references a variable)"

/* Iceberg resolves env:NAME from the job's environment; ${ looks alike. */
static bool
text_ok(const char *s)
{
	return strncasecmp(s, "env:", 4) != 0 && strstr(s, "${") == NULL &&
	    !chk_has_control(s);
}

/*
 * A string of the catalog that reaches the job, at o[key]: its URI,
 * warehouse, a catalogAuth field other than the variable's name, a
 * property's value.  Iceberg's REST catalog passes every property
 * through EnvironmentUtil.resolveAll() when it starts, so env:NAME in
 * any of them would send the pod's variable NAME wherever the property
 * goes (a scope goes to the token endpoint).  NULL, and *ok false,
 * after an error, which never quotes the value.
 */
static const char *
catalog_text(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool required, bool *ok)
{
	json_t *v = json_object_get(o, key);
	const char *s = chk_get_str(c, l, o, key, required);

	if (s == NULL) {
		if (required || (v != NULL && !json_is_null(v)))
			*ok = false;
		return NULL;
	}
	if (!text_ok(s)) {
		chk_err_at(c, l, key, CATALOG_TEXT_WHY);
		*ok = false;
		return NULL;
	}
	return s;
}

/*
 * The job contacts u (written s) at l's child key: an entry of the IR's
 * hosts, with the variable whose credential the host receives (NULL:
 * none), for fluid apply's allowlists.
 */
static void
host_add(json_t *hosts, struct chk_loc *l, const char *key, const char *s,
    const struct url *u, const char *receives)
{
	struct chk_loc_mark m = chk_loc_mark(l);

	chk_loc_key(l, key);
	json_array_append_new(hosts, json_pack("{s:s, s:s, s:s, s:s?}",
	    "path", l->path.buf, "url", s, "host", u->host, "receives",
	    receives));
	chk_loc_reset(l, m);
}

/*
 * A URL at o[key], catalog text: parsed, of one of the schemes, without
 * credentials in it.  Returns false after an error.  *out (if not NULL)
 * keeps the parsed URL for the caller to release.
 */
static bool
url_ok(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool required, const char *const *schemes, struct url *out)
{
	const char *s, *why;
	struct url u;
	size_t i;
	bool ok = true;

	if ((s = catalog_text(c, l, o, key, required, &ok)) == NULL)
		return ok;
	if (url_parse(s, &u, &why) == -1) {
		chk_err_at(c, l, key, "%s", why);
		return false;
	}
	for (i = 0; schemes[i] != NULL; i++)
		if (strcmp(u.scheme, schemes[i]) == 0)
			break;
	if (schemes[i] == NULL) {
		chk_err_at(c, l, key, "must be an %s:// URI", schemes[0]);
		ok = false;
	}
	if (u.userinfo) {
		chk_err_at(c, l, key, "must not carry credentials");
		ok = false;
	}
	if (ok && out != NULL)
		*out = u;
	else
		url_release(&u);
	return ok;
}

/*
 * A URL the job contacts, at o[key]: url_ok() of one of schemes, and
 * https when the host receives the credential of the variable receives
 * (NULL: none), loopback included: in the pod, localhost may be an
 * injected sidecar, which the spec does not trust with a credential
 * either.  Added to hosts.
 */
static bool
contact_ok(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    const char *const *schemes, const char *receives, json_t *hosts)
{
	struct url u;
	bool ok = true;

	if (!url_ok(c, l, o, key, true, schemes, &u))
		return false;
	if (receives != NULL && strcmp(u.scheme, "https") != 0) {
		chk_err_at(c, l, key, "must be https: the %s receives "
		    "credentials (catalogAuth)", strcmp(key, "uri") == 0 ?
		    "catalog" : "S3 signer");
		ok = false;
	} else
		host_add(hosts, l, key, json_string_value(json_object_get(o,
		    key)), &u, receives);
	url_release(&u);
	return ok;
}

static bool
env_name_ok(const char *s)
{
	return path_is_ident(s);
}

/*
 * catalogAuth to its IR; *env is the variable it names (NULL: none, or
 * refused), which the catalog and the token endpoint receive.
 */
static json_t *
auth_check(struct chk *c, struct chk_loc *l, json_t *binding, bool *ok,
    const char **env, json_t *hosts)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *a = chk_get_obj(c, l, binding, "catalogAuth", false), *ir;
	const char *type, *name, *scope, *envkey;

	*env = NULL;
	if (a == NULL) {
		if (json_object_get(binding, "catalogAuth") != NULL &&
		    !json_is_null(json_object_get(binding, "catalogAuth")))
			*ok = false;
		return json_null();
	}
	chk_loc_key(l, "catalogAuth");
	type = chk_get_enum(c, l, a, "type", true, auth_types);
	if (type == NULL) {
		*ok = false;
		chk_loc_reset(l, m);
		return json_null();
	}
	envkey = strcmp(type, "bearer") == 0 ? "tokenEnv" : "credentialEnv";
	*ok &= chk_only_keys(c, l, a, strcmp(type, "bearer") == 0 ?
	    bearer_keys : oauth2_keys) == 0;
	/* The one field that names a variable: a name, not catalog text. */
	name = chk_get_str(c, l, a, envkey, true);
	if (name == NULL)
		*ok = false;
	else if (!env_name_ok(name)) {
		chk_err_at(c, l, envkey, "must be the name of an environment "
		    "variable, not a credential");
		*ok = false;
		name = NULL;
	}
	*env = name;
	if (strcmp(type, "bearer") == 0)
		ir = json_pack("{s:s, s:s?}", "type", type, "tokenEnv", name);
	else {
		scope = catalog_text(c, l, a, "scope", false, ok);
		/* The token endpoint receives client_id:client_secret. */
		*ok &= contact_ok(c, l, a, "oauth2ServerUri", https_only, name,
		    hosts);
		ir = json_pack("{s:s, s:s?, s:O?, s:s?}", "type", type,
		    "credentialEnv", name, "oauth2ServerUri",
		    json_object_get(a, "oauth2ServerUri"), "scope", scope);
	}
	chk_loc_reset(l, m);
	return ir;
}

/* Does s begin with one of words, in any case? */
static bool
has_prefix(const char *s, const char *const *words)
{
	size_t i;

	for (i = 0; words[i] != NULL; i++)
		if (strncasecmp(s, words[i], strlen(words[i])) == 0)
			return true;
	return false;
}

/* Whether s, in any case, ends with "impl": a class for Iceberg to load. */
static bool
names_class(const char *s)
{
	size_t n = strlen(s);

	return n >= 4 && strcasecmp(s + n - 4, "impl") == 0;
}

static const struct known_prop *
known_prop(const char *k)
{
	size_t i;

	for (i = 0; i < NPROPS; i++)
		if (strcmp(k, known_props[i].name) == 0)
			return &known_props[i];
	return NULL;
}

/* A property not on the list: why, with the list and a did-you-mean. */
static void
unknown_prop(struct chk *c, struct chk_loc *l, const char *k)
{
	const char *names[NPROPS];
	struct sb list;
	char hint[160];
	size_t i;

	sb_init(&list);
	for (i = 0; i < NPROPS; i++) {
		names[i] = known_props[i].name;
		if (i > 0)
			sb_adds(&list, ", ");
		sb_adds(&list, names[i]);
	}
	chk_err_at(c, l, k, "is not a catalog property fluid passes on%s: "
	    "it passes on %s; credentials never go into catalog properties "
	    "(object-store credentials come from a Secret in "
	    "deployment.secretRefs)", chk_has_control(k) || strlen(k) > 64 ?
	    "" : chk_didyoumean(k, names, NPROPS, hint, sizeof(hint)),
	    list.buf);
	sb_release(&list);
}

/* "0" to "999999999", without a sign or leading zeros. */
static bool
is_count(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n <= 9 && s[n] == '\0' && (s[0] != '0' || n == 1);
}

/*
 * The value of the known property p at l's child k, catalog text
 * already; URLs go to hosts.  False after an error, which never quotes
 * the value.
 */
static bool
prop_value_ok(struct chk *c, struct chk_loc *l, json_t *props,
    const struct known_prop *p, const char *k, const char *v,
    const char *env, json_t *hosts)
{
	switch (p->kind) {
	case PROP_BOOL:
		if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0)
			return true;
		chk_err_at(c, l, k, "must be \"true\" or \"false\"");
		return false;
	case PROP_COUNT:
		if (is_count(v))
			return true;
		chk_err_at(c, l, k, "must be a whole number (0 to 999999999, "
		    "quoted)");
		return false;
	case PROP_TEXT:
		return true;
	case PROP_URL:
		return contact_ok(c, l, props, k, web, NULL, hosts);
	case PROP_SIGNER:
		/* Iceberg's S3 signer client sends it the catalog's auth. */
		return contact_ok(c, l, props, k, web, env, hosts);
	case PROP_SSE:
		if (chk_word_index(v, sse_types) >= 0)
			return true;
		chk_err_at(c, l, k, "must be none, s3, kms or dsse-kms: SSE-C "
		    "(custom) needs its key in the contract, and keys never "
		    "go into catalog properties");
		return false;
	}
	return false;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static json_t *
properties_check(struct chk *c, struct chk_loc *l, json_t *binding, bool *ok,
    const char *env, json_t *hosts)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *p = chk_get_obj(c, l, binding, "catalogProperties", false), *v;
	json_t *ir = json_object();
	const struct known_prop *kp;
	const char *k, *s, **keys;
	size_t i, n = 0;

	if (p == NULL) {
		if (json_object_get(binding, "catalogProperties") != NULL &&
		    !json_is_null(json_object_get(binding,
		    "catalogProperties")))
			*ok = false;
		return ir;
	}
	chk_loc_key(l, "catalogProperties");
	/* In key order, so that the IR (and its hosts) do not depend on
	 * the contract's. */
	keys = xcalloc(json_object_size(p) + 1, sizeof(*keys));
	json_object_foreach(p, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (i = 0; i < n; i++) {
		bool good = false;

		k = keys[i];
		v = json_object_get(p, k);
		if (!text_ok(k))
			chk_err_at(c, l, k, "a catalog property name must not "
			    "start with env:, contain ${ or a control "
			    "character");
		else if (chk_word_index(k, reserved_props) >= 0)
			chk_err_at(c, l, k, "is set by fluid from "
			    "binding.location and catalogAuth");
		else if (has_prefix(k, auth_prefixes) || names_class(k))
			chk_err_at(c, l, k, "chooses how the job authenticates "
			    "or a class it loads: catalog auth is what "
			    "catalogAuth declares (bearer or oauth2), and "
			    "object-store credentials come from a Secret in "
			    "deployment.secretRefs");
		else if ((kp = known_prop(k)) == NULL)
			unknown_prop(c, l, k);
		else if (!json_is_string(v))
			chk_err_at(c, l, k, "must be a string (quote it)");
		else if ((s = catalog_text(c, l, p, k, true, ok)) != NULL)
			good = prop_value_ok(c, l, p, kp, k, s, env, hosts);
		if (good)
			json_object_set(ir, k, v);
		else
			*ok = false;
	}
	free(keys);
	chk_loc_reset(l, m);
	return ir;
}

static json_t *
partitions_check(struct chk *c, struct chk_loc *l, json_t *list,
    struct ty *schema, json_t *bad, bool *ok)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *e, *ir = json_array();
	const char *col, *tr;
	struct ty_field *f;
	size_t i, j;

	chk_loc_key(l, "partitionSpec");
	if (!json_is_array(list)) {
		chk_err(c, l, "must be a list of {column, transform}");
		*ok = false;
		chk_loc_reset(l, m);
		return ir;
	}
	json_array_foreach(list, i, e) {
		struct chk_loc_mark m2 = chk_loc_mark(l);

		chk_loc_idx(l, i);
		if (!json_is_object(e)) {
			chk_err(c, l, "must be a mapping {column, transform}");
			*ok = false;
			chk_loc_reset(l, m2);
			continue;
		}
		*ok &= chk_only_keys(c, l, e, partition_keys) == 0;
		col = chk_get_str(c, l, e, "column", true);
		tr = chk_get_str(c, l, e, "transform", true);
		if (tr != NULL && strcmp(tr, "identity") != 0) {
			chk_err_at(c, l, "transform", "only identity "
			    "partitions: Iceberg's other transforms are hidden "
			    "partitioning, which Flink SQL cannot declare; "
			    "create the table with that partition spec before "
			    "the job runs and leave it out of the contract");
			tr = NULL;
		}
		if (col != NULL && schema != NULL) {
			f = ty_field(schema, col);
			/* Only a plain name is echoed: it may be SQL. */
			if (f == NULL && !path_is_ident(col))
				chk_err_at(c, l, "column", "must name a "
				    "top-level column of contract.schema (a "
				    "plain SQL identifier)");
			else if (f == NULL && chk_name_in(bad, col))
				;	/* its declaration was refused */
			else if (f == NULL)
				chk_err_at(c, l, "column", "'%s' is not a "
				    "top-level column of contract.schema",
				    col);
			else if (ty_is_container(f->type->kind))
				chk_err_at(c, l, "column", "'%s' is a struct, "
				    "array or map: partition by a primitive "
				    "column", col);
			else {
				for (j = 0; j < json_array_size(ir); j++)
					if (strcmp(json_string_value(
					    json_array_get(ir, j)), col) == 0)
						break;
				if (j < json_array_size(ir))
					chk_err_at(c, l, "column", "'%s' is "
					    "partitioned twice", col);
				else if (tr != NULL)
					json_array_append_new(ir,
					    json_string(col));
			}
		}
		if (col == NULL || tr == NULL || (schema != NULL &&
		    json_array_size(ir) == 0))
			*ok = false;
		chk_loc_reset(l, m2);
	}
	if (json_array_size(ir) != json_array_size(list))
		*ok = false;
	chk_loc_reset(l, m);
	return ir;
}

static void
iceberg_check(struct chk *c, struct chk_loc *l, json_t *binding,
    struct ty *schema, json_t *bad, json_t *table, bool *ok)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *ic = chk_get_obj(c, l, binding, "icebergConfig", false), *v;
	const char *ff = NULL;
	json_int_t age = 0, fv = 2;
	int rc;

	if (ic == NULL) {
		if (json_object_get(binding, "icebergConfig") != NULL &&
		    !json_is_null(json_object_get(binding, "icebergConfig")))
			*ok = false;
		json_object_set_new(table, "partitionBy", json_array());
		json_object_set_new(table, "fileFormat",
		    json_string("parquet"));
		json_object_set_new(table, "formatVersion", json_integer(2));
		json_object_set_new(table, "maxSnapshotAgeSeconds",
		    json_null());
		return;
	}
	chk_loc_key(l, "icebergConfig");
	*ok &= chk_only_keys(c, l, ic, iceberg_keys) == 0;
	v = json_object_get(ic, "partitionSpec");
	json_object_set_new(table, "partitionBy", v && !json_is_null(v) ?
	    partitions_check(c, l, v, schema, bad, ok) : json_array());
	ff = chk_get_enum(c, l, ic, "fileFormat", false, file_formats);
	if (ff == NULL && json_object_get(ic, "fileFormat") != NULL)
		*ok = false;
	json_object_set_new(table, "fileFormat",
	    json_string(ff ? ff : "parquet"));
	if ((rc = chk_get_int(c, l, ic, "formatVersion", &fv)) == -1)
		*ok = false;
	else if (fv != 2) {
		chk_err_at(c, l, "formatVersion", "the managed lane writes "
		    "Iceberg format version 2");
		*ok = false;
	}
	json_object_set_new(table, "formatVersion", json_integer(2));
	if ((rc = chk_get_int(c, l, ic, "maxSnapshotAgeSeconds", &age)) == -1)
		*ok = false;
	else if (rc == 0 && age <= 0) {
		chk_err_at(c, l, "maxSnapshotAgeSeconds", "must be a positive "
		    "number of seconds");
		*ok = false;
	}
	json_object_set_new(table, "maxSnapshotAgeSeconds",
	    rc == 0 ? json_integer(age) : json_null());
	chk_loc_reset(l, m);
}

static const char *
name_ok(struct chk *c, struct chk_loc *l, json_t *o, const char *key)
{
	const char *s = chk_get_str(c, l, o, key, true);

	if (s != NULL && !path_is_ident(s)) {
		chk_err_at(c, l, key, "'%s' must be a plain SQL identifier",
		    chk_has_control(s) || strlen(s) > 128 ? "?" : s);
		return NULL;
	}
	return s;
}

/*
 * A warehouse given by name, as catalogs that keep their own storage
 * (DLF, Polaris, Lakekeeper) take it: the REST catalog sends it as the
 * warehouse parameter of GET /v1/config, so it is one plain word, which
 * no scheme, path or query can be mistaken for.
 */
static bool
warehouse_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n <= 255 && strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") == n &&
	    strcmp(s, ".") != 0 && strcmp(s, "..") != 0;
}

/*
 * libcurl reads s3:///x as the host x (it allows up to three slashes),
 * but Iceberg's and Hadoop's S3 clients read an empty bucket there: the
 * text itself must have the bucket right after "s3://".
 */
bool
chk_s3_names_bucket(const char *s)
{
	return s != NULL && strncasecmp(s, "s3://", 5) == 0 &&
	    s[5] != '\0' && s[5] != '/';
}

json_t *
chk_expose_check(struct chk *c, struct chk_loc *l, json_t *expose,
    struct ty *schema, json_t *names, json_t *bad)
{
	static const char *const s3[] = { "s3", NULL };
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *binding, *loc, *table, *catalog, *auth, *props, *hosts;
	const char *ns, *name, *env, *wh;
	struct url u;
	bool ok = true;

	if ((binding = chk_get_obj(c, l, expose, "binding", true)) == NULL)
		return NULL;
	chk_loc_key(l, "binding");
	ok &= chk_only_keys(c, l, binding, binding_keys) == 0;
	ok &= chk_get_enum(c, l, binding, "format", true, formats) != NULL;
	if ((loc = chk_get_obj(c, l, binding, "location", true)) == NULL) {
		chk_loc_reset(l, m);
		return NULL;
	}
	/*
	 * Every host the job contacts, in the order of their paths:
	 * catalogAuth, catalogProperties (in key order), location.
	 */
	hosts = json_array();
	auth = auth_check(c, l, binding, &ok, &env, hosts);
	props = properties_check(c, l, binding, &ok, env, hosts);
	chk_loc_key(l, "location");
	ok &= chk_only_keys(c, l, loc, location_keys) == 0;
	ok &= chk_get_enum(c, l, loc, "catalog", true, catalogs) != NULL;
	/* Authenticated catalog requests need HTTPS, loopback included. */
	if (!contact_ok(c, l, loc, "uri", web, json_is_null(auth) ? NULL :
	    env != NULL ? env : "", hosts))
		ok = false;
	wh = json_string_value(json_object_get(loc, "warehouse"));
	if (wh != NULL && strstr(wh, "://") == NULL) {
		/* A catalog that names its warehouse: catalog text still. */
		if (catalog_text(c, l, loc, "warehouse", true, &ok) != NULL &&
		    !warehouse_name_ok(wh)) {
			chk_err_at(c, l, "warehouse", "must be an s3:// URI or "
			    "the name of a warehouse the catalog knows "
			    "(letters, digits, '_', '-' and '.', at most 255)");
			ok = false;
		}
	} else if (!url_ok(c, l, loc, "warehouse", true, s3, &u))
		ok = false;
	else {
		if (u.query) {
			chk_err_at(c, l, "warehouse", "must be a plain s3:// "
			    "URI without a query");
			ok = false;
		} else if (!chk_s3_names_bucket(json_string_value(
		    json_object_get(loc, "warehouse")))) {
			chk_err_at(c, l, "warehouse", "names no bucket: write "
			    "s3://BUCKET/PATH");
			ok = false;
		}
		url_release(&u);
	}
	ns = name_ok(c, l, loc, "namespace");
	name = name_ok(c, l, loc, "table");
	ok &= ns != NULL && name != NULL;
	chk_loc_reset(l, m);
	chk_loc_key(l, "binding");
	catalog = json_pack("{s:s, s:O?, s:O?, s:o, s:o, s:o}", "type", "rest",
	    "uri", json_object_get(loc, "uri"), "warehouse",
	    json_object_get(loc, "warehouse"), "properties", props,
	    "auth", auth, "hosts", hosts);
	table = json_pack("{s:o, s:s?, s:s?}", "catalog", catalog,
	    "namespace", ns, "name", name);
	if (schema != NULL)
		json_object_set_new(table, "columns", chk_columns_json(c,
		    schema, names));
	iceberg_check(c, l, binding, schema, bad, table, &ok);
	chk_loc_reset(l, m);
	if (!ok || schema == NULL) {
		json_decref(table);
		return NULL;
	}
	return table;
}

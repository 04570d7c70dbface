/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check.c - the contract as a whole: schema version, which builds are
 * in the managed lane, exposes and who writes them, deployments and the
 * locations that must not overlap.  The per-build work is in
 * check_stream.c, check_expose.c and check_mapping.c.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "allow.h"
#include "imageref.h"
#include "jget.h"
#include "check.h"
#include "check_cfk.h"
#include "check_int.h"
#include "digest.h"
#include "path.h"
#include "url.h"

static const char *const build_props[] = {
	"language", "stream", "mapping", "sql", "parameters", "landing", NULL
};
static const char *const flink_keys[] = {
	"management", "source", "eventTime", "deployment", NULL
};
static const char *const deployment_keys[] = {
	"name", "namespace", "context", "serviceAccount", "image",
	"checkpointUri", "savepointUri", "haUri", "stateEndpoint",
	"secretRefs", "state", "parallelism", "maxParallelism", "taskManager",
	"jobManager", "autoscaler", NULL
};
static const char *const expose_keys[] = {
	"exposeId", "kind", "binding", "contract", "description", "name",
	NULL
};
static const char *const contract_keys[] = { "schema", "primaryKey", NULL };
static const char *const states[] = { "running", "suspended", NULL };
static const char *const expose_kinds[] = { "table", NULL };
/* Root governance and access policies: refused, never advertised. */
static const char *const governance_keys[] = {
	"governance", "policies", "accessPolicies", "access", "quality", NULL
};

#define ID_RULE	"must be letters, digits, '.', '_' and '-', at most 128 " \
	"characters, not starting with '.' or '-' and without '--' (the " \
	"in-pod SQL runner reads it as a comment)"

/*
 * What fluid does not check in a contract outside the managed lane: it
 * reads only the root keys, and the FLUID JSON Schema's own rules (expose
 * kinds, engines, identifiers) are that schema's validator's.
 */
#define UNCHECKED "fluid checked only fluidVersion, kind, id and name, " \
	"not the FLUID schema's rules: expose kinds and bindings, build " \
	"engines and outputs, and column names and types were not checked"

/* A checkpoint, savepoint or HA location, for the overlap test. */
struct place {
	char	*uri;	/* normalised: no trailing '/' */
	char	*ptr;
	char	*path;
	char	*build;
};

struct contract {
	struct chk	 c;
	const char	*product;
	json_t		*exposes;	/* the contract's list (borrowed) */
	/*
	 * The list, or an expose's exposeId, was refused: a build's output
	 * that names no expose is then not reported again.
	 */
	bool		 exposes_bad;
	struct ty	**schemas;	/* per expose, checked once */
	json_t		**schema_bad;	/* its refused columns' names */
	json_t		**schema_names;	/* its columns' names, as JSON */
	bool		*schema_ok;	/* it has no error */
	bool		*schema_done;
	int		*writer;	/* per expose: build index or -1 */
	struct place	*places;
	size_t		 nplaces;
	json_t		*deployments;	/* "ns/name" -> build index */
	json_t		*build_ids;	/* id -> build index */
};

static bool
dns_label(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > max || s[0] == '-' || s[n - 1] == '-')
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

static bool
dns_subdomain(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > 253)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '-' || s[i] == '.'))
			return false;
	return s[0] != '-' && s[0] != '.' && s[n - 1] != '-' &&
	    s[n - 1] != '.';
}

/*
 * Build ids name files (DIR/<id>.sql) and allowlist entries, and with
 * the product id they name the job in its script, where the in-pod
 * runner would cut "--" and what follows as a comment.
 */
static bool
build_id_ok(const char *s)
{
	size_t i;

	if (*s == '\0' || *s == '.' || *s == '-' || strlen(s) > 128 ||
	    strstr(s, "--") != NULL)
		return false;
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '-' || s[i] == '_' || s[i] == '.'))
			return false;
	return true;
}

/*
 * Whether the authority of s (scheme://AUTHORITY/...) ends in ':' and a
 * port, written or empty: libcurl gives port 0 for "s3://b:/x".
 */
static bool
has_port_colon(const char *s)
{
	const char *a = strstr(s, "://"), *end;

	if (a == NULL)
		return false;
	a += 3;
	end = a + strcspn(a, "/?#");
	return memchr(a, ':', (size_t)(end - a)) != NULL;
}

/* uri (stolen) is chk_uri_norm()'s: equal places are equal strings. */
static void
add_place(struct contract *k, struct chk_loc *l, const char *key,
    char *uri, const char *build)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	struct place *p;

	k->places = xreallocarray(k->places, k->nplaces + 1,
	    sizeof(*k->places));
	p = &k->places[k->nplaces++];
	p->uri = uri;
	chk_loc_key(l, key);
	p->ptr = xstrdup(l->ptr.buf);
	p->path = xstrdup(l->path.buf);
	p->build = xstrdup(build);
	chk_loc_reset(l, m);
}

/*
 * deployment.stateEndpoint: the S3-compatible service the checkpoint,
 * savepoint and HA locations are on, for Flink's s3.endpoint (with
 * path-style access).  https, or http to loopback or a name inside the
 * cluster; a host and nothing else (no credentials, path, query); and
 * written as it is read, "scheme://host[:port]", so that the host the
 * allowlists check is the host written.  The value, NULL after an error.
 */
static const char *
state_endpoint(struct chk *c, struct chk_loc *l, json_t *dep, bool *ok)
{
	json_t *v = json_object_get(dep, "stateEndpoint");
	const char *s, *why;
	struct sb norm;
	struct url u;
	bool good = true;

	if (v == NULL || json_is_null(v))
		return NULL;
	if ((s = chk_get_str(c, l, dep, "stateEndpoint", false)) == NULL) {
		*ok = false;
		return NULL;
	}
	if (chk_has_control(s) || url_parse(s, &u, &why) == -1) {
		if (!chk_has_control(s) && why != NULL &&
		    strcmp(why, URL_IPV4_WHY) == 0)
			chk_err_at(c, l, "stateEndpoint", "%s", why);
		else
			chk_err_at(c, l, "stateEndpoint", "must be an https:// "
			    "URL of the S3-compatible service: "
			    "scheme://host[:port]");
		*ok = false;
		return NULL;
	}
	/* What it is read as: host in lower case, no trailing dot. */
	sb_init(&norm);
	sb_addf(&norm, strchr(u.host, ':') ? "%s://[" : "%s://", u.scheme);
	for (why = u.host; *why != '\0'; why++)
		if (why[1] != '\0' || *why != '.')
			sb_addc(&norm, *why >= 'A' && *why <= 'Z' ?
			    (char)(*why - 'A' + 'a') : *why);
	if (strchr(u.host, ':'))
		sb_addc(&norm, ']');
	if (u.port != 0 && u.port != (strcmp(u.scheme, "http") == 0 ? 80 :
	    443))
		sb_addf(&norm, ":%d", u.port);
	if (u.userinfo) {
		chk_err_at(c, l, "stateEndpoint", "must not carry "
		    "credentials: the job's S3 credentials come from its "
		    "Secrets (secretRefs)");
		good = false;
	} else if (strcmp(u.scheme, "https") != 0 &&
	    strcmp(u.scheme, "http") != 0) {
		chk_err_at(c, l, "stateEndpoint", "must be an https:// URL "
		    "of the S3-compatible service: scheme://host[:port]");
		good = false;
	} else if (strcmp(u.scheme, "http") == 0 &&
	    !chk_host_in_cluster(u.host)) {
		chk_err_at(c, l, "stateEndpoint", "must be https: http is "
		    "for loopback or a name inside the cluster (one label, "
		    ".svc, .cluster.local) only, and the job's state and "
		    "signed requests would cross the network in clear text");
		good = false;
	} else if (strcmp(s, norm.buf) != 0) {
		chk_err_at(c, l, "stateEndpoint", "must be written %s: "
		    "scheme and host in lower case, no default port, path, "
		    "query, trailing dot or slash, so that the host checked "
		    "is the "
		    "host the job contacts", chk_has_control(norm.buf) ?
		    "scheme://host[:port]" : norm.buf);
		good = false;
	}
	url_release(&u);
	sb_release(&norm);
	if (!good)
		*ok = false;
	return good ? s : NULL;
}

static json_t *
deployment_check(struct contract *k, struct chk_loc *l, json_t *flink,
    const char *build, int bi, bool *ok)
{
	static const char *const s3[] = { "checkpointUri", "savepointUri",
	    "haUri" };
	struct chk *c = &k->c;
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *dep = chk_get_obj(c, l, flink, "deployment", true), *ir, *refs;
	json_t *v, *seen;
	const char *name, *ns, *ctx, *sa, *image, *state, *s, *why;
	struct url u;
	size_t i;
	char *key, *norm;

	if (dep == NULL) {
		*ok = false;
		return NULL;
	}
	chk_loc_key(l, "deployment");
	*ok &= chk_cfk_refuse_keys(c, l, dep, false) == 0;
	*ok &= chk_only_keys_except(c, l, dep, deployment_keys,
	    chk_cfk_only_keys) == 0;
	name = chk_get_str(c, l, dep, "name", true);
	ns = chk_get_str(c, l, dep, "namespace", true);
	ctx = chk_get_str(c, l, dep, "context", true);
	sa = chk_get_str(c, l, dep, "serviceAccount", true);
	image = chk_get_str(c, l, dep, "image", true);
	state = chk_get_enum(c, l, dep, "state", false, states);
	if (name && !dns_label(name, 45)) {
		chk_err_at(c, l, "name", "must be a DNS label of at most 45 "
		    "characters (a-z, 0-9, '-'): the operator names Services "
		    "after it");
		name = NULL;
	}
	if (ns && !dns_label(ns, 63)) {
		chk_err_at(c, l, "namespace", "must be a Kubernetes namespace "
		    "name (a-z, 0-9, '-', at most 63 characters)");
		ns = NULL;
	}
	if (ctx && chk_has_control(ctx)) {
		chk_err_at(c, l, "context", "must not contain control "
		    "characters");
		ctx = NULL;
	}
	if (sa && !dns_subdomain(sa)) {
		chk_err_at(c, l, "serviceAccount", "must be a Kubernetes "
		    "object name");
		sa = NULL;
	}
	if (image && !imageref_pinned(image)) {
		chk_err_at(c, l, "image", "must be pinned by digest "
		    "(repository@sha256:<64 hex digits>): Kubernetes pulls by "
		    "digest, so a tag never decides what runs");
		image = NULL;
	}
	if (!name || !ns || !ctx || !sa || !image ||
	    (state == NULL && json_object_get(dep, "state") != NULL))
		*ok = false;
	if (name && ns) {
		key = xasprintf("%s/%s", ns, name);
		if ((seen = json_object_get(k->deployments, key)) != NULL) {
			chk_err_at(c, l, "name", "deployment %s is also "
			    "builds[%lld]'s: namespace/name pairs may not "
			    "repeat", key, (long long)json_integer_value(seen));
			*ok = false;
		} else
			json_object_set_new(k->deployments, key,
			    json_integer(bi));
		free(key);
	}
	ir = json_pack("{s:s?, s:s?, s:s?, s:s?, s:s?, s:s}", "name", name,
	    "namespace", ns, "context", ctx, "serviceAccount", sa, "image",
	    image, "state", state ? state : "running");
	if ((s = state_endpoint(c, l, dep, ok)) != NULL)
		json_object_set_new(ir, "stateEndpoint", json_string(s));
	for (i = 0; i < 3; i++) {
		struct chk_loc_mark m2 = chk_loc_mark(l);

		if ((s = chk_get_str(c, l, dep, s3[i], true)) == NULL) {
			*ok = false;
			continue;
		}
		chk_loc_key(l, s3[i]);
		if (url_parse(s, &u, &why) == -1) {
			chk_err(c, l, "%s", why);
			*ok = false;
		} else {
			if (strcmp(u.scheme, "s3") != 0 || u.userinfo ||
			    u.query) {
				chk_err(c, l, "must be a plain s3:// URI "
				    "(non-S3 storage is not supported)");
				*ok = false;
			} else if (!chk_s3_names_bucket(s)) {
				chk_err(c, l, "names no bucket: write "
				    "s3://BUCKET/PATH");
				*ok = false;
			} else if (u.port != 0 || has_port_colon(s)) {
				/* A bucket has no port; one would hide nesting. */
				chk_err(c, l, "must not name a port: an S3 "
				    "location is s3://BUCKET/PATH, the bucket "
				    "alone, so that nested locations compare");
				*ok = false;
			} else if ((norm = chk_uri_norm(s, &why)) == NULL) {
				chk_err(c, l, "%s", why);
				*ok = false;
			} else {
				chk_loc_reset(l, m2);
				add_place(k, l, s3[i], norm, build);
				json_object_set_new(ir, s3[i],
				    json_string(s));
			}
			url_release(&u);
		}
		chk_loc_reset(l, m2);
	}
	refs = json_array();
	v = chk_get_arr(c, l, dep, "secretRefs", false);
	if (v == NULL && json_object_get(dep, "secretRefs") != NULL)
		*ok = false;
	for (i = 0; v != NULL && i < json_array_size(v); i++) {
		struct chk_loc_mark m2 = chk_loc_mark(l);
		json_t *r = json_array_get(v, i);
		size_t j;

		chk_loc_key(l, "secretRefs");
		chk_loc_idx(l, i);
		if (!json_is_string(r) || !dns_subdomain(json_string_value(r)))
			chk_err(c, l, "must be the name of a Kubernetes "
			    "Secret");
		else {
			for (j = 0; j < json_array_size(refs); j++)
				if (json_equal(json_array_get(refs, j), r))
					break;
			if (j < json_array_size(refs))
				chk_err(c, l, "Secret %s is listed twice",
				    json_string_value(r));
			else
				json_array_append(refs, r);
		}
		if (json_array_size(refs) != i + 1)
			*ok = false;
		chk_loc_reset(l, m2);
	}
	json_object_set_new(ir, "secretRefs", refs);
	*ok &= chk_scale(c, l, dep, ir, false);
	chk_loc_reset(l, m);
	return ir;
}

/* The expose a build writes; its schema, checked once. */
static int
output_expose(struct contract *k, struct chk_loc *l, json_t *build, int bi,
    const char *id)
{
	struct chk *c = &k->c;
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *outs = chk_get_arr(c, l, build, "outputs", true), *e;
	const char *name;
	size_t j;

	if (outs == NULL)
		return -1;
	chk_loc_key(l, "outputs");
	if (json_array_size(outs) != 1) {
		chk_err(c, l, "a managed build writes exactly one output (more "
		    "than one output per build is not supported)");
		return chk_loc_reset(l, m), -1;
	}
	chk_loc_idx(l, 0);
	if (!json_is_string(json_array_get(outs, 0))) {
		chk_err(c, l, "must be an exposeId");
		return chk_loc_reset(l, m), -1;
	}
	name = json_string_value(json_array_get(outs, 0));
	json_array_foreach(k->exposes, j, e)
		if (json_is_object(e) && json_is_string(json_object_get(e,
		    "exposeId")) && strcmp(json_string_value(
		    json_object_get(e, "exposeId")), name) == 0)
			break;
	if (j == json_array_size(k->exposes)) {
		if (!k->exposes_bad)
			chk_err(c, l, "%s is not the exposeId of any expose",
			    chk_has_control(name) ? "?" : name);
		return chk_loc_reset(l, m), -1;
	}
	if (k->writer[j] != -1) {
		chk_err(c, l, "one build writes each expose: exposes[%zu] is "
		    "already written by builds[%d]", j, k->writer[j]);
		return chk_loc_reset(l, m), -1;
	}
	k->writer[j] = bi;
	(void)id;
	chk_loc_reset(l, m);
	return (int)j;
}

static struct ty *
expose_schema(struct contract *k, size_t j)
{
	struct chk *c = &k->c;
	json_t *x = json_array_get(k->exposes, j), *ct;
	struct chk_loc l;
	char *save = c->build;

	if (k->schema_done[j])
		return k->schemas[j];
	k->schema_done[j] = true;
	c->build = "";
	chk_loc_init(&l);
	chk_loc_key(&l, "exposes");
	chk_loc_idx(&l, j);
	k->schema_bad[j] = json_object();
	k->schema_names[j] = json_array();
	k->schema_ok[j] = true;
	if ((ct = chk_get_obj(c, &l, x, "contract", true)) != NULL) {
		chk_loc_key(&l, "contract");
		if (chk_only_keys(c, &l, ct, contract_keys) != 0)
			k->schema_ok[j] = false;
		chk_loc_key(&l, "schema");
		if (json_object_get(ct, "schema") == NULL)
			chk_err(c, &l, "is required: the output table's "
			    "columns");
		else
			k->schemas[j] = chk_schema_columns(c, &l,
			    json_object_get(ct, "schema"), k->schema_bad[j],
			    &k->schema_ok[j], k->schema_names[j]);
	}
	if (k->schemas[j] == NULL)
		k->schema_ok[j] = false;
	chk_loc_release(&l);
	c->build = save;
	return k->schemas[j];
}

static void
sql_warning(struct contract *k, struct chk_loc *l, const char *id,
    const char *sql)
{
	char d[DIGEST_STRLEN];

	digest_bytes(sql, strlen(sql), d);
	chk_warn(&k->c, l, "brings its own SQL, which runs with the job's "
	    "catalog identity: fluid apply refuses it unless "
	    "FLUID_FLINK_CONTRACT_SQL_ALLOWLIST lists it; pinned entry: "
	    "%s/%s@%s", k->product ? k->product : "?", id, d);
}

/*
 * The state endpoint is a host the job contacts: one of the table's
 * catalog "hosts" (fluid-ir(5)), which fluid apply checks against its
 * allowlist like the catalog's own.
 */
static void
state_host(json_t *table, const json_t *dep, int bi)
{
	json_t *hosts = json_object_get(json_object_get(table, "catalog"),
	    "hosts");
	const char *s = json_string_value(json_object_get(dep,
	    "stateEndpoint"));
	const char *why;
	struct url u;
	char *path;

	if (s == NULL || !json_is_array(hosts) ||
	    url_parse(s, &u, &why) == -1)
		return;
	path = xasprintf("builds[%d].properties.parameters.flink.deployment."
	    "stateEndpoint", bi);
	json_array_append_new(hosts, json_pack("{s:s, s:s, s:s, s:n}",
	    "path", path, "url", s, "host", u.host, "receives"));
	free(path);
	url_release(&u);
}

static const char *management_of(json_t *);

/* CFK's namespace/name pairs may not repeat either (the statements'). */
static void
cfk_unique(struct contract *k, struct chk_loc *l, json_t *dep, int bi,
    bool *ok)
{
	char *key = xasprintf("%s/%s", json_string_value(json_object_get(dep,
	    "namespace")), json_string_value(json_object_get(dep, "name")));
	json_t *seen = json_object_get(k->deployments, key), *pool;
	struct chk_loc_mark m = chk_loc_mark(l);

	if (seen != NULL) {
		chk_loc_key(l, "deployment");
		chk_err_at(&k->c, l, "name", "deployment %s is also "
		    "builds[%lld]'s: namespace/name pairs may not repeat", key,
		    (long long)json_integer_value(seen));
		chk_loc_reset(l, m);
		*ok = false;
	} else
		json_object_set_new(k->deployments, key, json_integer(bi));
	free(key);
	/* One build renders each pool; others may name it. */
	pool = json_object_get(dep, "computePool");
	if (json_object_get(pool, "render") != json_true())
		return;
	key = xasprintf("pool %s/%s", json_string_value(json_object_get(dep,
	    "namespace")), json_string_value(json_object_get(pool, "name")));
	if ((seen = json_object_get(k->deployments, key)) != NULL) {
		chk_loc_key(l, "deployment");
		chk_loc_key(l, "computePool");
		chk_err_at(&k->c, l, "name", "compute pool %s is also "
		    "rendered by builds[%lld]: one build describes a pool, "
		    "the others name it alone", key + 5,
		    (long long)json_integer_value(seen));
		chk_loc_reset(l, m);
		*ok = false;
	} else
		json_object_set_new(k->deployments, key, json_integer(bi));
	free(key);
}

static json_t *
managed_build(struct contract *k, json_t *b, int bi, const char *id)
{
	struct chk *c = &k->c;
	struct chk_loc l;
	struct chk_stream s;
	json_t *props, *params, *flink, *ir = NULL, *table = NULL, *dep;
	json_t *sqlv, *x, *outs;
	const char *sql = NULL;
	struct ty *schema = NULL;
	char *xptr = NULL, *xpath = NULL;
	int xi;
	bool ok = true, cfk = false;
	size_t i;

	chk_loc_init(&l);
	chk_loc_set(&l, "", "");
	sb_addf(&l.ptr, "/builds/%d", bi);
	memset(&s, 0, sizeof(s));
	if (chk_get_enum(c, &l, b, "engine", true, (const char *const[]){
	    "flink", NULL }) == NULL)
		ok = false;
	xi = output_expose(k, &l, b, bi, id);
	props = chk_get_obj(c, &l, b, "properties", true);
	if (props == NULL)
		goto out;
	chk_loc_key(&l, "properties");
	ok &= chk_only_keys(c, &l, props, build_props) == 0;
	if (chk_get_enum(c, &l, props, "language", false, (const char *const[]){
	    "flink_sql", NULL }) == NULL && json_object_get(props,
	    "language") != NULL)
		ok = false;
	params = chk_get_obj(c, &l, props, "parameters", true);
	chk_loc_key(&l, "parameters");
	flink = params ? chk_get_obj(c, &l, params, "flink", true) : NULL;
	if (flink != NULL) {
		chk_loc_key(&l, "flink");
		ok &= chk_only_keys(c, &l, flink, flink_keys) == 0;
		cfk = strcmp(management_of(b), CHK_CFK_MANAGEMENT) == 0;
		dep = cfk ? chk_cfk_deployment(c, &l, flink, &ok) :
		    deployment_check(k, &l, flink, id, bi, &ok);
		if (cfk && dep != NULL)
			cfk_unique(k, &l, dep, bi, &ok);
	} else
		dep = NULL;
	chk_loc_set(&l, "", "");
	sb_addf(&l.ptr, "/builds/%d", bi);
	if (flink == NULL)
		goto out;
	ok &= chk_stream_check(c, &l, props, flink, &s);
	if (xi >= 0) {
		schema = expose_schema(k, (size_t)xi);
		x = json_array_get(k->exposes, (size_t)xi);
		{
			struct chk_loc xl;
			char *save = c->build;

			chk_loc_init(&xl);
			chk_loc_key(&xl, "exposes");
			chk_loc_idx(&xl, (size_t)xi);
			c->build = "";
			table = chk_expose_check(c, &xl, x, schema,
			    k->schema_names[xi], k->schema_bad[xi]);
			c->build = save;
			chk_loc_release(&xl);
		}
		xptr = xasprintf("/exposes/%d/contract/schema", xi);
		xpath = xasprintf("exposes[%d].contract.schema", xi);
	}
	ir = json_pack("{s:s, s:s?, s:O?}", "id", id, "product", k->product,
	    "expose", xi >= 0 ? json_object_get(json_array_get(k->exposes,
	    (size_t)xi), "exposeId") : NULL);
	sqlv = json_object_get(props, "sql");
	if (sqlv != NULL && !json_is_null(sqlv)) {
		chk_loc_key(&l, "properties");
		chk_loc_key(&l, "sql");
		if (!json_is_string(sqlv)) {
			chk_err(c, &l, "must be a string: one SELECT from "
			    "source_events");
			ok = false;
		} else if (json_object_get(props, "mapping") != NULL) {
			chk_err(c, &l, "a mapping and SQL together are "
			    "refused: use one of them");
			ok = false;
			/* It still brings its own SQL: warn as for any. */
			sql_warning(k, &l, id, json_string_value(sqlv));
		} else {
			sql = json_string_value(sqlv);
			ok &= chk_sql_check(c, &l, sql);
			sql_warning(k, &l, id, sql);
		}
		chk_loc_set(&l, "", "");
		sb_addf(&l.ptr, "/builds/%d", bi);
	}
	if (schema != NULL && sql != NULL) {
		/* The pod's planner checks the types of the build's SQL. */
		outs = json_array();
		for (i = 0; i < schema->nfields; i++)
			json_array_append_new(outs, json_pack(
			    "{s:s, s:b, s:{s:s}}", "name",
			    schema->fields[i].name, "required",
			    schema->fields[i].type->required, "expr", "op",
			    "sql"));
		json_object_set_new(ir, "explode", json_null());
		json_object_set_new(ir, "outputs", outs);
		json_object_set_new(ir, "sql", json_string(sql));
	} else if (schema != NULL && sqlv == NULL)
		ok &= chk_mapping_check(c, &l, props, &s, schema,
		    k->schema_names[xi], k->schema_bad[xi], xptr, xpath, ir);
	if (xi >= 0)
		ok &= chk_cdc_build(c, &l, props, &s, json_array_get(
		    k->exposes, (size_t)xi), xi, schema, k->schema_bad[xi],
		    table);
	json_object_set(ir, "stream", s.ir);
	json_object_set_new(ir, "table", table ? table : json_null());
	table = NULL;
	if (cfk)
		ok &= chk_cfk_build(c, &l, ir, xi);
	state_host(json_object_get(ir, "table"), dep, bi);
	json_object_set_new(ir, "deployment", dep ? dep : json_null());
	dep = NULL;
	if (schema == NULL || xi < 0 || !k->schema_ok[xi])
		ok = false;
out:
	json_decref(table);
	chk_stream_release(&s);
	free(xptr);
	free(xpath);
	chk_loc_release(&l);
	if (!ok) {
		json_decref(ir);
		return NULL;
	}
	return ir;
}

/*
 * The exposes a refused, unmanaged build names as outputs: it writes
 * them, so they are not reported again as written by no build.
 */
static void
claim_outputs(struct contract *k, json_t *b, size_t bi)
{
	json_t *outs = json_object_get(b, "outputs"), *o, *e;
	size_t i, j;

	json_array_foreach(outs, i, o)
		json_array_foreach(k->exposes, j, e)
			if (k->writer[j] == -1 && json_is_string(o) &&
			    json_equal(json_object_get(e, "exposeId"), o))
				k->writer[j] = (int)bi;
}

/* operator (the FlinkDeployment) or cfk (check_cfk.h): managed builds. */
static bool
managed_target(const char *mg)
{
	return mg != NULL && (strcmp(mg, "operator") == 0 ||
	    strcmp(mg, CHK_CFK_MANAGEMENT) == 0);
}

static const char *
management_of(json_t *b)
{
	json_t *f = json_object_get(json_object_get(json_object_get(
	    json_object_get(b, "properties"), "parameters"), "flink"),
	    "management");

	return json_string_value(f);
}

/*
 * " (did you mean 'operator'?)" when mg, a management value that is
 * not operator, looks like a misspelling of it (one edit away, or
 * another case), else "".  Any other value is a build that runs
 * elsewhere, as the spec has it, and gets no hint.
 */
static const char *
management_hint(const char *mg, char *buf, size_t n)
{
	static const char *const known[] = { "operator" };

	buf[0] = '\0';
	if (mg == NULL || chk_has_control(mg))
		return buf;
	if (strcasecmp(mg, known[0]) == 0) {
		snprintf(buf, n, " (did you mean '%s'?)", known[0]);
		return buf;
	}
	return chk_didyoumean(mg, known, 1, buf, n);
}

/*
 * In a contract without a managed build, a management value that looks
 * like a misspelt operator: the build is then not the lane's, silently
 * but for this warning.
 */
static void
management_typos(struct contract *k, json_t *builds)
{
	struct chk_loc l;
	json_t *b;
	const char *mg;
	char hint[64];
	size_t i;

	chk_loc_init(&l);
	json_array_foreach(builds, i, b) {
		mg = management_of(b);
		if (*management_hint(mg, hint, sizeof(hint)) == '\0')
			continue;
		chk_loc_set(&l, "", "");
		chk_loc_key(&l, "builds");
		chk_loc_idx(&l, i);
		chk_loc_key(&l, "properties");
		chk_loc_key(&l, "parameters");
		chk_loc_key(&l, "flink");
		chk_loc_key(&l, "management");
		chk_warn(&k->c, &l, "'%s' is not operator%s, so this build is "
		    "not in the managed Flink lane", mg, hint);
	}
	chk_loc_release(&l);
}

/* No two locations equal, and none inside another. */
static void
places_check(struct contract *k)
{
	struct chk_loc l;
	size_t i, j, n;
	const struct place *a, *b;

	chk_loc_init(&l);
	for (i = 0; i < k->nplaces; i++)
		for (j = 0; j < k->nplaces; j++) {
			a = &k->places[i];
			b = &k->places[j];
			n = strlen(a->uri);
			if (i == j || strncmp(a->uri, b->uri, n) != 0 ||
			    (b->uri[n] != '\0' && b->uri[n] != '/'))
				continue;
			if (b->uri[n] == '\0' && j < i)
				continue;	/* equal: report once */
			chk_loc_set(&l, b->ptr, b->path);
			k->c.build = xasprintf("Flink build %s: ", b->build);
			chk_err(&k->c, &l, b->uri[n] == '\0' ?
			    "is the same location as build %s's %s" :
			    "lies inside build %s's %s: checkpoint, savepoint "
			    "and HA locations may not nest", a->build,
			    strrchr(a->path, '.') + 1);
			free(k->c.build);
			k->c.build = "";
		}
	chk_loc_release(&l);
}

static void
contract_release(struct contract *k)
{
	size_t i;

	for (i = 0; i < json_array_size(k->exposes); i++) {
		ty_free(k->schemas[i]);
		json_decref(k->schema_bad[i]);
		json_decref(k->schema_names[i]);
	}
	free(k->schemas);
	free(k->schema_bad);
	free(k->schema_names);
	free(k->schema_ok);
	free(k->schema_done);
	free(k->writer);
	for (i = 0; i < k->nplaces; i++) {
		free(k->places[i].uri);
		free(k->places[i].ptr);
		free(k->places[i].path);
		free(k->places[i].build);
	}
	free(k->places);
	json_decref(k->deployments);
	json_decref(k->build_ids);
}

/*
 * Whether o holds key with a value (jget.h): a null reads as an absent
 * key, as the chk_get_*() getters read it.
 */

/*
 * Whether id (build i's, well-formed) repeats an earlier build's, after
 * an error saying so.  Ids that differ only by case repeat too: generate
 * writes <id>.sql for each build, and on a case-insensitive file system
 * (macOS's and Windows' defaults) two such files are one.  An id is
 * well-formed ASCII, so it can be echoed and its case folded bytewise.
 */
static bool
build_id_repeats(struct contract *k, struct chk_loc *l, json_t *builds,
    const char *id, size_t i)
{
	char *low = chk_lower_dup(id);
	json_t *seen = json_object_get(k->build_ids, low);
	const char *other;
	long long j;

	if (seen == NULL) {
		json_object_set_new(k->build_ids, low,
		    json_integer((json_int_t)i));
		free(low);
		return false;
	}
	free(low);
	j = (long long)json_integer_value(seen);
	other = json_string_value(json_object_get(json_array_get(builds,
	    (size_t)j), "id"));
	if (other == NULL || strcmp(other, id) == 0)
		chk_err_at(&k->c, l, "id", "%s is also builds[%lld].id", id, j);
	else
		chk_err_at(&k->c, l, "id", "%s differs from builds[%lld].id "
		    "%s only by case: generate writes one <id>.sql per build, "
		    "and a case-insensitive file system holds one file for "
		    "both", id, j, other);
	return true;
}

/*
 * The Iceberg table expose x names, as the key that tells two apart:
 * its catalog uri and warehouse normalised (chk_uri_norm()), and its
 * namespace and table in lower case, for catalogs differ there: Iceberg's
 * own REST server keeps the case of names, but catalogs behind the same
 * API (Glue, Hive Metastore, Unity) fold it, so Orders and orders may be
 * one table.  A query on the catalog uri does not tell two catalogs
 * apart (chk_uri_norm() drops it): for this rule, taking two URIs for
 * one catalog errs on the side of a refusal.  NULL when a part is
 * missing or malformed: the expose's own checks say so.
 */
static char *
table_key(json_t *x)
{
	json_t *loc = json_object_get(json_object_get(x, "binding"),
	    "location");
	const char *uri = json_string_value(json_object_get(loc, "uri"));
	const char *wh = json_string_value(json_object_get(loc, "warehouse"));
	const char *ns = json_string_value(json_object_get(loc, "namespace"));
	const char *t = json_string_value(json_object_get(loc, "table"));
	const char *why;
	char *nu, *nw, *lns, *lt, *key = NULL;

	if (uri == NULL || wh == NULL || ns == NULL || t == NULL ||
	    !path_is_ident(ns) || !path_is_ident(t))
		return NULL;
	nu = chk_uri_norm(uri, &why);
	/* A warehouse name (no URI) is compared as it is written. */
	nw = strstr(wh, "://") != NULL ? chk_uri_norm(wh, &why) :
	    xstrdup(wh);
	if (nu != NULL && nw != NULL) {
		lns = chk_lower_dup(ns);
		lt = chk_lower_dup(t);
		/* No part holds a newline: URLs and identifiers cannot. */
		key = xasprintf("%s\n%s\n%s\n%s", nu, nw, lns, lt);
		free(lns);
		free(lt);
	}
	free(nu);
	free(nw);
	return key;
}

/* One build writes each Iceberg table, whichever expose names it. */
static void
same_table(struct contract *k, struct chk_loc *l, json_t *tables, size_t i)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	char *key = table_key(json_array_get(k->exposes, i));
	json_t *seen;

	if (key == NULL)
		return;
	if ((seen = json_object_get(tables, key)) == NULL)
		json_object_set_new(tables, key, json_integer((json_int_t)i));
	else {
		chk_loc_key(l, "binding");
		chk_loc_key(l, "location");
		chk_err_at(&k->c, l, "table", "exposes[%lld] names the same "
		    "Iceberg table (catalog uri, warehouse, namespace and "
		    "table, the names compared ignoring case): one build "
		    "writes each table", (long long)json_integer_value(seen));
		chk_loc_reset(l, m);
	}
	free(key);
}

static json_t *
check_contract(struct contract *k, json_t *doc)
{
	struct chk *c = &k->c;
	struct chk_loc l;
	json_t *builds, *b, *ir, *out = json_array(), *x;
	json_t *tables = json_object();	/* table_key() -> expose index */
	const char *version, *id, *mg;
	size_t i, nmanaged = 0;
	bool managed_lane, dup;
	char *label, hint[64];

	chk_loc_init(&l);
	version = chk_get_str(c, &l, doc, "fluidVersion", true);
	chk_get_enum(c, &l, doc, "kind", true,
	    (const char *const[]){ "DataProduct", NULL });
	k->product = chk_get_str(c, &l, doc, "id", true);
	chk_get_str(c, &l, doc, "name", false);
	if (version != NULL && strcmp(version, CHECK_MANAGED_VERSION) != 0 &&
	    strcmp(version, CHECK_STABLE_VERSION) != 0) {
		chk_err_at(c, &l, "fluidVersion", "'%s' is not a supported "
		    "schema version (%s, or %s for the managed Flink lane)",
		    chk_has_control(version) ? "?" : version,
		    CHECK_STABLE_VERSION, CHECK_MANAGED_VERSION);
	}
	managed_lane = version && strcmp(version, CHECK_MANAGED_VERSION) == 0;
	builds = chk_get_arr(c, &l, doc, "builds", false);
	/* NULL reads as no exposes: jansson's array calls take it. */
	k->exposes = chk_get_arr(c, &l, doc, "exposes", false);
	k->exposes_bad = k->exposes == NULL && jpresent(doc, "exposes");
	k->schemas = xcalloc(json_array_size(k->exposes) + 1,
	    sizeof(*k->schemas));
	k->schema_done = xcalloc(json_array_size(k->exposes) + 1,
	    sizeof(*k->schema_done));
	k->schema_bad = xcalloc(json_array_size(k->exposes) + 1,
	    sizeof(*k->schema_bad));
	k->schema_names = xcalloc(json_array_size(k->exposes) + 1,
	    sizeof(*k->schema_names));
	k->schema_ok = xcalloc(json_array_size(k->exposes) + 1,
	    sizeof(*k->schema_ok));
	k->writer = xcalloc(json_array_size(k->exposes) + 1,
	    sizeof(*k->writer));
	for (i = 0; i < json_array_size(k->exposes); i++)
		k->writer[i] = -1;
	json_array_foreach(builds, i, b)
		if (managed_target(management_of(b)))
			nmanaged++;
	if (nmanaged > 0 && !managed_lane && version != NULL) {
		chk_err_at(c, &l, "fluidVersion", "a build sets "
		    "properties.parameters.flink.management: operator, which "
		    "needs fluidVersion \"%s\"", CHECK_MANAGED_VERSION);
	}
	if (nmanaged == 0)
		management_typos(k, builds);
	if (nmanaged == 0 || !managed_lane)
		goto done;
	c->lane = "Managed Flink: ";
	/* It names the job and the SQL allowlist's entries. */
	if (k->product != NULL && !build_id_ok(k->product)) {
		chk_err_at(c, &l, "id", ID_RULE);
		k->product = NULL;
	}
	for (i = 0; governance_keys[i] != NULL; i++)
		if (json_object_get(doc, governance_keys[i]) != NULL)
			chk_err_at(c, &l, governance_keys[i], "root "
			    "governance, access and quality policies are not "
			    "enforced by the managed lane, so they are refused "
			    "rather than advertised as enforced");
	json_array_foreach(k->exposes, i, x) {
		chk_loc_key(&l, "exposes");
		chk_loc_idx(&l, i);
		if (!json_is_object(x)) {
			chk_err(c, &l, "must be a mapping");
			k->exposes_bad = true;
		} else {
			chk_only_keys(c, &l, x, expose_keys);
			chk_get_enum(c, &l, x, "kind", true, expose_kinds);
			id = chk_get_str(c, &l, x, "exposeId", true);
			if (id == NULL)
				k->exposes_bad = true;
			else {
				size_t j;

				for (j = 0; j < i; j++)
					if (json_equal(json_object_get(
					    json_array_get(k->exposes, j),
					    "exposeId"), json_object_get(x,
					    "exposeId"))) {
						chk_err_at(c, &l, "exposeId",
						    "exposes[%zu] has the "
						    "same exposeId", j);
						break;
					}
			}
			same_table(k, &l, tables, i);
		}
		chk_loc_set(&l, "", "");
	}
	json_array_foreach(builds, i, b) {
		chk_loc_key(&l, "builds");
		chk_loc_idx(&l, i);
		if (!json_is_object(b)) {
			chk_err(c, &l, "must be a mapping");
			chk_loc_set(&l, "", "");
			continue;
		}
		id = chk_get_str(c, &l, b, "id", true);
		dup = false;
		if (id != NULL && !build_id_ok(id)) {
			chk_err_at(c, &l, "id", ID_RULE);
			id = NULL;
		} else if (id != NULL)
			dup = build_id_repeats(k, &l, builds, id, i);
		mg = management_of(b);
		chk_loc_set(&l, "", "");
		if (!managed_target(mg)) {
			chk_loc_key(&l, "builds");
			chk_loc_idx(&l, i);
			chk_loc_key(&l, "properties");
			if (json_object_get(json_object_get(json_object_get(
			    json_object_get(b, "properties"), "parameters"),
			    "flink"), "management") != NULL) {
				chk_loc_key(&l, "parameters");
				chk_loc_key(&l, "flink");
				chk_loc_key(&l, "management");
				if (*management_hint(mg, hint,
				    sizeof(hint)) != '\0')
					chk_err(c, &l, "'%s' is not a "
					    "management fluid knows%s: a "
					    "managed contract holds only "
					    "managed builds", mg, hint);
				else
					chk_err(c, &l, "a managed contract "
					    "holds only managed builds: set "
					    "management: operator");
			} else
				chk_err(c, &l, "a managed contract holds only "
				    "managed builds: set parameters.flink."
				    "management: operator");
			chk_loc_set(&l, "", "");
			claim_outputs(k, b, i);
			continue;
		}
		/*
		 * A build whose id is refused is checked all the same, under
		 * its index, so that its other errors are reported too.
		 */
		label = id != NULL ? xstrdup(id) :
		    xasprintf("builds[%zu]", i);
		c->build = xasprintf("Flink build %s: ", label);
		ir = managed_build(k, b, (int)i, label);
		free(c->build);
		c->build = "";
		free(label);
		if (ir != NULL && id != NULL && !dup)
			json_array_append_new(out, ir);
		else
			json_decref(ir);
	}
	for (i = 0; i < json_array_size(k->exposes); i++)
		if (k->writer[i] == -1 && json_is_string(json_object_get(
		    json_array_get(k->exposes, i), "exposeId"))) {
			chk_loc_key(&l, "exposes");
			chk_loc_idx(&l, i);
			chk_err(c, &l, "a managed contract holds only managed "
			    "builds and their outputs: no build writes this "
			    "expose");
			chk_loc_set(&l, "", "");
		}
	places_check(k);
done:
	json_decref(tables);
	/*
	 * Outside the lane, validate's "ok" would read as a checked
	 * contract: say what was not checked.  Not when the builds could
	 * not be read: that is said already.
	 */
	if (nmanaged == 0 && version != NULL && (managed_lane ||
	    strcmp(version, CHECK_STABLE_VERSION) == 0) && (builds != NULL ||
	    !jpresent(doc, "builds"))) {
		chk_loc_set(&l, "", "");
		chk_loc_key(&l, managed_lane ? "builds" : "fluidVersion");
		if (managed_lane)
			chk_warn(c, &l, "no build sets properties.parameters."
			    "flink.management: operator, so the managed Flink "
			    "lane's rules did not apply: %s", UNCHECKED);
		else
			chk_warn(c, &l, "\"%s\" is not the managed Flink "
			    "lane's schema version (\"%s\"), so the lane's "
			    "rules did not apply: %s", version,
			    CHECK_MANAGED_VERSION, UNCHECKED);
	}
	chk_loc_release(&l);
	return json_pack("{s:s?, s:b, s:{s:s?, s:O?}, s:o}", "schemaVersion",
	    version, "managed", nmanaged > 0 && managed_lane, "product",
	    "id", k->product, "name", json_object_get(doc, "name"),
	    "builds", out);
}

static json_t *
check_fragment(struct chk *c, const char *kind, const char *version,
    json_t *doc)
{
	struct chk_loc l;
	struct chk_stream s;
	struct ty *t;
	json_t *ir = NULL;
	bool ok = true;

	chk_loc_init(&l);
	if (version == NULL || strcmp(version, CHECK_MANAGED_VERSION) != 0) {
		diag_at(c->d, DIAG_ERROR, NULL, "fragments are checked "
		    "against schema version %s; --schema-version %s is not "
		    "supported", CHECK_MANAGED_VERSION,
		    version ? version : "(none)");
		chk_loc_release(&l);
		return NULL;
	}
	c->lane = "Managed Flink: ";
	if (strcmp(kind, "streamSource") == 0) {
		if (chk_stream_check(c, &l, NULL, doc, &s))
			ir = json_pack("{s:s, s:O}", "fragment", kind,
			    "stream", s.ir);
		chk_stream_release(&s);
	} else if (strcmp(kind, "schema") == 0) {
		if ((t = chk_schema_columns(c, &l, doc, NULL, &ok, NULL)) !=
		    NULL && ok) {
			ir = json_pack("{s:s, s:o}", "fragment", kind,
			    "columns", chk_columns_json(c, t, NULL));
		}
		ty_free(t);
	} else {
		/*
		 * A mapping alone has no stream to type its paths against:
		 * its shape and paths are checked here, the rest in a build.
		 */
		if (chk_mapping_shape_check(c, &l, doc))
			ir = json_pack("{s:s}", "fragment", kind);
	}
	chk_loc_release(&l);
	return ir;
}

/*
 * The operator allowlists come from the process environment alone
 * (fluid(7), ENVIRONMENT): a contract or fragment that names one as a
 * key cannot set it, and is told so.  One pass over the document that
 * keeps only the keys above the node it is at, so that it costs no
 * pointer per node; a place is spelled out only for a key it warns of.
 */
struct list_keys {
	struct chk	*c;
	struct {
		const char	*key;	/* NULL: an array element */
		size_t		 idx;
	}		*up;
	size_t		 n, cap;
};

static void
list_keys_warn(struct list_keys *w, const char *key)
{
	struct chk_loc l;
	size_t i;

	chk_loc_init(&l);
	for (i = 0; i < w->n; i++) {
		if (w->up[i].key != NULL)
			chk_loc_key(&l, w->up[i].key);
		else
			chk_loc_idx(&l, w->up[i].idx);
	}
	chk_loc_key(&l, key);
	chk_warn(w->c, &l, "%s is read only from the operator's environment "
	    "(a shell or a CI variable): no file fluid reads can set it",
	    key);
	chk_loc_release(&l);
}

static void
list_keys_walk(struct list_keys *w, json_t *v)
{
	const char *key;
	json_t *m;
	size_t i;

	if (!json_is_object(v) && !json_is_array(v))
		return;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 32;
		w->up = xreallocarray(w->up, w->cap, sizeof(*w->up));
	}
	w->n++;
	if (json_is_object(v)) {
		json_object_foreach(v, key, m) {
			if (key[0] == 'F' && strncmp(key, "FLUID_", 6) == 0 &&
			    allow_is_list_variable(key)) {
				w->n--;
				list_keys_warn(w, key);
				w->n++;
			}
			w->up[w->n - 1].key = key;
			list_keys_walk(w, m);
		}
	} else
		json_array_foreach(v, i, m) {
			w->up[w->n - 1].key = NULL;
			w->up[w->n - 1].idx = i;
			list_keys_walk(w, m);
		}
	w->n--;
}

json_t *
check_run(json_t *section, struct diags *d)
{
	struct contract k;
	json_t *doc = json_object_get(section, "document"), *ir;
	const char *kind = json_string_value(json_object_get(section, "kind"));
	size_t nerr = d->nerrors;

	memset(&k, 0, sizeof(k));
	chk_init(&k.c, d, doc);
	k.deployments = json_object();
	k.build_ids = json_object();
	if (kind != NULL && strcmp(kind, "fragment") == 0)
		ir = check_fragment(&k.c, json_string_value(json_object_get(
		    section, "fragment")), json_string_value(json_object_get(
		    section, "schemaVersion")), doc);
	else
		ir = check_contract(&k, doc);
	{
		struct list_keys w = { &k.c, NULL, 0, 0 };

		list_keys_walk(&w, doc);
		free(w.up);
	}
	contract_release(&k);
	chk_release(&k.c);
	if (d->nerrors > nerr) {
		json_decref(ir);
		return NULL;
	}
	return ir;
}

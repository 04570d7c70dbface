/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * verify.c - fluid verify's evidence (see verify.h).
 *
 * The catalog is read with net.h alone, never through the job or its
 * runner: the evidence must not come from the thing it checks.  The
 * deployment is read with kube.h (kubectl, the contract's context): the
 * operator's status, judged against the record fluid apply wrote; the
 * checkpoint of the job that status names, through the API server's
 * service proxy (verify_checkpoint.c).  Every
 * wait is bounded by --streaming-timeout, with a backoff that doubles up
 * to 10 s; 0 reads everything once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verify.h"
#include "verify_int.h"
#include "verify_cfk.h"
#include "k8s_cfk_render.h"
#include "clock.h"
#include "jget.h"

#include "allow.h"
#include "ir.h"
#include "k8s.h"
#include "kube.h"
#include "kube_record.h"
#include "net.h"
#include "xalloc.h"

#define NOTICE "This report is evidence that the stream is live: the " \
	"catalog's table schema, a recently committed snapshot, the " \
	"operator's reconciled deployment and a recent checkpoint. It is " \
	"not per-record delivery: it does not show that any given record " \
	"reached the table."

enum outcome { OUT_PASS, OUT_FAIL, OUT_UNAVAILABLE };

static const char *const outcome_names[] = { "pass", "fail", "unavailable" };

/* One piece of evidence as it is being gathered. */
struct piece {
	const char	*kind;
	char		*checked;	/* what, in words */
	char		*endpoint;	/* display URL, or NULL */
	char		*at;		/* UTC time of the last reading */
	enum outcome	 outcome;
	char		*detail;	/* why, one line */
	json_t		*differences;	/* schema: the list, or NULL */
	const char	*ptr;		/* where in the contract */
	bool		 final;		/* no point in asking again */
};

/* A build, with the contract pointers its diagnostics are placed at. */
struct vbuild {
	json_t		*cb;		/* borrowed: the checked build */
	const char	*id;
	char		*bptr;		/* /builds/N */
	char		*eptr;		/* /exposes/N, or NULL */
	char		*dep_ptr[5];	/* context namespace image sa secrets */
	char		*uri_ptr, *auth_ptr, *token_ptr, *schema_ptr,
			*age_ptr;
	char		*token;		/* the catalog's bearer, or NULL */
	char		*job;		/* status.jobStatus.jobId, or NULL */
	bool		 auth_failed;
	bool		 judged;	/* the operator's status was read */
	bool		 cfk;		/* management: cfk (verify_cfk.h) */
	json_t		*rendered;	/* borrowed: a CFK build's resources */
	struct piece	 p[4];		/* schema snapshot deployment checkpoint */
};

static void
set(struct piece *p, enum outcome o, bool final, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
set(struct piece *p, enum outcome o, bool final, const char *fmt, ...)
{
	va_list ap;

	free(p->detail);
	free(p->at);
	va_start(ap, fmt);
	p->detail = xvasprintf(fmt, ap);
	va_end(ap);
	p->at = clk_utc_now();
	p->outcome = o;
	p->final = final;
}

/* The index of the element of array whose key equals s, or -1. */
static long
find_by(json_t *array, const char *key, const char *s)
{
	json_t *v;
	size_t i;

	json_array_foreach(array, i, v)
		if (s != NULL && json_is_string(json_object_get(v, key)) &&
		    strcmp(json_string_value(json_object_get(v, key)), s) == 0)
			return (long)i;
	return -1;
}

/* --- the allowlists ------------------------------------------------------ */

/* A target a CFK build does not have (no service account, no Secret). */
static const char cfk_none[] = "";

/*
 * What a CFK build runs under (allow_cfk()): its FlinkEnvironment, its
 * CMFRestClass, and an existing pool it does not render.  The number of
 * refusals, each an error in d at its place in the contract.
 */
static size_t
check_cfk_under(const struct allow *a, const struct vbuild *vb,
    const json_t *dep, struct diags *d)
{
	const json_t *rc = json_object_get(dep, "cmfRestClassRef");
	const json_t *pool = json_object_get(dep, "computePool");
	const char *ns = jstr(dep, "namespace");
	const char *rcns = jstr(rc, "namespace") ? jstr(rc, "namespace") : ns;
	struct { enum allow_list l; const char *ns, *name, *key; } c[3] = {
		{ ALLOW_CFK_ENVIRONMENT, ns, jstr(dep, "flinkEnvironment"),
		    "flinkEnvironment" },
		{ ALLOW_CFK_REST_CLASS, rcns, jstr(rc, "name"),
		    "cmfRestClassRef" },
		{ ALLOW_CFK_COMPUTE_POOL, ns, json_object_get(pool, "render") ==
		    json_true() ? NULL : jstr(pool, "name"), "computePool" },
	};
	char *why = NULL, *at;
	size_t k, n = 0;

	for (k = 0; k < 3; k++) {
		if (c[k].name == NULL || allow_cfk(a, c[k].l, c[k].ns,
		    c[k].name, &why))
			continue;
		at = xasprintf("%s/properties/parameters/flink/deployment/%s",
		    vb->bptr, c[k].key);
		diag_at(d, DIAG_ERROR, at, "%s; nothing was contacted", why);
		free(at);
		free(why);
		why = NULL;
		n++;
	}
	return n;
}

static size_t
check_allowlists(struct vbuild *vb, size_t n, const struct verify_opts *o,
    struct diags *d)
{
	struct allow a;
	struct allow_refusals r;
	struct allow_target *secrets;
	struct allow_targets t;
	json_t *dep, *cat, *auth, *refs;
	size_t i, k, nref = 0;

	allow_load(&a, o->env);
	allow_refusals_init(&r);
	for (i = 0; i < n; i++) {
		dep = json_object_get(vb[i].cb, "deployment");
		cat = json_object_get(json_object_get(vb[i].cb, "table"),
		    "catalog");
		auth = json_object_get(cat, "auth");
		refs = json_object_get(dep, "secretRefs");
		memset(&t, 0, sizeof(t));
		t.context = (struct allow_target){ jstr(dep, "context"),
		    vb[i].dep_ptr[0] };
		t.ns = (struct allow_target){ jstr(dep, "namespace"),
		    vb[i].dep_ptr[1] };
		t.image = (struct allow_target){ jstr(dep, "image"),
		    vb[i].dep_ptr[2] };
		t.service_account = (struct allow_target){
		    jstr(dep, "serviceAccount"), vb[i].dep_ptr[3] };
		secrets = xcalloc(json_array_size(refs) + 1, sizeof(*secrets));
		for (k = 0; k < json_array_size(refs); k++)
			secrets[k] = (struct allow_target){
			    json_string_value(json_array_get(refs, k)),
			    vb[i].dep_ptr[4] };
		t.secrets = secrets;
		t.nsecrets = json_array_size(refs);
		if (vb[i].cfk) {
			/* The image is the rendered pool's, if any. */
			t.image.value = json_object_get(json_object_get(dep,
			    "computePool"), "render") == json_true() ? jstr(
			    json_object_get(dep, "computePool"), "image") : NULL;
			if (t.image.value == NULL)
				t.image.where = cfk_none;
			t.service_account = (struct allow_target){ NULL,
			    cfk_none };
			t.nsecrets = 0;
		}
		t.catalog = (struct allow_target){ jstr(cat, "uri"),
		    vb[i].uri_ptr };
		if (auth != NULL && jstr(auth, "type") != NULL &&
		    strcmp(jstr(auth, "type"), "oauth2") == 0) {
			t.token_endpoint = (struct allow_target){
			    jstr(auth, "oauth2ServerUri"), vb[i].token_ptr };
			t.catalog_auth = (struct allow_target){
			    jstr(auth, "credentialEnv"), vb[i].auth_ptr };
		} else if (auth != NULL)
			t.catalog_auth = (struct allow_target){
			    jstr(auth, "tokenEnv"), vb[i].auth_ptr };
		t.product = jstr(vb[i].cb, "product");
		t.build = vb[i].id;
		allow_check(&a, ALLOW_CMD_VERIFY, &t, &r);
		free(secrets);
		if (vb[i].cfk)
			nref += check_cfk_under(&a, &vb[i], dep, d);
	}
	for (k = 0; k < r.n; k++) {
		if (r.v[k].where == cfk_none)
			continue;
		diag_at(d, DIAG_ERROR, r.v[k].where, "%s; nothing was "
		    "contacted", r.v[k].msg);
		nref++;
	}
	allow_refusals_release(&r);
	allow_release(&a);
	return nref;
}

/* --- the schema ------------------------------------------------------------ */

static void
diff(json_t *out, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
diff(json_t *out, const char *path, const char *fmt, ...)
{
	va_list ap;
	char *m, *s;

	va_start(ap, fmt);
	m = xvasprintf(fmt, ap);
	va_end(ap);
	s = xasprintf("%s: %s", path, m);
	json_array_append_new(out, json_string(s));
	free(m);
	free(s);
}

static void compare_type(json_t *, const char *, json_t *, json_t *, bool);

/* Contract columns (or struct fields) against Iceberg fields. */
static void
compare_fields(json_t *out, const char *prefix, json_t *exp, json_t *act)
{
	size_t i, n = json_array_size(exp) > json_array_size(act) ?
	    json_array_size(exp) : json_array_size(act);
	const char *what = *prefix ? "field" : "column";
	json_t *e, *a;
	char *path;

	for (i = 0; i < n; i++) {
		e = json_array_get(exp, i);
		a = json_array_get(act, i);
		path = xasprintf("%s%s%s", prefix, *prefix ? "." : "",
		    e ? jstr(e, "name") : jstr(a, "name"));
		if (e == NULL)
			diff(out, path, "the table has this %s (position %zu), "
			    "the contract does not", what, i + 1);
		else if (a == NULL)
			diff(out, path, "the contract has this %s (position "
			    "%zu), the table does not", what, i + 1);
		else if (jstr(a, "name") == NULL ||
		    strcmp(jstr(e, "name"), jstr(a, "name")) != 0)
			diff(out, path, "position %zu is '%s' in the table, "
			    "'%s' in the contract", i + 1,
			    jstr(a, "name") ? jstr(a, "name") : "?",
			    jstr(e, "name"));
		else
			compare_type(out, path, e, json_object_get(a, "type"),
			    json_is_true(json_object_get(a, "required")));
		free(path);
	}
}

/* Iceberg's name of a contract scalar type, in buf. */
static const char *
iceberg_scalar(const char *t, char *buf, size_t n)
{
	int p, s;

	if (sscanf(t, "decimal(%d,%d)", &p, &s) == 2) {
		snprintf(buf, n, "decimal(%d, %d)", p, s);
		return buf;
	}
	/* Iceberg keeps microseconds whatever the precision. */
	if (strncmp(t, "timestamp_ltz", 13) == 0)
		return "timestamptz";
	if (strncmp(t, "timestamp", 9) == 0)
		return "timestamp";
	return t;
}

static void
compare_type(json_t *out, const char *path, json_t *e, json_t *a,
    bool a_required)
{
	const char *t = jstr(e, "type"), *at = json_string_value(a);
	const char *want;
	char buf[64], *sub;
	bool e_required = json_is_true(json_object_get(e, "required"));

	if (t == NULL)
		return;
	if (e_required != a_required)
		diff(out, path, "%s in the contract, %s in the table",
		    e_required ? "required" : "optional",
		    a_required ? "required" : "optional");
	if (json_is_object(a))
		at = jstr(a, "type");
	if (strcmp(t, "struct") == 0) {
		if (at == NULL || strcmp(at, "struct") != 0)
			diff(out, path, "a struct in the contract, %s in the "
			    "table", at ? at : "another type");
		else
			compare_fields(out, path, json_object_get(e, "fields"),
			    json_object_get(a, "fields"));
	} else if (strcmp(t, "array") == 0) {
		if (at == NULL || strcmp(at, "list") != 0 || !json_is_object(a))
			diff(out, path, "an array in the contract, %s in the "
			    "table", at ? at : "another type");
		else {
			sub = xasprintf("%s[]", path);
			compare_type(out, sub, json_object_get(e, "element"),
			    json_object_get(a, "element"), json_is_true(
			    json_object_get(a, "element-required")));
			free(sub);
		}
	} else if (strcmp(t, "map") == 0) {
		if (at == NULL || strcmp(at, "map") != 0 || !json_is_object(a))
			diff(out, path, "a map in the contract, %s in the "
			    "table", at ? at : "another type");
		else {
			sub = xasprintf("%s{key}", path);
			compare_type(out, sub, json_object_get(e, "key"),
			    json_object_get(a, "key"), true);
			free(sub);
			sub = xasprintf("%s{value}", path);
			compare_type(out, sub, json_object_get(e, "value"),
			    json_object_get(a, "value"), json_is_true(
			    json_object_get(a, "value-required")));
			free(sub);
		}
	} else {
		want = iceberg_scalar(t, buf, sizeof(buf));
		if (at == NULL || strcmp(want, at) != 0)
			diff(out, path, "%s in the contract (Iceberg %s), %s "
			    "in the table", t, want, at ? at : "a nested type");
	}
}

/* The table's current schema (borrowed), or NULL. */
static json_t *
current_schema(json_t *md)
{
	json_t *schemas = json_object_get(md, "schemas"), *s;
	json_int_t id = json_integer_value(json_object_get(md,
	    "current-schema-id"));
	size_t i;

	json_array_foreach(schemas, i, s)
		if (json_integer_value(json_object_get(s, "schema-id")) == id)
			return s;
	return json_object_get(md, "schema");	/* format version 1 */
}

/* --- the catalog ----------------------------------------------------------- */

/* s percent-encoded as a path segment (namespace levels joined by 0x1F). */
static void
add_segment(struct sb *sb, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	unsigned char ch;

	for (; *s != '\0'; s++) {
		ch = (unsigned char)(*s == '.' ? 0x1f : *s);
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
		    ch == '~')
			sb_addc(sb, (char)ch);
		else {
			sb_addc(sb, '%');
			sb_addc(sb, hex[ch >> 4]);
			sb_addc(sb, hex[ch & 15]);
		}
	}
}

/* The catalog's base URI, without a trailing slash. */
static char *
base_uri(const char *uri)
{
	size_t n = strlen(uri);

	while (n > 0 && uri[n - 1] == '/')
		n--;
	return xstrndup(uri, n);
}

/* The bearer token for a build's catalog: 0, or -1 with why. */
static int
get_token(struct vbuild *vb, const struct verify_opts *o, char **why)
{
	json_t *auth = json_object_get(json_object_get(json_object_get(
	    vb->cb, "table"), "catalog"), "auth");
	const char *type = jstr(auth, "type"), *var, *val;
	struct net_err e;

	*why = NULL;
	if (auth == NULL || json_is_null(auth) || type == NULL)
		return 0;
	var = strcmp(type, "oauth2") == 0 ? jstr(auth, "credentialEnv") :
	    jstr(auth, "tokenEnv");
	if (var == NULL || (val = o->env(var)) == NULL || *val == '\0') {
		*why = xasprintf("catalogAuth names %s, which is not set in "
		    "this environment", var ? var : "no variable");
		return -1;
	}
	if (strcmp(type, "bearer") == 0) {
		vb->token = xstrdup(val);
		return 0;
	}
	if (net_oauth2_token(o->net, jstr(auth, "oauth2ServerUri"), val,
	    jstr(auth, "scope"), &vb->token, &e) == -1) {
		*why = xasprintf("OAuth2 token from %s: %s", var, e.msg);
		return -1;
	}
	return 0;
}

/*
 * Whether asking again cannot change a failed request: a refused
 * credential, a request fluid would not send, a certificate, or a host
 * name that does not resolve (net.c reports that as NET_CONNECT, in
 * libcurl's words, which it does not retry either).
 */
static bool
net_final(const struct net_err *e)
{
	return e->status == 401 || e->status == 403 ||
	    e->failure == NET_REFUSED || e->failure == NET_TLS ||
	    (e->failure == NET_CONNECT &&
	    strstr(e->msg, "Could not resolve host") != NULL);
}

/* Read the table once and set the two catalog pieces. */
static void
read_catalog(struct vbuild *vb, const struct verify_opts *o)
{
	json_t *t = json_object_get(vb->cb, "table");
	json_t *cat = json_object_get(t, "catalog"), *cfg, *res, *md, *sc;
	json_t *snaps, *snap, *differences, *age_v;
	struct piece *ps = &vb->p[0], *pn = &vb->p[1];
	const char *prefix;
	struct net_err e;
	struct sb url;
	char *base, *why, *cfg_url;
	json_int_t cur, ts, max_age;
	long long age;
	long idx;
	size_t i;

	if (vb->auth_failed)
		return;
	if (vb->token == NULL && get_token(vb, o, &why) == -1) {
		set(ps, OUT_UNAVAILABLE, true, "%s", why);
		set(pn, OUT_UNAVAILABLE, true, "%s", why);
		free(why);
		vb->auth_failed = true;
		return;
	}
	base = base_uri(jstr(cat, "uri"));
	sb_init(&url);
	sb_adds(&url, base);
	sb_adds(&url, "/v1/config");
	if (jstr(cat, "warehouse") != NULL) {
		sb_adds(&url, "?warehouse=");
		add_segment(&url, jstr(cat, "warehouse"));
	}
	cfg_url = sb_steal(&url);
	if (net_get_json(o->net, cfg_url, vb->token, &cfg, &e) == -1) {
		free(ps->endpoint);
		ps->endpoint = net_display_url(cfg_url);
		free(pn->endpoint);
		pn->endpoint = net_display_url(cfg_url);
		set(ps, OUT_UNAVAILABLE, net_final(&e), "%s", e.msg);
		set(pn, ps->outcome, ps->final, "%s", e.msg);
		free(cfg_url);
		free(base);
		return;
	}
	free(cfg_url);
	prefix = jstr(json_object_get(cfg, "overrides"), "prefix");
	if (prefix == NULL)
		prefix = jstr(json_object_get(cfg, "defaults"), "prefix");
	sb_init(&url);
	sb_adds(&url, base);
	sb_adds(&url, "/v1/");
	if (prefix != NULL && *prefix != '\0') {
		add_segment(&url, prefix);
		sb_addc(&url, '/');
	}
	sb_adds(&url, "namespaces/");
	add_segment(&url, jstr(t, "namespace"));
	sb_adds(&url, "/tables/");
	add_segment(&url, jstr(t, "name"));
	json_decref(cfg);
	free(base);
	free(ps->endpoint);
	ps->endpoint = net_display_url(url.buf);
	free(pn->endpoint);
	pn->endpoint = net_display_url(url.buf);
	if (net_get_json(o->net, url.buf, vb->token, &res, &e) == -1) {
		set(ps, OUT_UNAVAILABLE, net_final(&e), "%s", e.msg);
		set(pn, ps->outcome, ps->final, "%s", e.msg);
		sb_release(&url);
		return;
	}
	sb_release(&url);
	md = json_object_get(res, "metadata");
	/* The schema. */
	if ((sc = current_schema(md)) == NULL)
		set(ps, OUT_FAIL, false, "the table's metadata has no current "
		    "schema");
	else {
		differences = json_array();
		compare_fields(differences, "", json_object_get(t, "columns"),
		    json_object_get(sc, "fields"));
		json_decref(ps->differences);
		ps->differences = differences;
		if (json_array_size(differences) == 0)
			set(ps, OUT_PASS, true, "schema %lld equals the "
			    "contract's %zu columns", (long long)
			    json_integer_value(json_object_get(sc,
			    "schema-id")), json_array_size(
			    json_object_get(t, "columns")));
		else
			set(ps, OUT_FAIL, true, "the table's schema differs from "
			    "the contract: %s%s",
			    json_string_value(json_array_get(differences, 0)),
			    json_array_size(differences) > 1 ? " (and more: "
			    "see the report)" : "");
	}
	/* The snapshot. */
	age_v = json_object_get(t, "maxSnapshotAgeSeconds");
	max_age = json_is_integer(age_v) ? json_integer_value(age_v) : -1;
	cur = json_is_integer(json_object_get(md, "current-snapshot-id")) ?
	    json_integer_value(json_object_get(md, "current-snapshot-id")) :
	    -1;
	snaps = json_object_get(md, "snapshots");
	snap = NULL;
	json_array_foreach(snaps, i, snap)
		if (json_integer_value(json_object_get(snap, "snapshot-id")) ==
		    cur)
			break;
	idx = snap != NULL && cur != -1 ? (long)i : -1;
	if (cur == -1 || idx < 0 || (size_t)idx >= json_array_size(snaps))
		set(pn, OUT_FAIL, false, "the table has no committed snapshot");
	else {
		ts = json_integer_value(json_object_get(snap, "timestamp-ms"));
		age = clk_wall_s() - (long long)(ts / 1000);
		if (age < 0)
			age = 0;
		if (max_age < 0)
			set(pn, OUT_PASS, true, "snapshot %lld committed %lld s "
			    "ago (no maxSnapshotAgeSeconds: any committed "
			    "snapshot counts)", (long long)cur, age);
		else if (age <= max_age)
			set(pn, OUT_PASS, true, "snapshot %lld committed %lld s "
			    "ago, within maxSnapshotAgeSeconds %lld",
			    (long long)cur, age, (long long)max_age);
		else
			set(pn, OUT_FAIL, false, "no snapshot is young enough: "
			    "the newest, %lld, was committed %lld s ago, "
			    "maxSnapshotAgeSeconds is %lld", (long long)cur, age,
			    (long long)max_age);
	}
	json_decref(res);
}

/* --- the deployment ------------------------------------------------------ */

static const enum outcome from[] = { [VFY_PASS] = OUT_PASS,
    [VFY_FAIL] = OUT_FAIL, [VFY_UNAVAILABLE] = OUT_UNAVAILABLE };

/* The FlinkDeployment item of a last-applied record (borrowed), or NULL. */
static json_t *
record_fd(json_t *rec, json_t **list)
{
	const char *text = jstr(json_object_get(rec, "data"), "resources.json");
	json_t *it;
	size_t i;

	*list = text ? json_loads(text, 0, NULL) : NULL;
	json_array_foreach(json_object_get(*list, "items"), i, it)
		if (jstreq(jstr(it, "kind"), "FlinkDeployment"))
			return it;
	return NULL;
}

/*
 * Set vb's deployment piece from what was read: live, its
 * FlinkDeployment, and rec, fluid apply's record of it (NULL: it does
 * not exist).
 */
static void
judge_deployment(struct vbuild *vb, json_t *live, json_t *rec)
{
	json_t *dep = json_object_get(vb->cb, "deployment");
	const char *ns = jstr(dep, "namespace"), *name = jstr(dep, "name");
	struct piece *p = &vb->p[2];
	struct vfy_reading r = { VFY_UNAVAILABLE, false, NULL, NULL };
	json_t *list = NULL, *applied;
	char *recn = kube_record_name(name);
	const char *job;

	/* The job the checkpoint piece asks the JobManager about. */
	free(vb->job);
	job = jstr(json_object_get(json_object_get(live, "status"),
	    "jobStatus"), "jobId");
	vb->job = live != NULL && job != NULL ? xstrdup(job) : NULL;
	if (live == NULL)
		set(p, OUT_FAIL, true, "FlinkDeployment %s/%s does not exist",
		    ns, name);
	else if (!k8s_owned(live, jstr(vb->cb, "product"), vb->id))
		set(p, OUT_FAIL, true, "FlinkDeployment %s/%s is not fluid's "
		    "for product '%s' build '%s' (its labels)", ns, name,
		    jstr(vb->cb, "product"), vb->id);
	else if (rec == NULL || !k8s_owned(rec, jstr(vb->cb, "product"),
	    vb->id))
		set(p, OUT_FAIL, true, "no record of fluid apply (ConfigMap "
		    "%s/%s, fluid's): this build was not applied by fluid", ns,
		    recn);
	else if ((applied = json_object_get(record_fd(rec, &list),
	    "spec")) == NULL)
		set(p, OUT_FAIL, true, "ConfigMap %s/%s holds no applied "
		    "FlinkDeployment spec (data resources.json)", ns, recn);
	else {
		vfy_judge_status(live, applied, jstr(dep, "state"), &r);
		vb->judged = true;
		set(p, from[r.outcome], r.final, "%s", r.detail);
		free(r.detail);
	}
	json_decref(list);
	free(recn);
}

/* Whether build i's deployment piece is read in this round. */
static bool
to_read(const struct vbuild *vb)
{
	return !vb->cfk && vb->p[2].outcome != OUT_PASS && !vb->p[2].final;
}

/* Whether a and b are the same string (neither NULL). */
static bool
same_s(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/*
 * Read the FlinkDeployments and fluid apply's records of the builds whose
 * deployment piece is still open, and set it: for the builds that share
 * a context and a namespace, one kubectl run per kind.  A cluster that
 * cannot be read makes the piece unavailable (kubectl's words), not
 * verify's own failure.
 */
static void
read_deployments(struct vbuild *vb, size_t n, const struct verify_opts *o)
{
	const char **fdn = xcalloc(n + 1, sizeof(*fdn));
	const char **recn = xcalloc(n + 1, sizeof(*recn));
	char **owned = xcalloc(n + 1, sizeof(*owned));
	bool *done = xcalloc(n + 1, sizeof(*done));
	size_t *idx = xcalloc(n + 1, sizeof(*idx));
	json_t *dep, *d2, *fds, *recs;
	const char *ctx, *ns;
	struct diags kd;
	struct kube k;
	size_t i, j, m;

	for (i = 0; i < n; i++) {
		if (done[i] || !to_read(&vb[i]))
			continue;
		dep = json_object_get(vb[i].cb, "deployment");
		ctx = jstr(dep, "context");
		ns = jstr(dep, "namespace");
		/* The builds of this context and namespace, read together. */
		for (j = i, m = 0; j < n; j++) {
			d2 = json_object_get(vb[j].cb, "deployment");
			if (done[j] || !to_read(&vb[j]) ||
			    !same_s(jstr(d2, "context"), ctx) ||
			    !same_s(jstr(d2, "namespace"), ns))
				continue;
			done[j] = true;
			idx[m] = j;
			fdn[m] = jstr(d2, "name");
			owned[m] = kube_record_name(fdn[m]);
			recn[m] = owned[m];
			m++;
			free(vb[j].p[2].endpoint);
			vb[j].p[2].endpoint = xasprintf("kubectl --context=%s: "
			    "flinkdeployment %s/%s, configmap %s/%s", ctx, ns,
			    fdn[m - 1], ns, recn[m - 1]);
		}
		diags_init(&kd);
		fds = recs = NULL;
		if (kube_init(&k, ctx, o->env, &kd) == -1 ||
		    kube_get_names(&k, "flinkdeployment", ns, fdn, m, &fds,
		    &kd) == -1 || kube_get_names(&k, "configmap", ns, recn, m,
		    &recs, &kd) == -1) {
			for (j = i; j < n; j++) {
				d2 = json_object_get(vb[j].cb, "deployment");
				if (to_read(&vb[j]) &&
				    same_s(jstr(d2, "context"), ctx) &&
				    same_s(jstr(d2, "namespace"), ns))
					set(&vb[j].p[2], OUT_UNAVAILABLE, true,
					    "%s", kd.n > 0 ? kd.v[kd.n - 1].msg :
					    "kubectl failed");
			}
		} else
			for (j = 0; j < m; j++)
				judge_deployment(&vb[idx[j]],
				    json_object_get(fds, fdn[j]),
				    json_object_get(recs, recn[j]));
		json_decref(fds);
		json_decref(recs);
		diags_release(&kd);
		for (j = 0; j < m; j++)
			free(owned[j]);
	}
	free(fdn);
	free(recn);
	free(owned);
	free(done);
	free(idx);
}

/* A CFK build's two pieces, those not yet settled (verify_cfk.h). */
static void
read_cfk(struct vbuild *vb, const struct verify_opts *o)
{
	struct vfy_reading r[2];
	bool want[2];
	size_t k;

	memset(r, 0, sizeof(r));
	for (k = 0; k < 2; k++) {
		/* Never a pass that nothing set. */
		r[k].outcome = VFY_UNAVAILABLE;
		want[k] = vb->p[k + 2].outcome != OUT_PASS &&
		    !vb->p[k + 2].final;
	}
	if (!want[0] && !want[1])
		return;
	vfy_cfk_read(vb->cb, vb->rendered, o->env, want[0], &r[0], want[1],
	    &r[1]);
	for (k = 0; k < 2; k++) {
		if (!want[k])
			continue;
		set(&vb->p[k + 2], from[r[k].outcome], r[k].final, "%s",
		    r[k].detail ? r[k].detail : "not read");
		free(vb->p[k + 2].endpoint);
		vb->p[k + 2].endpoint = r[k].endpoint;
		free(r[k].detail);
	}
}

/* Read the checkpoint of the job the deployment's status names. */
static void
read_checkpoint(struct vbuild *vb, const struct verify_opts *o)
{
	json_t *age = json_object_get(json_object_get(vb->cb, "table"),
	    "maxSnapshotAgeSeconds");
	struct piece *p = &vb->p[3];
	struct vfy_reading r = { VFY_UNAVAILABLE, false, NULL, NULL };

	vfy_checkpoint(json_object_get(vb->cb, "deployment"), vb->job,
	    json_is_integer(age) ? (long long)json_integer_value(age) : -1,
	    o->env, &r);
	/* No job id will come from a deployment that is not read again. */
	if (vb->job == NULL && vb->p[2].final && vb->p[2].outcome != OUT_PASS)
		r.final = true;
	set(p, from[r.outcome], r.final, "%s", r.detail ? r.detail : "");
	free(p->endpoint);
	p->endpoint = r.endpoint;
	free(r.detail);
}

/*
 * The first failed piece of vb when the operator's Events may say why
 * (the deployment or the checkpoint failed on fluid's deployment), or
 * NULL.
 */
static struct piece *
events_piece(struct vbuild *vb)
{
	if (!vb->judged)
		return NULL;
	return vb->p[2].outcome == OUT_FAIL ? &vb->p[2] :
	    vb->p[3].outcome == OUT_FAIL ? &vb->p[3] : NULL;
}

/*
 * When the deployment or the checkpoint failed on fluid's deployment,
 * the operator's Events for it say why (SavepointError, a pod's
 * CreateContainerConfigError, ...): add the newest one's reason to the
 * first failed piece.  Read once, after the last reading: one read per
 * context and namespace, of the FlinkDeployment named when one build
 * there failed, else of every FlinkDeployment's (vfy_events_reason()
 * picks each one's own).
 */
static void
read_events(struct vbuild *vb, size_t n, const struct verify_opts *o)
{
	bool *done = xcalloc(n + 1, sizeof(*done));
	json_t *dep, *d2, *list;
	const char *ctx, *ns, *name;
	struct piece *p;
	struct diags kd;
	struct kube k;
	char *path, *why, *reason, *detail;
	size_t i, j, m;
	int unreached;

	for (i = 0; i < n; i++) {
		if (done[i] || events_piece(&vb[i]) == NULL)
			continue;
		dep = json_object_get(vb[i].cb, "deployment");
		ctx = jstr(dep, "context");
		ns = jstr(dep, "namespace");
		name = jstr(dep, "name");
		for (j = i, m = 0; j < n; j++) {
			d2 = json_object_get(vb[j].cb, "deployment");
			if (events_piece(&vb[j]) != NULL &&
			    same_s(jstr(d2, "context"), ctx) &&
			    same_s(jstr(d2, "namespace"), ns))
				m++;
		}
		diags_init(&kd);
		if (kube_init(&k, ctx, o->env, &kd) == -1) {
			diags_release(&kd);
			break;
		}
		diags_release(&kd);
		path = m == 1 ? xasprintf("/api/v1/namespaces/%s/events?"
		    "fieldSelector=involvedObject.kind%%3DFlinkDeployment%%2C"
		    "involvedObject.name%%3D%s", ns, name) :
		    xasprintf("/api/v1/namespaces/%s/events?fieldSelector="
		    "involvedObject.kind%%3DFlinkDeployment", ns);
		list = NULL;
		why = NULL;
		if (kube_get_raw(&k, path, &list, &why, &unreached) == 1)
			for (j = i; j < n; j++) {
				d2 = json_object_get(vb[j].cb, "deployment");
				if ((p = events_piece(&vb[j])) == NULL ||
				    !same_s(jstr(d2, "context"), ctx) ||
				    !same_s(jstr(d2, "namespace"), ns))
					continue;
				done[j] = true;
				reason = vfy_events_reason(list, jstr(d2,
				    "name"));
				if (reason == NULL)
					continue;
				detail = xasprintf("%s; %s", p->detail, reason);
				free(p->detail);
				p->detail = detail;
				free(reason);
			}
		else
			for (j = i; j < n; j++) {
				d2 = json_object_get(vb[j].cb, "deployment");
				if (same_s(jstr(d2, "context"), ctx) &&
				    same_s(jstr(d2, "namespace"), ns))
					done[j] = true;
			}
		free(why);
		free(path);
		json_decref(list);
	}
	free(done);
}

/* --- the options ------------------------------------------------------- */

int
verify_env(struct verify_opts *o, struct net_opts *no,
    char *(*env)(const char *), struct diags *d)
{
	const char *text;
	char *end;
	long v;

	/* The CA bundle of a private catalog; libcurl's otherwise. */
	no->ca_bundle = env("FLUID_CA_BUNDLE");
	/* Each request's own bound, in seconds (fluid-verify(1)). */
	if ((text = env("FLUID_HTTP_TIMEOUT")) != NULL && *text != '\0') {
		errno = 0;
		v = strtol(text, &end, 10);
		if (errno != 0 || *end != '\0' || v < 1 || v > 600) {
			diag_fatal(d, "FLUID_HTTP_TIMEOUT expects seconds from "
			    "1 to 600");
			return -1;
		}
		no->total_ms = v * 1000;
	}
	o->net = no;
	o->env = env;
	return 0;
}

/* --- builds ------------------------------------------------------------ */

static void
vbuild_init(struct vbuild *vb, json_t *cb, json_t *document)
{
	static const char *const dep_keys[] = { "context", "namespace",
	    "image", "serviceAccount", "secretRefs" };
	json_t *t = json_object_get(cb, "table"), *dep;
	const char *table_name;
	long bi, ei;
	size_t k;

	memset(vb, 0, sizeof(*vb));
	vb->cb = cb;
	vb->id = jstr(cb, "id");
	bi = find_by(json_object_get(document, "builds"), "id", vb->id);
	ei = find_by(json_object_get(document, "exposes"), "exposeId",
	    jstr(cb, "expose"));
	vb->bptr = bi >= 0 ? xasprintf("/builds/%ld", bi) : xstrdup("/builds");
	vb->eptr = ei >= 0 ? xasprintf("/exposes/%ld", ei) : NULL;
	vb->cfk = cfk_render_target(cb);
	for (k = 0; k < 5; k++)
		vb->dep_ptr[k] = xasprintf("%s/properties/parameters/flink/"
		    "deployment/%s", vb->bptr, vb->cfk && k == 2 ?
		    "computePool/image" : dep_keys[k]);
#define EP(s) (vb->eptr ? xasprintf("%s%s", vb->eptr, s) : xstrdup(vb->bptr))
	vb->uri_ptr = EP("/binding/location/uri");
	vb->auth_ptr = EP("/binding/catalogAuth");
	vb->token_ptr = EP("/binding/catalogAuth/oauth2ServerUri");
	vb->schema_ptr = EP("/contract/schema");
	vb->age_ptr = json_is_integer(json_object_get(t,
	    "maxSnapshotAgeSeconds")) ?
	    EP("/binding/icebergConfig/maxSnapshotAgeSeconds") :
	    EP("/binding");
#undef EP
	table_name = jstr(t, "name");
	vb->p[0].kind = "catalog-schema";
	vb->p[0].checked = xasprintf("the current schema of Iceberg table "
	    "%s.%s, loaded from the REST catalog, equals the contract's "
	    "(names, order, types, nullability, nested fields)",
	    jstr(t, "namespace"), table_name);
	vb->p[0].ptr = vb->schema_ptr;
	vb->p[1].kind = "catalog-snapshot";
	vb->p[1].checked = json_is_integer(json_object_get(t,
	    "maxSnapshotAgeSeconds")) ? xasprintf("table %s.%s has a "
	    "committed snapshot younger than maxSnapshotAgeSeconds (%lld s)",
	    jstr(t, "namespace"), table_name, (long long)json_integer_value(
	    json_object_get(t, "maxSnapshotAgeSeconds"))) :
	    xasprintf("table %s.%s has a committed snapshot",
	    jstr(t, "namespace"), table_name);
	vb->p[1].ptr = vb->age_ptr;
	for (k = 0; k < 2; k++)
		set(&vb->p[k], OUT_UNAVAILABLE, false, "not read");
	dep = json_object_get(cb, "deployment");
	vb->p[2].kind = "deployment";
	vb->p[2].checked = xasprintf("FlinkDeployment %s/%s (context %s): "
	    "the operator's reconciled spec equals the applied one, with its "
	    "lifecycle and job state", jstr(dep, "namespace"),
	    jstr(dep, "name"), jstr(dep, "context"));
	vb->p[2].ptr = vb->dep_ptr[0];
	vb->p[3].kind = "checkpoint";
	vb->p[3].checked = json_is_integer(json_object_get(t,
	    "maxSnapshotAgeSeconds")) ? xasprintf("the job the "
	    "FlinkDeployment's status names has a completed checkpoint "
	    "younger than maxSnapshotAgeSeconds (%lld s), from the JobManager "
	    "REST API through the Kubernetes service proxy (service %s-rest)",
	    (long long)json_integer_value(json_object_get(t,
	    "maxSnapshotAgeSeconds")), jstr(dep, "name")) : xasprintf("the job "
	    "the FlinkDeployment's status names has a completed checkpoint, "
	    "from the JobManager REST API through the Kubernetes service "
	    "proxy (service %s-rest)", jstr(dep, "name"));
	vb->p[3].ptr = vb->dep_ptr[0];
	set(&vb->p[2], OUT_UNAVAILABLE, false, "not read");
	set(&vb->p[3], OUT_UNAVAILABLE, false, "not read");
	for (k = 2; vb->cfk && k < 4; k++) {
		vb->p[k].kind = vfy_cfk_kind((int)k - 2);
		free(vb->p[k].checked);
		vb->p[k].checked = vfy_cfk_checked(cb, (int)k - 2);
	}
}

static void
vbuild_release(struct vbuild *vb)
{
	size_t k;

	for (k = 0; k < 4; k++) {
		free(vb->p[k].checked);
		free(vb->p[k].endpoint);
		free(vb->p[k].at);
		free(vb->p[k].detail);
		json_decref(vb->p[k].differences);
	}
	for (k = 0; k < 5; k++)
		free(vb->dep_ptr[k]);
	free(vb->bptr);
	free(vb->eptr);
	free(vb->uri_ptr);
	free(vb->auth_ptr);
	free(vb->token_ptr);
	free(vb->schema_ptr);
	free(vb->age_ptr);
	if (vb->token != NULL)
		explicit_bzero(vb->token, strlen(vb->token));
	free(vb->token);
	free(vb->job);
}

static bool
settled(const struct vbuild *vb, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 4; k++)
			if (vb[i].p[k].outcome != OUT_PASS && !vb[i].p[k].final)
				return false;
	return true;
}

/*
 * One line for a re-read: the pieces still pending and why, each detail
 * cut short, the whole escaped as a diagnostic is (the details quote
 * the cluster and the catalog) and bounded (new).
 */
static char *
pending_line(const struct vbuild *vb, size_t n, long spent, long total,
    long next)
{
	struct diags d;
	struct sb sb;
	size_t i, k, len, cutn;
	char *r;

	sb_init(&sb);
	sb_addf(&sb, "verify: %ld s of %ld, reading again in %ld s; pending:",
	    spent, total, next);
	for (i = 0; i < n; i++)
		for (k = 0; k < 4; k++) {
			if (vb[i].p[k].outcome == OUT_PASS || vb[i].p[k].final)
				continue;
			len = strlen(vb[i].p[k].detail);
			cutn = len > 160 ? 160 : len;
			while (cutn > 0 && cutn < len && ((unsigned char)
			    vb[i].p[k].detail[cutn] & 0xc0) == 0x80)
				cutn--;
			sb_addf(&sb, " %s %s (%.*s%s);", vb[i].id,
			    vb[i].p[k].kind, (int)cutn, vb[i].p[k].detail,
			    cutn < len ? "..." : "");
		}
	if (sb.len > 4000)
		sb.buf[sb.len = 4000] = '\0';
	diags_init(&d);
	diag_at(&d, DIAG_WARNING, NULL, "%s", sb.buf);
	r = xstrdup(d.v[0].msg);
	diags_release(&d);
	sb_release(&sb);
	return r;
}

static json_t *
piece_json(const struct piece *p, bool required)
{
	json_t *o = json_pack("{s:s, s:s, s:s?, s:s, s:s, s:s, s:b}",
	    "evidence", p->kind, "checked", p->checked,
	    "endpoint", p->endpoint, "at", p->at,
	    "outcome", outcome_names[p->outcome], "detail", p->detail,
	    "required", required);

	if (p->differences != NULL && json_array_size(p->differences) > 0)
		json_object_set(o, "differences", p->differences);
	return o;
}

json_t *
verify_run(json_t *doc, const struct verify_opts *o, struct diags *d)
{
	json_t *check = ir_section(doc, "check"), *builds, *cb, *report;
	json_t *document = json_object_get(ir_section(doc, "resolve"),
	    "document"), *jb, *ev;
	struct vbuild *vb;
	size_t i, k, n;
	long t0, left, wait_s = 1;
	char *started, *line;
	bool failed = false, bfailed, required;
	enum diag_level lvl;

	builds = json_object_get(check, "builds");
	n = json_array_size(builds);
	vb = xcalloc(n + 1, sizeof(*vb));
	json_array_foreach(builds, i, cb) {
		vbuild_init(&vb[i], cb, document);
		vb[i].rendered = vfy_cfk_rendered(doc, vb[i].id);
	}
	if (check_allowlists(vb, n, o, d) > 0) {
		for (i = 0; i < n; i++)
			vbuild_release(&vb[i]);
		free(vb);
		return NULL;
	}
	started = clk_utc_now();
	t0 = clk_mono_s();
	for (;;) {
		for (i = 0; i < n; i++)
			if (vb[i].p[0].outcome != OUT_PASS ||
			    vb[i].p[1].outcome != OUT_PASS)
				read_catalog(&vb[i], o);
		for (i = 0; i < n; i++)
			if (vb[i].cfk)
				read_cfk(&vb[i], o);
		read_deployments(vb, n, o);
		/* After the deployment: its status names the job. */
		for (i = 0; i < n; i++)
			if (!vb[i].cfk && vb[i].p[3].outcome != OUT_PASS &&
			    !vb[i].p[3].final)
				read_checkpoint(&vb[i], o);
		if (settled(vb, n))
			break;
		left = o->timeout_s - (clk_mono_s() - t0);
		if (left <= 0)
			break;
		if (wait_s > left)
			wait_s = left;
		if (o->progress != NULL) {
			line = pending_line(vb, n, clk_mono_s() - t0,
			    o->timeout_s, wait_s);
			o->progress(o->arg, line);
			free(line);
		}
		nanosleep(&(struct timespec){ wait_s, 0 }, NULL);
		wait_s = wait_s * 2 > 10 ? 10 : wait_s * 2;
	}
	if (o->progress != NULL)
		o->progress(o->arg, NULL);
	read_events(vb, n, o);
	report = json_pack("{s:i, s:s, s:s?, s:s?, s:b, s:I, s:s, s:o, s:[]}",
	    "fluidDelivery", 1, "notice", NOTICE,
	    "contract", o->contract,
	    "digest", jstr(ir_section(doc, "resolve"), "digest"),
	    "strict", o->strict, "streamingTimeoutSeconds",
	    (json_int_t)o->timeout_s, "startedAt", started,
	    "finishedAt", json_string(""), "builds");
	free(started);
	for (i = 0; i < n; i++) {
		bfailed = false;
		ev = json_array();
		for (k = 0; k < 4; k++) {
			struct piece *p = &vb[i].p[k];

			/* The catalog's pieces are required; the rest with --strict. */
			required = k < 2 || o->strict;
			json_array_append_new(ev, piece_json(p, required));
			if (p->outcome == OUT_PASS)
				continue;
			lvl = p->outcome == OUT_FAIL || o->strict ? DIAG_ERROR :
			    DIAG_WARNING;
			if (p->outcome == OUT_UNAVAILABLE && k < 2)
				lvl = DIAG_ERROR;
			if (lvl == DIAG_ERROR)
				bfailed = true;
			diag_at(d, lvl, p->ptr, "Flink build %s: %s: %s%s",
			    vb[i].id, p->kind, p->outcome == OUT_UNAVAILABLE ?
			    "unavailable: " : "", p->detail);
		}
		jb = json_pack("{s:s, s:s?, s:s, s:o}", "build", vb[i].id,
		    "product", jstr(vb[i].cb, "product"),
		    "outcome", bfailed ? "fail" : "pass", "evidence", ev);
		if (vb[i].cfk)
			json_object_set_new(jb, "note",
			    json_string(VFY_CFK_NOTE));
		json_array_append_new(json_object_get(report, "builds"), jb);
		failed |= bfailed;
		vbuild_release(&vb[i]);
	}
	free(vb);
	started = clk_utc_now();
	json_object_set_new(report, "finishedAt", json_string(started));
	free(started);
	json_object_set_new(report, "outcome",
	    json_string(failed ? "fail" : "pass"));
	return report;
}

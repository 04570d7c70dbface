/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * plan_allow.c - the allowlists on what apply writes (plan.h): every
 * deployment target read from the resources themselves, not from the
 * plan's summary of them.
 */
#include <stdlib.h>
#include <string.h>

#include "k8s_cfk_plan.h"
#include "plan.h"
#include "jget.h"
#include "xalloc.h"

/* A growing list of targets; values borrowed or owned (own[]). */
struct tlist {
	struct allow_target	*v;
	size_t			 n, cap;
	char			**own;
	size_t			 nown;
};

static void
tl_add(struct tlist *l, const char *value, const char *where)
{
	size_t i;

	if (value == NULL)
		return;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].value, value) == 0)
			return;		/* once each */
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = (struct allow_target){ value, where };
}

/* Add a copy of value[0..len) (a part of a configuration value). */
static void
tl_add_part(struct tlist *l, const char *value, size_t len,
    const char *where)
{
	char *s = xstrndup(value, len);

	l->own = xreallocarray(l->own, l->nown + 1, sizeof(*l->own));
	l->own[l->nown++] = s;
	tl_add(l, s, where);
}

static void
tl_release(struct tlist *l)
{
	size_t i;

	for (i = 0; i < l->nown; i++)
		free(l->own[i]);
	free(l->own);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* What one build's resources use, read from every field. */
struct uses {
	struct tlist	images, accounts, secrets, endpoints;
};

/*
 * The Secrets of a flinkConfiguration value: "kubernetes.secrets" is
 * name:path,...; "kubernetes.env.secretKeyRef" is
 * env:E,secret:S,key:K;...
 */
static void
conf_secrets(struct uses *u, const char *key, const char *v)
{
	const char *p, *e;

	if (strcmp(key, "kubernetes.secrets") == 0)
		for (p = v; *p != '\0'; p = *e ? e + 1 : e) {
			e = p + strcspn(p, ",");
			tl_add_part(&u->secrets, p, strcspn(p, ":,"),
			    "flinkConfiguration.kubernetes.secrets");
		}
	else if (strcmp(key, "kubernetes.env.secretKeyRef") == 0)
		for (p = v; (p = strstr(p, "secret:")) != NULL; p += 7)
			tl_add_part(&u->secrets, p + 7, strcspn(p + 7, ",;"),
			    "flinkConfiguration.kubernetes.env.secretKeyRef");
}

static int
ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && strcmp(s + n - m, tail) == 0;
}

/* flinkConfiguration: Secrets, images, accounts and endpoints it names. */
static void
conf_uses(struct uses *u, const json_t *conf)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)conf, k, v) {
		if (!json_is_string(v))
			continue;
		conf_secrets(u, k, json_string_value(v));
		if (strncmp(k, "kubernetes.", 11) == 0 && (ends_with(k,
		    ".image") || ends_with(k, "container.image.ref")))
			tl_add(&u->images, json_string_value(v),
			    "flinkConfiguration");
		if (strncmp(k, "kubernetes.", 11) == 0 &&
		    strstr(k, "service-account") != NULL)
			tl_add(&u->accounts, json_string_value(v),
			    "flinkConfiguration");
		/* s3.endpoint, fs.s3a.endpoint, ...: hosts the job contacts. */
		if (ends_with(k, ".endpoint") || strcmp(k, "endpoint") == 0)
			tl_add(&u->endpoints, json_string_value(v),
			    strcmp(k, "s3.endpoint") == 0 ? "s3.endpoint" :
			    "flinkConfiguration");
	}
}

/* Every image, account and Secret named anywhere under v. */
static void
walk(struct uses *u, const json_t *v)
{
	const char *k;
	json_t *e, *x;
	size_t i;

	if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			walk(u, e);
		return;
	}
	json_object_foreach((json_t *)v, k, e) {
		if (strcmp(k, "image") == 0)
			tl_add(&u->images, json_string_value(e),
			    "deployment.image");
		else if (strcmp(k, "serviceAccount") == 0 ||
		    strcmp(k, "serviceAccountName") == 0)
			tl_add(&u->accounts, json_string_value(e),
			    "deployment.serviceAccount");
		else if (strcmp(k, "secretRef") == 0 ||
		    strcmp(k, "secretKeyRef") == 0)
			tl_add(&u->secrets, jstr2(e, "name", NULL),
			    "deployment.secretRefs");
		else if (strcmp(k, "secret") == 0)
			tl_add(&u->secrets, jstr2(e, "secretName", NULL) ?
			    jstr2(e, "secretName", NULL) : jstr2(e, "name",
			    NULL), "deployment.secretRefs");
		else if (strcmp(k, "imagePullSecrets") == 0)
			json_array_foreach(e, i, x)
				tl_add(&u->secrets, jstr2(x, "name", NULL),
				    "deployment.secretRefs");
		else if (strcmp(k, "flinkConfiguration") == 0)
			conf_uses(u, e);
		if (json_is_object(e) || json_is_array(e))
			walk(u, e);
	}
}

static void
uses_release(struct uses *u)
{
	tl_release(&u->images);
	tl_release(&u->accounts);
	tl_release(&u->secrets);
	tl_release(&u->endpoints);
}

/*
 * A resource of the build: the kind, API version and namespace fluid
 * renders, or an error.  Returns whether it is.
 */
static int
resource_ok(const json_t *r, const char *id, const char *ns,
    const char *path, struct diags *d)
{
	const char *kind = jstr2(r, "kind", NULL), *api = jstr2(r,
	    "apiVersion", NULL), *rns = jstr2(r, "metadata", "namespace");
	const char *name = jstr2(r, "metadata", "name");

	if (kind == NULL || api == NULL || !((strcmp(kind, "ConfigMap") == 0
	    && strcmp(api, "v1") == 0) || (strcmp(kind, "FlinkDeployment") ==
	    0 && strcmp(api, "flink.apache.org/v1beta1") == 0))) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': a resource "
		    "of a kind fluid does not render: only v1 ConfigMap and "
		    "flink.apache.org/v1beta1 FlinkDeployment", id);
		return 0;
	}
	if (rns == NULL || ns == NULL || strcmp(rns, ns) != 0) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': %s %s is "
		    "not in the FlinkDeployment's namespace: fluid renders "
		    "every resource of a build in one namespace", id, kind,
		    name ? name : "(no name)");
		return 0;
	}
	return 1;
}

/* One refusal of allow_check() per error, placed at the plan. */
static void
refusals(struct allow_refusals *r, const char *path, const char *id,
    struct diags *d)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': %s: %s", id,
		    r->v[i].where, r->v[i].msg);
	allow_refusals_release(r);
	allow_refusals_init(r);
}

/*
 * The targets a build's "targets" entry tg names, into t: hosts, the
 * catalog credential, the Kafka credentials and the own SQL.  ep and
 * kv hold the lists t points at.
 */
static void
fill_job_targets(struct allow_targets *t, const json_t *tg,
    struct tlist *ep, struct tlist *kv)
{
	const char *url;
	json_t *h, *v;
	size_t j;

	t->catalog.value = jstr2(tg, "catalog", NULL);
	t->token_endpoint.value = jstr2(tg, "tokenEndpoint", NULL);
	t->catalog_auth = (struct allow_target){ jstr2(tg, "catalogAuth",
	    NULL), "catalogAuth" };
	json_array_foreach(json_object_get(tg, "hosts"), j, h) {
		if ((url = jstr2(h, "url", NULL)) == NULL)
			continue;
		if (t->catalog.value != NULL &&
		    strcmp(url, t->catalog.value) == 0)
			t->catalog.where = jstr2(h, "path", NULL);
		else if (t->token_endpoint.value != NULL &&
		    strcmp(url, t->token_endpoint.value) == 0)
			t->token_endpoint.where = jstr2(h, "path", NULL);
		else
			tl_add(ep, url, jstr2(h, "path", NULL));
	}
	if (t->catalog.where == NULL)
		t->catalog.where = "catalog";
	if (t->token_endpoint.where == NULL)
		t->token_endpoint.where = "catalogAuth.oauth2ServerUri";
	t->bootstrap_servers = (struct allow_target){ jstr2(tg,
	    "bootstrapServers", NULL), "source.bootstrapServers" };
	t->schema_registry = (struct allow_target){ jstr2(tg,
	    "schemaRegistryUrl", NULL), "source.schemaRegistryUrl" };
	t->sql = (struct allow_target){ jstr2(tg, "sql", NULL),
	    "properties.sql" };
	json_array_foreach(json_object_get(tg, "sourceSecretRefs"), j, v)
		tl_add(kv, json_string_value(v), "source.security");
}

/* The plan's "targets" entry of build id (borrowed), or NULL. */
static const json_t *
targets_of(const json_t *plan, const char *id)
{
	const json_t *t;
	const char *b;
	size_t i;

	json_array_foreach(json_object_get(plan, "targets"), i, t)
		if ((b = jstr2(t, "build", NULL)) != NULL && strcmp(b, id) == 0)
			return t;
	return NULL;
}

static void	allow_job(const json_t *, const char *, const char *,
		    const struct allow_target *, size_t, const struct allow *,
		    const char *, struct diags *);

/* One build of a plan: its resources read, then every allowlist. */
static void
allow_build(const json_t *plan, const json_t *b, const struct allow *al,
    const char *path, struct diags *d)
{
	const char *id = jstr2(b, "build", NULL), *ns, *img, *sa, *cmn, *fdn;
	const json_t *fd, *e, *r, *tg;
	struct allow_refusals rf;
	struct allow_targets t;
	struct uses u;
	struct tlist ep, kv;
	struct allow_target *hosts;
	size_t i;

	if (id == NULL)
		id = "";
	if (cfk_plan_is(b)) {
		tg = targets_of(plan, id);
		i = cfk_allow_build(plan, b, tg, al, path, d, &hosts);
		if (tg != NULL)
			allow_job(tg, jstr(plan, "product"), id, hosts, i, al,
			    path, d);
		cfk_allow_hosts_free(hosts, i);
		return;
	}
	cmn = jstr2(b, "configMap", NULL);
	fdn = jstr2(b, "flinkDeployment", NULL);
	fd = plan_resource(plan, "FlinkDeployment", fdn);
	tg = targets_of(plan, id);
	if (fd == NULL || plan_resource(plan, "ConfigMap", cmn) == NULL ||
	    tg == NULL) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s' does not name "
		    "a ConfigMap, a FlinkDeployment and targets of the plan",
		    id);
		return;
	}
	ns = jstr2(fd, "metadata", "namespace");
	img = jstr2(fd, "spec", "image");
	sa = jstr2(fd, "spec", "serviceAccount");
	memset(&u, 0, sizeof(u));
	memset(&ep, 0, sizeof(ep));
	memset(&kv, 0, sizeof(kv));
	/* Every resource of this build, whatever its place in the list. */
	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		if (r != plan_resource(plan, "ConfigMap", cmn) && r != fd)
			continue;
		if (resource_ok(r, id, ns, path, d))
			walk(&u, r);
	}
	for (i = 0; i < u.images.n; i++)
		if (img == NULL || strcmp(u.images.v[i].value, img) != 0)
			diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': "
			    "%s names an image that is not the "
			    "FlinkDeployment's spec.image: fluid renders one "
			    "image for every container", id,
			    u.images.v[i].where);
	for (i = 0; i < u.accounts.n; i++)
		if (sa == NULL || strcmp(u.accounts.v[i].value, sa) != 0)
			diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': "
			    "%s names a service account that is not the "
			    "FlinkDeployment's spec.serviceAccount", id,
			    u.accounts.v[i].where);
	memset(&t, 0, sizeof(t));
	t.context = (struct allow_target){ jstr2(b, "context", NULL),
	    "deployment.context" };
	t.ns = (struct allow_target){ ns, "deployment.namespace" };
	t.image = (struct allow_target){ img, "deployment.image" };
	t.service_account = (struct allow_target){ sa,
	    "deployment.serviceAccount" };
	t.secrets = u.secrets.v;
	t.nsecrets = u.secrets.n;
	fill_job_targets(&t, tg, &ep, &kv);
	for (i = 0; i < u.endpoints.n; i++)
		tl_add(&ep, u.endpoints.v[i].value, u.endpoints.v[i].where);
	t.endpoints = ep.v;
	t.nendpoints = ep.n;
	t.source_secrets = kv.v;
	t.nsource_secrets = kv.n;
	t.product = jstr2(plan, "product", NULL);
	t.build = id;
	allow_refusals_init(&rf);
	allow_check(al, ALLOW_CMD_APPLY, &t, &rf);
	refusals(&rf, path, id, d);
	allow_refusals_release(&rf);
	uses_release(&u);
	tl_release(&ep);
	tl_release(&kv);
}

void
plan_allow(const json_t *plan, const struct allow *al, const char *path,
    struct diags *d)
{
	const json_t *b, *e, *r;
	const char *kind, *name, *k;
	size_t i, j;
	int found;

	/* A resource of no build is written by nothing fluid checked. */
	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		kind = jstr2(r, "kind", NULL);
		name = jstr2(r, "metadata", "name");
		found = 0;
		json_array_foreach(json_object_get(plan, "builds"), j, b) {
			if (cfk_plan_is(b)) {
				found |= cfk_plan_names(b, r);
				continue;
			}
			k = kind != NULL && strcmp(kind, "ConfigMap") == 0 ?
			    "configMap" : "flinkDeployment";
			if (name != NULL && jstr2(b, k, NULL) != NULL &&
			    strcmp(jstr2(b, k, NULL), name) == 0)
				found = 1;
		}
		if (!found)
			diag_pos(d, DIAG_ERROR, path, 0, 0, "resources[%zu] is "
			    "no build's ConfigMap, FlinkDeployment, FlinkComputePool "
			    "or FlinkStatement: fluid renders nothing else", i);
	}
	json_array_foreach(json_object_get(plan, "builds"), i, b)
		allow_build(plan, b, al, path, d);
}

/*
 * The job's checks (ALLOW_CMD_GATEWAY) from a plan's "targets" entry tg
 * of build id, with extra hosts the resources name (nextra of them)
 * among the endpoints.
 */
static void
allow_job(const json_t *tg, const char *product, const char *id,
    const struct allow_target *extra, size_t nextra, const struct allow *al,
    const char *path, struct diags *d)
{
	struct allow_refusals rf;
	struct allow_targets t;
	struct tlist ep, kv;
	size_t i;

	memset(&t, 0, sizeof(t));
	memset(&ep, 0, sizeof(ep));
	memset(&kv, 0, sizeof(kv));
	fill_job_targets(&t, tg, &ep, &kv);
	for (i = 0; i < nextra; i++)
		tl_add(&ep, extra[i].value, extra[i].where);
	t.endpoints = ep.v;
	t.nendpoints = ep.n;
	t.source_secrets = kv.v;
	t.nsource_secrets = kv.n;
	t.product = product;
	t.build = id;
	allow_refusals_init(&rf);
	allow_check(al, ALLOW_CMD_GATEWAY, &t, &rf);
	refusals(&rf, path, id ? id : "", d);
	allow_refusals_release(&rf);
	tl_release(&ep);
	tl_release(&kv);
}

void
plan_allow_build(const json_t *cb, const char *product,
    const struct allow *al, const char *path, struct diags *d)
{
	const char *id = jstr(cb, "id");
	json_t *tg = k8s_targets(id, cb);

	allow_job(tg, product, id, NULL, 0, al, path, d);
	json_decref(tg);
}

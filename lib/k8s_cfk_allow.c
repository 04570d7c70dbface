/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * k8s_cfk_allow.c - the allowlists on a CFK build's resources
 * (k8s_cfk_plan.h), read from what apply writes: the resources' own
 * fields and the WITH options of each FlinkStatement's SQL, not the
 * plan's summary of them.
 */
#include <stdlib.h>
#include <string.h>

#include "k8s_cfk_plan.h"
#include "jget.h"
#include "k8s_cfk_render.h"
#include "xalloc.h"

/* The hosts the statements name, each value owned. */
struct hosts {
	struct allow_target	*v;
	size_t			 n;
};

static void
host_add(struct hosts *h, const char *s, size_t len, const char *where)
{
	h->v = xreallocarray(h->v, h->n + 1, sizeof(*h->v));
	h->v[h->n++] = (struct allow_target){ xstrndup(s, len), where };
}

/* A quoted literal at *p ('' inside): its value (new), *p past it. */
static char *
literal(const char **p, char q)
{
	struct sb s;
	const char *c = *p + 1;

	sb_init(&s);
	sb_adds(&s, "");
	for (; *c != '\0'; c++) {
		if (*c == q && c[1] == q)
			sb_addc(&s, *c++);
		else if (*c == q)
			break;
		else
			sb_addc(&s, *c);
	}
	*p = *c != '\0' ? c + 1 : c;
	return s.buf;
}

static int
ends(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && strcmp(s + n - m, tail) == 0;
}

/*
 * Every 'key' = 'value' option of sql whose key names a host: the
 * brokers of properties.bootstrap.servers (each), uri, *.url and
 * *.endpoint.  Backquoted identifiers and -- comments are skipped.
 */
static void
sql_hosts(struct hosts *h, const char *sql)
{
	const char *p = sql, *q;
	char *key, *val;
	size_t n;

	while (*p != '\0') {
		if (*p == '`') {
			free(literal(&p, '`'));
			continue;
		}
		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
			continue;
		}
		if (*p != '\'') {
			p++;
			continue;
		}
		key = literal(&p, '\'');
		for (q = p; *q == ' ' || *q == '\t' || *q == '\n'; q++)
			;
		if (*q != '=') {
			free(key);
			continue;
		}
		for (q++; *q == ' ' || *q == '\t' || *q == '\n'; q++)
			;
		if (*q != '\'') {
			free(key);
			continue;
		}
		p = q;
		val = literal(&p, '\'');
		if (strcmp(key, "properties.bootstrap.servers") == 0)
			for (q = val; *q != '\0'; q += *q ? 1 : 0) {
				n = strcspn(q, ",");
				if (n > 0)
					host_add(h, q, n, "FlinkStatement "
					    "properties.bootstrap.servers");
				q += n;
			}
		else if (strcmp(key, "uri") == 0 || ends(key, ".url") ||
		    ends(key, ".endpoint"))
			host_add(h, val, strlen(val), ends(key, "s3.endpoint") ?
			    "FlinkStatement s3.endpoint" : strcmp(key, "uri") ==
			    0 ? "FlinkStatement uri" : "FlinkStatement option");
		free(key);
		free(val);
	}
}

/*
 * Whether v is a host the targets entry tg already names (the catalog,
 * one broker of bootstrapServers, a host's url): checked there, so
 * not reported twice.
 */
static int
in_targets(const json_t *tg, const char *v)
{
	const char *bs = jstr(tg, "bootstrapServers"), *p;
	const json_t *h;
	size_t i, n = strlen(v);

	if (jstr(tg, "catalog") != NULL && strcmp(jstr(tg, "catalog"), v) == 0)
		return 1;
	json_array_foreach(json_object_get(tg, "hosts"), i, h)
		if (jstr(h, "url") != NULL && strcmp(jstr(h, "url"), v) == 0)
			return 1;
	for (p = bs; p != NULL && *p != '\0'; p += *p ? 1 : 0) {
		if (strcspn(p, ",") == n && strncmp(p, v, n) == 0)
			return 1;
		p += strcspn(p, ",");
	}
	return 0;
}

/* One refusal of an allowlist, placed at the plan. */
static void
refuse(const char *path, const char *id, const char *where, char *why,
    struct diags *d)
{
	diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': %s: %s", id, where,
	    why);
	free(why);
}

/* A resource of the build: the kind and namespace fluid renders. */
static int
resource_ok(const json_t *r, const char *id, const char *ns,
    const char *path, struct diags *d)
{
	const char *kind = jstr(r, "kind"), *api = jstr(r, "apiVersion");
	const char *rns = jstr(json_object_get(r, "metadata"), "namespace");

	if (kind == NULL || api == NULL || strcmp(api, CFK_API_VERSION) != 0 ||
	    (strcmp(kind, "FlinkComputePool") != 0 && strcmp(kind,
	    "FlinkStatement") != 0)) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': a resource "
		    "of a kind fluid does not render for CFK: only "
		    CFK_API_VERSION " FlinkComputePool and FlinkStatement", id);
		return 0;
	}
	if (rns == NULL || ns == NULL || strcmp(rns, ns) != 0) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': %s is not in "
		    "the build's namespace: fluid renders every resource of a "
		    "build in one namespace", id, kind);
		return 0;
	}
	return 1;
}

/*
 * What a resource of the build runs under, each distinct value checked
 * once: its FlinkEnvironment, its CMFRestClass, and, for a statement of
 * a build that renders no pool, the existing pool it runs on.
 */
struct runs_under {
	const char	*env, *rc_ns, *rc, *pool;
};

static void
check_under(const json_t *r, const char *id, const char *ns, int own_pool,
    const struct allow *al, const char *path, struct runs_under *seen,
    struct diags *d)
{
	const json_t *spec = json_object_get(r, "spec");
	const json_t *rc = json_object_get(spec, "cmfRestClassRef");
	const char *env = jstr(spec, "flinkEnvironment");
	const char *rcn = jstr(rc, "name"), *rcns = jstr(rc, "namespace");
	const char *pool = jstr(spec, "computePoolName");
	char *why = NULL;

	if (rcns == NULL)
		rcns = ns;
	if (env == NULL || rcn == NULL)
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': a resource "
		    "names no FlinkEnvironment or CMFRestClass: fluid checks "
		    "what CMF runs it under and does not guess it", id);
	if (env != NULL && !jstreq(env, seen->env)) {
		seen->env = env;
		if (!allow_cfk(al, ALLOW_CFK_ENVIRONMENT, ns, env, &why))
			refuse(path, id, "deployment.flinkEnvironment", why, d);
	}
	if (rcn != NULL && !(jstreq(rcn, seen->rc) && jstreq(rcns,
	    seen->rc_ns))) {
		seen->rc = rcn;
		seen->rc_ns = rcns;
		if (!allow_cfk(al, ALLOW_CFK_REST_CLASS, rcns, rcn, &why))
			refuse(path, id, "deployment.cmfRestClassRef", why, d);
	}
	/* A pool fluid renders is checked by its image instead. */
	if (!own_pool && pool != NULL && !jstreq(pool, seen->pool)) {
		seen->pool = pool;
		if (!allow_cfk(al, ALLOW_CFK_COMPUTE_POOL, ns, pool, &why))
			refuse(path, id, "deployment.computePool.name", why, d);
	}
}

size_t
cfk_allow_build(const json_t *plan, const json_t *b, const json_t *tg,
    const struct allow *al, const char *path, struct diags *d,
    struct allow_target **hosts)
{
	const char *id = jstr(b, "build"), *ns = jstr(b, "namespace");
	const char *ctx = jstr(b, "context"), *img, *kind;
	const json_t *e, *r;
	struct hosts h = { NULL, 0 };
	struct runs_under seen = { NULL, NULL, NULL, NULL };
	char *why = NULL;
	size_t i, n = 0;

	if (id == NULL)
		id = "";
	*hosts = NULL;
	if (tg == NULL || json_array_size(json_object_get(b,
	    "statements")) != 3) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s' does not name "
		    "three FlinkStatements and targets of the plan", id);
		return 0;
	}
	if (ctx == NULL || ns == NULL)
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': the kube "
		    "context or namespace is not known: fluid checks what "
		    "Kubernetes will use and does not guess it", id);
	if (ctx != NULL && !allow_kube_context(al, ctx, &why))
		refuse(path, id, "deployment.context", why, d);
	if (ns != NULL && !allow_namespace(al, ns, &why))
		refuse(path, id, "deployment.namespace", why, d);
	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		if (!cfk_plan_names(b, r))
			continue;
		n++;
		if (!resource_ok(r, id, ns, path, d))
			continue;
		check_under(r, id, ns, jstr(b, "computePool") != NULL, al,
		    path, &seen, d);
		kind = jstr(r, "kind");
		if (strcmp(kind, "FlinkComputePool") == 0) {
			img = jstr(json_object_get(json_object_get(r, "spec"),
			    "clusterSpec"), "image");
			if (img == NULL)
				diag_pos(d, DIAG_ERROR, path, 0, 0, "build "
				    "'%s': the compute pool names no image", id);
			else if (!allow_image(al, img, &why))
				refuse(path, id, "deployment.computePool.image",
				    why, d);
		} else
			sql_hosts(&h, jstr(json_object_get(r, "spec"),
			    "statement"));
	}
	if (n != json_array_size(json_object_get(b, "statements")) +
	    (jstr(b, "computePool") != NULL))
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s' names a "
		    "resource the plan does not hold", id);
	for (i = n = 0; i < h.n; i++)
		if (in_targets(tg, h.v[i].value))
			free((char *)h.v[i].value);
		else
			h.v[n++] = h.v[i];
	*hosts = h.v;
	return n;
}

void
cfk_allow_hosts_free(struct allow_target *hosts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free((char *)hosts[i].value);
	free(hosts);
}

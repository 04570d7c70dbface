/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * k8s_cfk_render.c - FlinkComputePool and FlinkStatements of a CFK
 * build (k8s_cfk_render.h; fluid-k8s(1), CFK TARGET, says why each
 * field is set).
 *
 * The sqlgen entry is not trusted: its statements must be exactly the
 * script its digest is of, in the order source, sink, insert, and each
 * statement's digest is computed here.  The deployment is checked again
 * for what the API server or CMF would refuse.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k8s_cfk_render.h"
#include "digest.h"
#include "imageref.h"
#include "jget.h"
#include "k8s.h"
#include "scale.h"
#include "xalloc.h"

struct cr {
	const json_t	*cb, *dep, *pool;
	const char	*build, *product, *bundle, *ptr;
	const char	*name, *ns, *env, *pool_name, *state;
	json_int_t	 parallelism, max_parallelism;
	const char	*idle;		/* scale_idle_timeout(), or NULL */
	struct diags	*d;
	int		 bad;
};

static void __attribute__((format(printf, 3, 4)))
cr_err(struct cr *r, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *msg, *at = NULL;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (r->ptr != NULL)
		at = key != NULL ? xasprintf("%s/%s", r->ptr, key) :
		    xstrdup(r->ptr);
	diag_at(r->d, DIAG_ERROR, at, "Flink build %s: %s", r->build, msg);
	free(at);
	free(msg);
	r->bad = 1;
}

/* A CMF name: at most max of a-z, 0-9, '-', a letter first, no '-' last. */
static int
cmf_name(const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0, i;

	if (n == 0 || n > max || !(s[0] >= 'a' && s[0] <= 'z') ||
	    s[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

static void
deployment(struct cr *r)
{
	const json_t *rc = json_object_get(r->dep, "cmfRestClassRef"), *v;
	static const char *const tm[] = { "jobManager", "taskManager" };
	struct scale sc;
	const char *t;
	size_t i;

	r->name = jstr(r->dep, "name");
	if ((t = scale_read(r->dep, &sc)) != NULL)
		cr_err(r, t, "deployment.%s is not a value fluid-check "
		    "accepts (fluid-check(1), SCALING)", t);
	else {
		r->parallelism = sc.parallelism;
		r->max_parallelism = sc.max_parallelism;
		r->idle = scale_idle_timeout(&sc);
		scale_release(&sc);
	}
	r->ns = jstr(r->dep, "namespace");
	r->env = jstr(r->dep, "flinkEnvironment");
	r->state = jstr(r->dep, "state");
	r->pool = json_object_get(r->dep, "computePool");
	r->pool_name = jstr(r->pool, "name");
	if (!cmf_name(r->name, CFK_NAME_MAX - 5 - CFK_NAME_HEX))
		cr_err(r, "name", "deployment name must be at most %d of a-z, "
		    "0-9 and '-', starting with a letter (FlinkStatement "
		    "names are <name>-<src|snk|ins>-<%d hex>, at most %d "
		    "characters)", CFK_NAME_MAX - 5 - CFK_NAME_HEX,
		    CFK_NAME_HEX, CFK_NAME_MAX);
	if (!k8s_dns_label(r->ns, 63))
		cr_err(r, "namespace", "namespace must be a DNS-1123 label");
	if (!cmf_name(r->env, CFK_NAME_MAX))
		cr_err(r, "flinkEnvironment", "flinkEnvironment must be a CMF "
		    "name");
	if (!cmf_name(r->pool_name, CFK_NAME_MAX))
		cr_err(r, "computePool/name", "computePool.name must be a CMF "
		    "name");
	if (r->state == NULL || (strcmp(r->state, "running") != 0 &&
	    strcmp(r->state, "suspended") != 0))
		cr_err(r, "state", "state must be running or suspended");
	if (!k8s_dns_subdomain(jstr(rc, "name"), 253) || (json_object_get(rc,
	    "namespace") != NULL && !k8s_dns_label(jstr(rc, "namespace"),
	    63)))
		cr_err(r, "cmfRestClassRef", "cmfRestClassRef must name a "
		    "CMFRestClass (name, and optionally its namespace)");
	if (!k8s_label_value(r->build) || !k8s_label_value(r->product))
		cr_err(r, NULL, "build id '%s' and product id '%s' must be "
		    "label values (at most 63 of A-Z, a-z, 0-9, '.', '_', "
		    "'-', alphanumeric at both ends)", r->build, r->product);
	if (json_object_get(r->pool, "render") != json_true())
		return;
	t = jstr(r->pool, "type");
	if (t == NULL || (strcmp(t, "DEDICATED") != 0 &&
	    strcmp(t, "SHARED") != 0))
		cr_err(r, "computePool/type", "computePool.type must be "
		    "DEDICATED or SHARED");
	if (jstr(r->pool, "flinkVersion") == NULL)
		cr_err(r, "computePool/flinkVersion", "computePool."
		    "flinkVersion is missing");
	if (!imageref_pinned(jstr(r->pool, "image")))
		cr_err(r, "computePool/image", "computePool.image must be "
		    "pinned by digest (repository@sha256:<64 hex digits>)");
	for (i = 0; i < 2; i++) {
		v = json_object_get(r->pool, tm[i]);
		if (jstr(v, "memory") == NULL || !json_is_number(json_object_get(
		    v, "cpu")))
			cr_err(r, "computePool", "computePool.%s needs memory "
			    "and cpu", tm[i]);
	}
}

static json_t *
labels(const struct cr *r)
{
	return json_pack("{s:s, s:s, s:s}", K8S_LABEL_NAME, r->product,
	    K8S_LABEL_BUILD, r->build, K8S_LABEL_MANAGED_BY, K8S_MANAGER);
}

static json_t *
rest_ref(const struct cr *r)
{
	const json_t *rc = json_object_get(r->dep, "cmfRestClassRef");

	return json_pack("{s:s, s:s?}", "name", jstr(rc, "name"), "namespace",
	    jstr(rc, "namespace"));
}

static json_t *
resource(const json_t *v)
{
	return json_pack("{s:{s:s, s:O}}", "resource", "memory", jstr(v,
	    "memory"), "cpu", json_object_get(v, "cpu"));
}

static json_t *
compute_pool(const struct cr *r)
{
	return json_pack("{s:s, s:s, s:{s:s, s:s, s:o}, s:{s:s, s:s, "
	    "s:{s:s, s:s, s:o, s:o}, s:o}}",
	    "apiVersion", CFK_API_VERSION, "kind", "FlinkComputePool",
	    "metadata", "name", r->pool_name, "namespace", r->ns,
	    "labels", labels(r),
	    "spec", "type", jstr(r->pool, "type"), "flinkEnvironment", r->env,
	    "clusterSpec", "flinkVersion", jstr(r->pool, "flinkVersion"),
	    "image", jstr(r->pool, "image"),
	    "jobManager", resource(json_object_get(r->pool, "jobManager")),
	    "taskManager", resource(json_object_get(r->pool, "taskManager")),
	    "cmfRestClassRef", rest_ref(r));
}

static const char *
role_abbrev(const char *role)
{
	if (strcmp(role, "source") == 0)
		return "src";
	if (strcmp(role, "sink") == 0)
		return "snk";
	return "ins";
}

static json_t *
statement(const struct cr *r, const char *role, const char *sql)
{
	char d[DIGEST_STRLEN], *name, maxp[32];
	json_t *s, *spec, *conf;

	digest_bytes(sql, strlen(sql), d);
	name = xasprintf("%s-%s-%.*s", r->name, role_abbrev(role),
	    CFK_NAME_HEX, d + 7);
	s = json_pack("{s:s, s:s, s:{s:s, s:s, s:o, s:{s:s, s:s, s:s}}, "
	    "s:{s:s, s:s, s:s, s:o}}",
	    "apiVersion", CFK_API_VERSION, "kind", "FlinkStatement",
	    "metadata", "name", name, "namespace", r->ns, "labels", labels(r),
	    "annotations", K8S_ANN_BUNDLE, r->bundle, K8S_ANN_SQL, d,
	    "fluid.dev/statement-role", role,
	    "spec", "flinkEnvironment", r->env, "computePoolName",
	    r->pool_name, "statement", sql, "cmfRestClassRef", rest_ref(r));
	spec = json_object_get(s, "spec");
	if (strcmp(role, "insert") == 0) {
		/*
		 * CMF refuses a streaming INSERT without checkpointing.  The
		 * key groups are pinned as on the operator target, so that a
		 * later spec.parallelism still restores the statement's state.
		 */
		conf = json_pack("{s:s}", "execution.checkpointing.interval",
		    CFK_CHECKPOINT_INTERVAL);
		snprintf(maxp, sizeof(maxp), "%lld",
		    (long long)r->max_parallelism);
		json_object_set_new(conf, "pipeline.max-parallelism",
		    json_string(maxp));
		if (r->idle != NULL)
			json_object_set_new(conf,
			    "table.exec.source.idle-timeout",
			    json_string(r->idle));
		json_object_set_new(spec, "flinkConfiguration", conf);
		json_object_set_new(spec, "parallelism",
		    json_integer(r->parallelism));
		if (strcmp(r->state, "suspended") == 0)
			json_object_set_new(spec, "stopped", json_true());
	}
	free(name);
	return s;
}

json_t *
cfk_render(const json_t *e, const json_t *cb, const char *bundle,
    const char *ptr, struct diags *d)
{
	static const char *const roles[] = { "source", "sink", "insert" };
	const json_t *sts = json_object_get(e, "statements"), *s;
	const char *sql = jstr(e, "sql"), *text;
	struct cr r;
	struct sb joined;
	json_t *out;
	size_t i;

	memset(&r, 0, sizeof(r));
	r.cb = cb;
	r.d = d;
	r.ptr = ptr;
	r.bundle = bundle;
	r.build = jstr(e, "build");
	r.product = jstr(cb, "product") ? jstr(cb, "product") : "";
	r.dep = json_object_get(cb, "deployment");
	/* The statements are the script the digest is of, in order. */
	sb_init(&joined);
	if (!json_is_array(sts) || json_array_size(sts) != 3)
		r.bad = 1;
	json_array_foreach(sts, i, s) {
		text = jstr(s, "sql");
		if (i >= 3 || text == NULL || jstr(s, "role") == NULL ||
		    strcmp(jstr(s, "role"), roles[i]) != 0) {
			r.bad = 1;
			break;
		}
		if (i > 0)
			sb_addc(&joined, '\n');
		sb_adds(&joined, text);
	}
	if (r.bad || sql == NULL || strcmp(joined.buf, sql) != 0) {
		sb_release(&joined);
		diag_fatal(d, "build '%s': the sqlgen section's statements are "
		    "not its script (source, sink and insert, in order): run "
		    "fluid-sqlgen again", r.build ? r.build : "?");
		return NULL;
	}
	sb_release(&joined);
	deployment(&r);
	if (r.bad)
		return NULL;
	out = json_array();
	if (json_object_get(r.pool, "render") == json_true())
		json_array_append_new(out, compute_pool(&r));
	json_array_foreach(sts, i, s)
		json_array_append_new(out, statement(&r, jstr(s, "role"),
		    jstr(s, "sql")));
	return out;
}

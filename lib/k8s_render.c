/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * k8s_render.c - the ConfigMap and the FlinkDeployment of each managed
 * build (see k8s.h; fluid-k8s(1) says why each field is set).
 *
 * Everything comes from the check and sqlgen sections; nothing is
 * read from the environment, so the same document renders the same
 * bytes anywhere.  The IR holds no credential value, only the names of
 * the Secrets (envFrom) and of the variables the catalog reads, which
 * stay inside the SQL the checker wrote; none is added here.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "k8s_cfk_render.h"
#include "digest.h"
#include "imageref.h"
#include "ir.h"
#include "jget.h"
#include "k8s.h"
#include "scale.h"
#include "xalloc.h"

/* Hex digits of the SQL digest in the ConfigMap's name. */
#define CM_HEX	12

/*
 * The Iceberg sink commits on each completed checkpoint, so the
 * interval is how stale the table may be.  A minute is Iceberg's and
 * the operator's usual value: fresh enough for fluid verify to see a
 * commit within its default 120 s wait, and few enough commits that the
 * table does not fill with small files and snapshots.
 */
#define CHECKPOINT_INTERVAL	"60s"

char *
k8s_table_text(const json_t *b)
{
	json_t *t = json_object_get(b, "table"), *spec;
	char *text;

	spec = json_pack("{s:O, s:O, s:O, s:O, s:O, s:O}", "namespace",
	    json_object_get(t, "namespace"), "name", json_object_get(t,
	    "name"), "columns", json_object_get(t, "columns"), "partitionBy",
	    json_object_get(t, "partitionBy"), "formatVersion",
	    json_object_get(t, "formatVersion"), "fileFormat",
	    json_object_get(t, "fileFormat"));
	if (spec == NULL)
		return NULL;
	/* An upsert table's identifier fields, for the runner to compare. */
	if (json_is_array(json_object_get(t, "primaryKey")))
		json_object_set(spec, "primaryKey", json_object_get(t,
		    "primaryKey"));
	text = jtext(spec, 0);
	json_decref(spec);
	return text;
}

/* What one build is rendered from, checked. */
struct src {
	const char	*build, *product, *sql, *sql_digest, *bundle;
	const char	*name, *ns, *sa, *image, *state;
	const char	*uri[3];	/* checkpoint, savepoint, HA */
	const char	*endpoint;	/* stateEndpoint, or NULL */
	const json_t	*secrets;
	char		*env_allow;	/* "A,B": the pod variables bound, or NULL */
	char		*ptr;		/* the contract's deployment, or NULL */
	struct scale	 sc;		/* its sizing, with the defaults */
	bool		 sc_read;	/* sc holds references */
	struct diags	*d;
	int		 bad;
};

/* An error about the deployment's key (NULL: the build itself). */
static void __attribute__((format(printf, 3, 4)))
src_err(struct src *s, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *msg, *at = NULL;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (s->ptr != NULL)
		at = key != NULL ? xasprintf("%s/%s", s->ptr, key) :
		    xstrdup(s->ptr);
	diag_at(s->d, DIAG_ERROR, at, "Flink build %s: %s", s->build, msg);
	free(at);
	free(msg);
	s->bad = 1;
}

/* A string field of the deployment, or "" (and an error) if missing. */
static const char *
dep_str(struct src *s, const json_t *dep, const char *key)
{
	const char *v = json_string_value(json_object_get(dep, key));

	if (v == NULL || *v == '\0') {
		src_err(s, key, "deployment.%s is missing", key);
		return "";
	}
	return v;
}

/*
 * The contract's pointer to the build with this id's deployment, for
 * placing diagnostics: the checked IR keeps ids, not positions.
 */
static char *
deployment_ptr(json_t *doc, const char *id)
{
	json_t *builds = json_object_get(json_object_get(ir_section(doc,
	    "resolve"), "document"), "builds"), *b;
	const char *bid;
	size_t i;

	json_array_foreach(builds, i, b) {
		bid = json_string_value(json_object_get(b, "id"));
		if (bid != NULL && strcmp(bid, id) == 0)
			return xasprintf("/builds/%zu/properties/parameters/"
			    "flink/deployment", i);
	}
	return NULL;
}

/*
 * The IR's stateEndpoint is not trusted: what fluid-check accepts, in
 * the form it writes (see fluid-check(1)).  A fuller check is the
 * checker's; here, enough that no credential, path or other scheme
 * reaches flinkConfiguration.
 */
static int
state_endpoint_ok(const char *e)
{
	const char *h;
	size_t i;

	if (e == NULL)
		return 0;
	if (strncmp(e, "https://", 8) == 0)
		h = e + 8;
	else if (strncmp(e, "http://", 7) == 0)
		h = e + 7;
	else
		return 0;
	if (*h == '\0')
		return 0;
	for (i = 0; h[i] != '\0'; i++)
		if (!((h[i] >= 'a' && h[i] <= 'z') || (h[i] >= '0' &&
		    h[i] <= '9') || h[i] == '-' || h[i] == '.' ||
		    h[i] == ':' || h[i] == '[' || h[i] == ']'))
			return 0;
	return 1;
}

static void
src_check(struct src *s, const json_t *dep)
{
	static const char *const uris[] = { "checkpointUri", "savepointUri",
	    "haUri" };
	const json_t *r;
	const char *why;
	size_t i;

	s->name = dep_str(s, dep, "name");
	s->ns = dep_str(s, dep, "namespace");
	s->sa = dep_str(s, dep, "serviceAccount");
	s->image = dep_str(s, dep, "image");
	s->state = dep_str(s, dep, "state");
	for (i = 0; i < 3; i++)
		s->uri[i] = dep_str(s, dep, uris[i]);
	s->secrets = json_object_get(dep, "secretRefs");
	s->endpoint = json_string_value(json_object_get(dep, "stateEndpoint"));
	if ((why = scale_read(dep, &s->sc)) != NULL)
		src_err(s, why, "deployment.%s is not a value fluid-check "
		    "accepts (fluid-check(1), SCALING)", why);
	else
		s->sc_read = true;
	if (s->bad)
		return;
	if (json_object_get(dep, "stateEndpoint") != NULL &&
	    !state_endpoint_ok(s->endpoint))
		src_err(s, "stateEndpoint", "stateEndpoint must be "
		    "scheme://host[:port], https or http to loopback or a "
		    "cluster name, without credentials, as fluid-check writes "
		    "it");
	/* The operator names the job's Services after it: RFC 1035. */
	if (!k8s_dns_label(s->name, 45) || !(s->name[0] >= 'a' &&
	    s->name[0] <= 'z'))
		src_err(s, "name", "deployment name '%s' must be a DNS-1035 "
		    "label of at most 45 characters (a-z, 0-9, '-', starting "
		    "with a letter): the operator names Services after it",
		    s->name);
	if (!k8s_dns_label(s->ns, 63))
		src_err(s, "namespace", "namespace '%s' must be a DNS-1123 "
		    "label (a-z, 0-9, '-', at most 63 characters)", s->ns);
	if (!k8s_dns_subdomain(s->sa, 253))
		src_err(s, "serviceAccount", "service account '%s' must be a "
		    "DNS-1123 subdomain", s->sa);
	if (!imageref_pinned(s->image))
		src_err(s, "image", "image '%s' must be pinned by digest "
		    "(repository@sha256:<64 hex digits>)", s->image);
	if (strcmp(s->state, "running") != 0 &&
	    strcmp(s->state, "suspended") != 0)
		src_err(s, "state", "state '%s' must be running or suspended",
		    s->state);
	if (s->secrets != NULL && !json_is_array(s->secrets))
		src_err(s, "secretRefs", "secretRefs must be a list");
	json_array_foreach(s->secrets, i, r)
		if (!json_is_string(r) ||
		    !k8s_dns_subdomain(json_string_value(r), 253)) {
			char *k = xasprintf("secretRefs/%zu", i);

			src_err(s, k, "secretRefs[%zu] must name a Secret (a "
			    "DNS-1123 subdomain)", i);
			free(k);
		}
	if (!k8s_label_value(s->build))
		src_err(s, NULL, "build id '%s' cannot be the value of label "
		    K8S_LABEL_BUILD " (at most 63 of A-Z, a-z, 0-9, '.', "
		    "'_', '-', alphanumeric at both ends)", s->build);
	else if (!k8s_configmap_key(s->build))
		src_err(s, NULL, "build id '%s' cannot name a ConfigMap key",
		    s->build);
	if (!k8s_label_value(s->product))
		src_err(s, NULL, "product id '%s' cannot be the value of label "
		    K8S_LABEL_NAME " (at most 63 of A-Z, a-z, 0-9, '.', '_', "
		    "'-', alphanumeric at both ends)", s->product);
}

static json_t *
labels(const struct src *s)
{
	return json_pack("{s:s, s:s, s:s}", K8S_LABEL_NAME, s->product,
	    K8S_LABEL_BUILD, s->build, K8S_LABEL_MANAGED_BY, K8S_MANAGER);
}

static json_t *
configmap(const struct src *s, const char *cm, const char *table)
{
	char *sqlkey = xasprintf("%s.sql", s->build);
	char *tabkey = xasprintf("%s.table.json", s->build);
	json_t *r;

	r = json_pack("{s:s, s:s, s:{s:s, s:s, s:o, s:{s:s}}, s:b, s:{s:s, "
	    "s:s}}", "apiVersion", "v1", "kind", "ConfigMap", "metadata",
	    "name", cm, "namespace", s->ns, "labels", labels(s),
	    "annotations", K8S_ANN_SQL, s->sql_digest, "immutable", 1,
	    "data", sqlkey, s->sql, tabkey, table);
	free(sqlkey);
	free(tabkey);
	return r;
}

/*
 * The pod template both the JobManager and the TaskManagers start
 * from: the Secrets as environment (the catalog's token variable and
 * the object store's credentials come from them, in the pod), and the
 * ConfigMap as the runner's two files.  The container must be named
 * flink-main-container for the operator to merge it.
 */
static json_t *
pod_template(const struct src *s, const char *cm)
{
	json_t *env = json_array(), *r;
	size_t i;

	json_array_foreach(s->secrets, i, r)
		json_array_append_new(env, json_pack("{s:{s:O}}",
		    "secretRef", "name", r));
	return json_pack("{s:{s:[{s:s, s:o, s:[{s:s, s:s, s:b}]}], "
	    "s:[{s:s, s:{s:s}}]}}", "spec", "containers", "name",
	    "flink-main-container", "envFrom", env, "volumeMounts", "name",
	    "fluid-sql", "mountPath", K8S_SQL_DIR, "readOnly", 1, "volumes",
	    "name", "fluid-sql", "configMap", "name", cm);
}

/*
 * flinkConfiguration: flat, every value a string (the 1.10 CRD types
 * it map<string, string>).  Checkpointing on, exactly once, and kept
 * when the job is cancelled; the dedicated locations of the contract;
 * Kubernetes HA, which the operator needs to restore a job whose
 * savepoint upgrade fell back on its last checkpoint.
 */
static json_t *
flink_conf(const struct src *s)
{
	json_t *c;

	c = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
	    "execution.checkpointing.interval", CHECKPOINT_INTERVAL,
	    "execution.checkpointing.mode", "EXACTLY_ONCE",
	    "execution.checkpointing.externalized-checkpoint-retention",
	    "RETAIN_ON_CANCELLATION",
	    "execution.checkpointing.dir", s->uri[0],
	    "execution.checkpointing.savepoint-dir", s->uri[1],
	    "high-availability.type", "kubernetes",
	    "high-availability.storageDir", s->uri[2]);
	/* An S3-compatible service for the state: its host, path-style. */
	if (s->endpoint != NULL) {
		json_object_set_new(c, "s3.endpoint", json_string(s->endpoint));
		json_object_set_new(c, "s3.path.style.access",
		    json_string("true"));
	}
	scale_flink_conf(&s->sc, c);
	return c;
}

/*
 * The runner's arguments: the pod variables the build binds (env_allow()),
 * as "--env-allow A,B",
 * sorted, when there are any; then the script and the table file.  The
 * runner resolves only these, never one the script names
 * (tools/flink-runner/README.md).
 */
static json_t *
job_args(const struct src *s)
{
	char *script = xasprintf(K8S_SQL_DIR "/%s.sql", s->build);
	char *table = xasprintf(K8S_SQL_DIR "/%s.table.json", s->build);
	json_t *a = json_array();

	if (s->env_allow != NULL) {
		json_array_append_new(a, json_string("--env-allow"));
		json_array_append_new(a, json_string(s->env_allow));
	}
	json_array_append_new(a, json_string(script));
	json_array_append_new(a, json_string(table));
	free(script);
	free(table);
	return a;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * "A,B" of the pod variables a checked build binds, sorted and once
 * each, or NULL: the Kafka credential variables of source.security and
 * the catalog's tokenEnv or credentialEnv (the script's env:NAME, which
 * the runner checks against the same list).
 */
static char *
env_allow(const json_t *cb)
{
	const json_t *vars = json_object_get(json_object_get(json_object_get(
	    json_object_get(cb, "stream"), "source"), "security"), "variables");
	const json_t *auth = json_object_get(json_object_get(json_object_get(
	    cb, "table"), "catalog"), "auth");
	static const char *const auth_keys[] = { "tokenEnv", "credentialEnv" };
	const char **v;
	struct sb out;
	size_t i, n = 0;
	json_t *e;

	v = xcalloc(json_array_size(vars) + 2, sizeof(*v));
	json_array_foreach(vars, i, e)
		if (json_is_string(e))
			v[n++] = json_string_value(e);
	for (i = 0; i < 2; i++)
		if (json_is_string(json_object_get(auth, auth_keys[i])))
			v[n++] = json_string_value(json_object_get(auth,
			    auth_keys[i]));
	if (n == 0) {
		free(v);
		return NULL;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	sb_init(&out);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(v[i], v[i - 1]) == 0)
			continue;
		if (out.len > 0)
			sb_addc(&out, ',');
		sb_adds(&out, v[i]);
	}
	free(v);
	if (out.len == 0) {
		sb_release(&out);
		return NULL;
	}
	return out.buf;
}

static json_t *
flink_deployment(const struct src *s, const char *cm)
{
	json_t *r;

	r = json_pack("{s:s, s:s, s:{s:s, s:s, s:o, s:{s:s, s:s}}, "
	    "s:{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:{s:o}, "
	    "s:{s:o}, s:{s:s, s:s, s:o, s:I, s:s, s:s}}}",
	    "apiVersion", "flink.apache.org/v1beta1",
	    "kind", "FlinkDeployment",
	    "metadata", "name", s->name, "namespace", s->ns,
	    "labels", labels(s),
	    "annotations", K8S_ANN_BUNDLE, s->bundle, K8S_ANN_SQL,
	    s->sql_digest,
	    "spec", "image", s->image, "imagePullPolicy", "IfNotPresent",
	    "flinkVersion", "v1_20", "serviceAccount", s->sa,
	    "mode", "native",
	    "flinkConfiguration", flink_conf(s),
	    "podTemplate", pod_template(s, cm),
	    "jobManager", "resource", scale_resource(&s->sc.jm),
	    "taskManager", "resource", scale_resource(&s->sc.tm),
	    "job", "jarURI", K8S_RUNNER_JAR, "entryClass", K8S_RUNNER_CLASS,
	    "args", job_args(s), "parallelism", (json_int_t)s->sc.parallelism,
	    "upgradeMode", "savepoint", "state", s->state);
	return r;
}

/* One sqlgen entry's resources, or NULL after an error in d. */
static json_t *
render_one(json_t *doc, const json_t *e, const char *bundle,
    struct diags *d)
{
	struct src s;
	json_t *cb, *out = NULL;
	char digest[DIGEST_STRLEN], *cm = NULL, *table = NULL;

	memset(&s, 0, sizeof(s));
	s.d = d;
	s.bundle = bundle;
	s.build = json_string_value(json_object_get(e, "build"));
	s.sql = json_string_value(json_object_get(e, "sql"));
	s.sql_digest = json_string_value(json_object_get(e, "digest"));
	if (s.build == NULL || s.sql == NULL || s.sql_digest == NULL) {
		diag_fatal(d, "the sqlgen section has a build without "
		    "build, sql and digest strings: run fluid-sqlgen first");
		return NULL;
	}
	digest_bytes(s.sql, strlen(s.sql), digest);
	if (strcmp(digest, s.sql_digest) != 0) {
		diag_fatal(d, "build '%s': the sqlgen section's digest is not "
		    "its script's", s.build);
		return NULL;
	}
	if ((cb = ir_check_build(doc, s.build)) == NULL) {
		diag_fatal(d, "build '%s' is in the sqlgen section but not in "
		    "the check section", s.build);
		return NULL;
	}
	s.product = json_string_value(json_object_get(cb, "product"));
	if (s.product == NULL)
		s.product = "";
	s.ptr = deployment_ptr(doc, s.build);
	if (cfk_render_target(cb)) {
		/* The CFK target's resources (k8s_cfk_render.h). */
		out = cfk_render(e, cb, bundle, s.ptr, d);
		free(s.ptr);
		return out;
	}
	src_check(&s, json_object_get(cb, "deployment"));
	s.env_allow = env_allow(cb);
	if (!s.bad && (table = k8s_table_text(cb)) == NULL)
		diag_fatal(d, "build '%s': cannot write its table file",
		    s.build);
	else if (!s.bad) {
		cm = xasprintf("%s-sql-%.*s", s.name, CM_HEX, digest + 7);
		out = json_pack("[o, o]", configmap(&s, cm, table),
		    flink_deployment(&s, cm));
	}
	free(cm);
	free(table);
	free(s.ptr);
	free(s.env_allow);
	if (s.sc_read)
		scale_release(&s.sc);
	return out;
}

json_t *
k8s_render(json_t *doc, struct diags *d)
{
	json_t *built = json_object_get(ir_section(doc, "sqlgen"), "builds");
	json_t *out = json_array(), *e, *res;
	const char *bundle;
	size_t i;
	int bad = 0;

	bundle = json_string_value(json_object_get(ir_section(doc, "resolve"),
	    "digest"));
	if (bundle == NULL || !json_is_array(built)) {
		diag_fatal(d, "the document has no bundle digest or no sqlgen "
		    "builds: run fluid-resolve | fluid-check | fluid-sqlgen "
		    "first");
		json_decref(out);
		return NULL;
	}
	json_array_foreach(built, i, e) {
		if ((res = render_one(doc, e, bundle, d)) == NULL) {
			bad = 1;
			continue;
		}
		json_array_append_new(out, json_pack("{s:O, s:o}", "build",
		    json_object_get(e, "build"), "resources", res));
	}
	if (bad) {
		json_decref(out);
		return NULL;
	}
	return json_pack("{s:o}", "builds", out);
}

json_t *
k8s_list(const json_t *section)
{
	json_t *items = json_array(), *b, *r;
	size_t i, j;

	json_array_foreach(json_object_get(section, "builds"), i, b)
		json_array_foreach(json_object_get(b, "resources"), j, r)
			json_array_append(items, r);
	return json_pack("{s:s, s:s, s:o}", "apiVersion", "v1", "kind",
	    "List", "items", items);
}

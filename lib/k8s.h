/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * k8s.h - the Kubernetes resources of a managed build, and the plan
 * that binds them, made offline from the pipeline document.
 *
 * This is the rendering half of fluid-k8s; the half that runs kubectl
 * is kube_ (kube.h).  The two are apart so that rendering and planning
 * obey the rule of fluid.h for renderers: nothing here includes kube.h
 * or net.h or calls a network or process function, and
 * tests/bats/layout.bats checks it on the sources and the objects, as
 * it does for sqlgen.c.  fluid generate, fluid plan and fluid-k8s
 * render call it; none of them can contact a cluster.
 *
 * Per build (k8s_render.c):
 *
 *	ConfigMap	<deployment>-sql-<12 hex of the SQL digest>,
 *			immutable, data: <build>.sql, <build>.table.json
 *	FlinkDeployment	<deployment>, flink.apache.org/v1beta1
 *
 * A changed script is a ConfigMap of another name, never an edit of an
 * immutable one; the FlinkDeployment names it in its volume, so a new
 * script is a changed spec, which the operator upgrades by savepoint.
 * fluid-k8s(1) lists every field and why it is set.
 */
#ifndef FLUID_K8S_H
#define FLUID_K8S_H

#include <jansson.h>

#include "diag.h"
#include "digest.h"

/* Labels and annotations fluid sets, and owns, on every resource. */
#define K8S_LABEL_NAME		"app.kubernetes.io/name"
#define K8S_LABEL_MANAGED_BY	"app.kubernetes.io/managed-by"
#define K8S_LABEL_BUILD		"fluid.dev/build"
#define K8S_ANN_BUNDLE		"fluid.dev/bundle-digest"
#define K8S_ANN_SQL		"fluid.dev/sql-digest"
#define K8S_ANN_PLAN		"fluid.dev/plan-digest"
#define K8S_MANAGER		"fluid"

/*
 * The names the API server accepts (k8s_label.c).  A DNS-1123 label: at
 * most max of a-z, 0-9 and '-', a letter or digit at each end (a
 * namespace: 63).  A DNS-1123 subdomain: such labels joined by dots, at
 * most max (an object's name: 253).  A label value: at most 63 of
 * A-Z, a-z, 0-9, '-', '_' and '.', a letter or digit at each end.  A
 * ConfigMap key: at most 253 of A-Z, a-z, 0-9, '-', '_' and '.', not
 * "." or "..".  Each is 0 for NULL.
 */
int	k8s_dns_label(const char *s, size_t max);
int	k8s_dns_subdomain(const char *s, size_t max);
int	k8s_label_value(const char *s);
int	k8s_configmap_key(const char *s);
/*
 * Whether obj (as read from a cluster) carries fluid's labels for
 * product and build id: managed-by fluid, name product, build id; 0
 * when product or id is NULL.  What fluid wrote, not someone's object
 * of that name.
 */
int	k8s_owned(const json_t *obj, const char *product, const char *id);

/* Where the job image has the runner, and where the SQL is mounted. */
#define K8S_RUNNER_JAR		"local:///opt/flink/usrlib/fluid-flink-runner.jar"
#define K8S_RUNNER_CLASS	"fluid.runner.FlinkRunner"
#define K8S_SQL_DIR		"/opt/flink/usrlib/sql"

/*
 * The table file the in-pod runner compares an existing table with
 * (tools/flink-runner/README.md): the table of a checked build without
 * its catalog, as text, two-space indented and ending in a newline.
 * The very bytes of DIR/<build>.table.json and of the ConfigMap.  A new
 * string, or NULL if jansson could not write it.
 */
char	*k8s_table_text(const json_t *checked_build);

/*
 * The k8s section of a document after fluid-sqlgen (a new reference):
 * {"builds": [{build, resources: [ConfigMap, FlinkDeployment]}]}, one
 * entry per sqlgen build, joined with the check section by build id.
 * A name or label the API server would refuse is an error in d, placed
 * at the contract's deployment when d has the resolve section
 * (diags_set_resolve()); a document whose sections do not agree is a
 * fatal one.  NULL after any error.
 */
json_t	*k8s_render(json_t *doc, struct diags *d);

/* A kubectl List of every build's resources (a new reference). */
json_t	*k8s_list(const json_t *section);

/* fluid plan's modes; replace and reset are refused by the spec. */
enum k8s_mode {
	K8S_AMEND,
	K8S_AMEND_AND_BUILD,
	K8S_CREATE_ONLY,
	K8S_DRY_RUN
};

/*
 * Parse a mode.  Returns 0, or -1 with *why saying what is wrong (a
 * static string: replace and reset are named with the spec's reason).
 */
int	k8s_mode_parse(const char *s, enum k8s_mode *, const char **why);
const char *k8s_mode_name(enum k8s_mode);

/*
 * The plan (a new reference) of the k8s section in doc, for mode,
 * against last_applied (a JSON array or kubectl List of resources, or
 * NULL: everything is new).  See fluid(1), PLAN, for its fields and
 * how its digest is made.
 */
json_t	*k8s_plan(json_t *doc, enum k8s_mode mode, const json_t *last_applied);
/*
 * k8s_plan() in two steps: the plan without its digest (a new
 * reference), then its digest set, on the plan and on the plan-digest
 * annotation of each FlinkDeployment.  Apply makes a plan again from
 * the plan's bundle with these, to compare it with the one it was given.
 */
json_t	*k8s_plan_body(json_t *doc, enum k8s_mode mode,
	    const json_t *last_applied);
void	 k8s_plan_seal(json_t *plan);
/*
 * What apply checks against the allowlists that the resources do not
 * say, of checked build cb (a new reference): where the job sends its
 * records, its catalog credential and its own SQL.  The plan's
 * "targets" entry of the build.
 */
json_t	*k8s_targets(const char *id, const json_t *cb);
/*
 * The digest of a plan: over its canonical JSON (digest.h) without its
 * "digest" field and without the plan-digest annotation of each
 * resource, which carry the same value.
 */
void	 k8s_plan_digest(const json_t *plan, char out[DIGEST_STRLEN]);
/*
 * What the plan's digest covers (a new reference): the plan without its
 * digest and without each resource's plan-digest annotation.
 */
json_t	*k8s_plan_content(const json_t *plan);

#endif

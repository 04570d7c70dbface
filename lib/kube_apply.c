/*
 * kube_apply.c - a checked plan written through kubectl (kube_apply.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kube_cfk.h"
#include "cfk_plan.h"
#include "kube.h"
#include "jget.h"
#include "kube_apply.h"
#include "kube_operr.h"
#include "kube_record.h"
#include "plan.h"

static void
say(const struct kube_apply_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
say(const struct kube_apply_opts *o, const char *fmt, ...)
{
	va_list ap;
	char *line;

	if (o->say == NULL)
		return;
	va_start(ap, fmt);
	line = xvasprintf(fmt, ap);
	va_end(ap);
	o->say(o->arg, line);
	free(line);
}

/*
 * Whether live has every field of want with want's value (numbers
 * compared as numbers: the API server writes 1 for 1.0): fields that
 * other managers or the server added do not count as a change.
 */
static int
covers(const json_t *live, const json_t *want)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_number(want) && json_is_number(live))
		return json_number_value(want) == json_number_value(live);
	if (json_is_object(want)) {
		if (!json_is_object(live))
			return 0;
		json_object_foreach((json_t *)want, k, v)
			if (!covers(json_object_get(live, k), v))
				return 0;
		return 1;
	}
	if (json_is_array(want)) {
		if (!json_is_array(live) ||
		    json_array_size(live) != json_array_size(want))
			return 0;
		json_array_foreach(want, i, v)
			if (!covers(json_array_get(live, i), v))
				return 0;
		return 1;
	}
	return json_equal(live, want);
}

/* A string read from the cluster, as a message may show it. */
static const char *
shown(const char *s)
{
	const char *p;

	if (s == NULL)
		return "(none)";
	for (p = s; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			return "(not printable)";
	return strlen(s) > 253 ? "(too long)" : s;
}

/*
 * Whether obj (read from the cluster) carries fluid's labels for this
 * product and build; if not, an error names what it carries.
 */
static int
owned(const json_t *obj, const char *product, const char *id,
    const char *kind, const char *ns, const char *name, const char *path,
    struct diags *d)
{
	const json_t *l = json_object_get(json_object_get(obj, "metadata"),
	    "labels");
	const char *by = jstr3(l, K8S_LABEL_MANAGED_BY, NULL, NULL);
	const char *pn = jstr3(l, K8S_LABEL_NAME, NULL, NULL);
	const char *build = jstr3(l, K8S_LABEL_BUILD, NULL, NULL);

	if (by != NULL && strcmp(by, K8S_MANAGER) == 0 && pn != NULL &&
	    product != NULL && strcmp(pn, product) == 0 && build != NULL &&
	    strcmp(build, id) == 0)
		return 1;
	diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': %s %s/%s exists "
	    "and is not fluid's for product '%s' build '%s' (its labels: "
	    "%s=%s, %s=%s, %s=%s): not touched", id, kind, ns, name,
	    product ? product : "", id, K8S_LABEL_MANAGED_BY, shown(by),
	    K8S_LABEL_NAME, shown(pn), K8S_LABEL_BUILD, shown(build));
	return 0;
}

/*
 * Whether the operator reports that the job's last savepoint failed:
 * status.error set while a savepoint is pending
 * (status.jobStatus.savepointInfo.triggerId) or an upgrade is
 * (status.reconciliationStatus.state UPGRADING), or status.error
 * naming a savepoint.  A new spec then could start the job without
 * its state; fluid leaves it to the operator to resolve.
 */
static const char *
savepoint_failed(const json_t *live)
{
	const json_t *st = json_object_get(live, "status");
	const char *err = jstr3(st, "error", NULL, NULL), *trig, *rec;

	if (err == NULL || *err == '\0')
		return NULL;
	trig = jstr3(st, "jobStatus", "savepointInfo", "triggerId");
	rec = jstr3(st, "reconciliationStatus", "state", NULL);
	if ((trig != NULL && *trig != '\0') ||
	    (rec != NULL && strcmp(rec, "UPGRADING") == 0) ||
	    strstr(err, "avepoint") != NULL)
		return err;
	return NULL;
}

/*
 * Whether the operator has not yet taken the live spec: its
 * status.observedGeneration is behind metadata.generation (a change in
 * progress, or one it keeps failing to make).
 */
static int
pending(const json_t *live)
{
	const json_t *gen = json_object_get(json_object_get(live,
	    "metadata"), "generation");
	const json_t *og = json_object_get(json_object_get(live, "status"),
	    "observedGeneration");

	return json_is_integer(gen) && json_is_integer(og) &&
	    json_integer_value(og) < json_integer_value(gen);
}

/*
 * The message of the operator's newest Event for FlinkDeployment name
 * in ns when it is a failed savepoint (new), else NULL, also when the
 * Events cannot be read (the writes that follow say why).
 */
static char *
savepoint_event(const struct kube *k, const char *ns, const char *name)
{
	json_t *list = NULL;
	char *path, *why = NULL, *msg = NULL;

	path = xasprintf("/api/v1/namespaces/%s/events?fieldSelector="
	    "involvedObject.kind%%3DFlinkDeployment%%2CinvolvedObject.name"
	    "%%3D%s", ns, name);
	if (kube_get_raw(k, path, &list, &why, NULL) == 1)
		msg = kube_savepoint_event(list, name);
	json_decref(list);
	free(why);
	free(path);
	return msg;
}

/* One build of the plan, as read from the cluster before any write. */
struct build {
	const char	*id, *ns, *context;
	const json_t	*cm, *fd;	/* borrowed: the plan's */
	struct kube	 k;
};

/*
 * Read what the build would write and refuse what the mode does not
 * allow.  Errors in d (fatal ones when the cluster is not reached).
 */
static void
read_build(const json_t *plan, const struct kube_apply_opts *o,
    struct build *b, struct diags *d)
{
	const char *product = jstr3(plan, "product", NULL, NULL);
	const char *fdn = jstr3(b->fd, "metadata", "name", NULL);
	const char *cmn = jstr3(b->cm, "metadata", "name", NULL);
	const char *was, *now, *why;
	char *msg;
	json_t *live_fd = NULL, *live_cm = NULL, *live_rec = NULL;
	char *recn = xasprintf("%s-fluid-last-applied", fdn);
	int has_fd, has_cm, has_rec, foreign;

	if (kube_init(&b->k, b->context, o->env, d) == -1)
		goto out;
	if ((has_fd = kube_get(&b->k, "flinkdeployment", b->ns, fdn,
	    &live_fd, d)) == -1 || (has_cm = kube_get(&b->k, "configmap",
	    b->ns, cmn, &live_cm, d)) == -1 || (has_rec = kube_get(&b->k,
	    "configmap", b->ns, recn, &live_rec, d)) == -1)
		goto out;
	/* Each is named: not one stops the others being read. */
	foreign = has_fd && !owned(live_fd, product, b->id,
	    "FlinkDeployment", b->ns, fdn, o->path, d);
	foreign += has_cm && !owned(live_cm, product, b->id, "ConfigMap",
	    b->ns, cmn, o->path, d);
	foreign += has_rec && !owned(live_rec, product, b->id, "ConfigMap",
	    b->ns, recn, o->path, d);
	if (foreign > 0)
		goto out;
	if (!has_fd)
		goto out;		/* a new deployment: every mode creates it */
	if (o->mode == K8S_CREATE_ONLY) {
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
		    "FlinkDeployment %s/%s exists: create-only creates, never "
		    "changes; use amend or amend-and-build", b->id, b->ns,
		    fdn);
		goto out;
	}
	was = jstr3(live_fd, "metadata", "annotations", K8S_ANN_SQL);
	now = jstr3(b->fd, "metadata", "annotations", K8S_ANN_SQL);
	if (o->mode == K8S_AMEND && (was == NULL || now == NULL ||
	    strcmp(was, now) != 0)) {
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': the "
		    "script changed (%s %s -> %s): amend keeps the running "
		    "script; amend-and-build deploys a new one", b->id,
		    K8S_ANN_SQL, shown(was), shown(now));
		goto out;
	}
	if (covers(json_object_get(live_fd, "spec"),
	    json_object_get(b->fd, "spec")))
		goto out;
	if ((why = savepoint_failed(live_fd)) != NULL) {
		/* The operator writes status.error as JSON: its message. */
		msg = kube_operator_error(why);
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
		    "FlinkDeployment %s/%s: the operator reports a failed "
		    "savepoint (status.error: %s): fluid changes no job "
		    "whose state could be lost; resolve it with the operator "
		    "first", b->id, b->ns, fdn, msg);
		free(msg);
	} else if (pending(live_fd) &&
	    (msg = savepoint_event(&b->k, b->ns, fdn)) != NULL) {
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
		    "FlinkDeployment %s/%s: the operator reports a failed "
		    "savepoint (its latest event, SavepointError: %s) and has "
		    "not taken the last change: fluid changes no job whose "
		    "state could be lost; resolve it with the operator first",
		    b->id, b->ns, fdn, msg);
		free(msg);
	}
out:
	json_decref(live_fd);
	json_decref(live_cm);
	json_decref(live_rec);
	free(recn);
}

/*
 * Wait, up to o->wait_s, for the operator to take generation gen of
 * the FlinkDeployment: status.observedGeneration at least gen.  Says
 * which; a warning in d when it has not.
 */
static void
wait_taken(const struct kube_apply_opts *o, const struct build *b,
    json_int_t gen, struct diags *d)
{
	const char *fdn = jstr3(b->fd, "metadata", "name", NULL);
	json_t *live = NULL, *og;
	json_int_t seen = -1;
	time_t end = time(NULL) + o->wait_s;
	struct diags q;
	int got;

	for (;;) {
		diags_init(&q);
		got = kube_get(&b->k, "flinkdeployment", b->ns, fdn, &live,
		    &q);
		diags_release(&q);
		if (got == 1) {
			og = json_object_get(json_object_get(live, "status"),
			    "observedGeneration");
			if (json_is_integer(og))
				seen = json_integer_value(og);
		}
		json_decref(live);
		live = NULL;
		if (seen >= gen) {
			say(o, "FlinkDeployment %s/%s: the operator took "
			    "generation %" JSON_INTEGER_FORMAT, b->ns, fdn,
			    gen);
			return;
		}
		if (time(NULL) + KUBE_APPLY_POLL_S > end)
			break;
		sleep(KUBE_APPLY_POLL_S);
	}
	diag_pos(d, DIAG_WARNING, o->path, 0, 0, "build '%s': "
	    "FlinkDeployment %s/%s: the operator has not taken generation %"
	    JSON_INTEGER_FORMAT " within %d s (status.observedGeneration: %s): "
	    "the change is written, not yet running; see its status with "
	    "kubectl", b->id, b->ns, fdn, gen, o->wait_s, seen < 0 ? "none" :
	    "older");
}

/* The writes of one build, in order; says what the job now is. */
static int
write_build(const json_t *plan, const struct kube_apply_opts *o,
    struct build *b, struct diags *d)
{
	json_t *live = NULL, *rec;
	const char *state;
	json_int_t gen;
	int rc = -1;

	if (kube_apply(&b->k, b->cm, NULL, d) == -1)
		return -1;
	/* The ConfigMap exists before the FlinkDeployment names it. */
	if (kube_apply(&b->k, b->fd, &live, d) == -1)
		return -1;
	state = jstr3(live, "spec", "job", "state");
	gen = json_integer_value(json_object_get(json_object_get(live,
	    "metadata"), "generation"));
	rec = kube_record_make(plan, b->cm, b->fd);
	if (kube_apply(&b->k, rec, NULL, d) == 0) {
		say(o, "FlinkDeployment %s/%s: %s", b->ns, jstr3(b->fd,
		    "metadata", "name", NULL), state ? shown(state) :
		    "(no state)");
		rc = 0;
	}
	json_decref(rec);
	json_decref(live);
	if (rc == 0 && o->wait_s > 0 && gen > 0)
		wait_taken(o, b, gen, d);
	return rc;
}

void
kube_apply_plan(const json_t *plan, const struct kube_apply_opts *o,
    struct diags *d)
{
	const json_t *builds = json_object_get(plan, "builds"), *e;
	size_t i, n = json_array_size(builds);
	struct build *bs = xcalloc(n ? n : 1, sizeof(*bs));
	struct kube_cfk *cfk = NULL;

	json_array_foreach(builds, i, e) {
		if (cfk_plan_is(e))
			continue;	/* kube_cfk.c's */
		bs[i].id = jstr3(e, "build", NULL, NULL);
		bs[i].context = jstr3(e, "context", NULL, NULL);
		bs[i].fd = plan_resource(plan, "FlinkDeployment", jstr3(e,
		    "flinkDeployment", NULL, NULL));
		bs[i].cm = plan_resource(plan, "ConfigMap", jstr3(e,
		    "configMap", NULL, NULL));
		bs[i].ns = jstr3(bs[i].fd, "metadata", "namespace", NULL);
		read_build(plan, o, &bs[i], d);
		if (d->nfatal > 0)
			break;
	}
	if (d->nfatal == 0)
		cfk = kube_cfk_read(plan, o, d);
	/* Every build is read and allowed before the first write. */
	if (d->nerrors == 0 && d->nfatal == 0) {
		for (i = 0; i < n; i++)
			if (!cfk_plan_is(json_array_get(builds, i)) &&
			    write_build(plan, o, &bs[i], d) == -1)
				break;
		if (i == n)
			kube_cfk_write(cfk, o, d);
	}
	kube_cfk_free(cfk);
	free(bs);
}

void
kube_apply_run(const json_t *plan, const struct allow *al, int yes,
    const struct kube_apply_opts *o, struct diags *d)
{
	json_t *remade, *e, *r;
	size_t i;

	remade = plan_remake(plan, o->mode, o->path, d);
	/*
	 * The resources' own checks run whatever the re-render found: on
	 * the plan as given, which is what is written when it is equal.
	 */
	if (d->nfatal == 0) {
		plan_sizes(plan, kube_record_make, o->path, d);
		plan_allow(plan, al, o->path, d);
	}
	if (remade == NULL || d->nerrors > 0 || d->nfatal > 0)
		goto out;
	if (o->mode == K8S_DRY_RUN) {
		/* No kubectl at all: what would be written, checked. */
		json_array_foreach(json_object_get(remade, "resources"), i,
		    e) {
			r = json_object_get(e, "resource");
			say(o, "would apply %s %s/%s (%s)", jstr3(r, "kind",
			    NULL, NULL), jstr3(r, "metadata", "namespace",
			    NULL), jstr3(r, "metadata", "name", NULL), jstr3(e,
			    "action", NULL, NULL));
		}
		goto out;
	}
	if (!yes) {
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "apply --mode %s writes "
		    "to the cluster: add --yes to do it, or see what it would "
		    "write with a dry-run plan", k8s_mode_name(o->mode));
		goto out;
	}
	kube_apply_plan(remade, o, d);
out:
	json_decref(remade);
}

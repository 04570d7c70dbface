/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_apply.c - a checked plan written through kubectl (kube_apply.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kube_cfk.h"
#include "k8s_cfk_plan.h"
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

	if (k8s_owned(obj, product, id))
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
 * The operator's newest SavepointError Event for live, FlinkDeployment
 * name in ns, since the operator last took its spec: 1 and *msg (new)
 * when there is one, 0 when there is none; -1 and *msg (new: why) when
 * the Events cannot be read as an EventList (refused, too large, not
 * JSON, no items).  The guard fails closed: what it cannot read, it
 * cannot say is safe.
 */
static int
savepoint_event(const struct kube *k, const char *ns, const char *name,
    const json_t *live, char **msg)
{
	const json_t *ts = json_object_get(json_object_get(json_object_get(
	    live, "status"), "reconciliationStatus"), "reconciliationTimestamp");
	json_t *list = NULL;
	char *path, *why = NULL;
	int rc;

	*msg = NULL;
	path = xasprintf("/api/v1/namespaces/%s/events?fieldSelector="
	    "involvedObject.kind%%3DFlinkDeployment%%2CinvolvedObject.name"
	    "%%3D%s", ns, name);
	if (kube_get_raw(k, path, &list, &why, NULL) != 1)
		rc = -1;
	else if (!json_is_array(json_object_get(list, "items"))) {
		why = xasprintf("kubectl --context=%s get --raw %s: not an "
		    "EventList (no items)", k->context, path);
		rc = -1;
	} else {
		*msg = kube_savepoint_event(list, name, json_is_integer(ts) ?
		    (long long)json_integer_value(ts) : -1);
		rc = *msg != NULL;
	}
	if (rc == -1)
		*msg = why != NULL ? why : xstrdup("the Events were not read");
	else
		free(why);
	json_decref(list);
	free(path);
	return rc;
}

/* One build of the plan, as read from the cluster before any write. */
struct build {
	const char	*id, *ns, *context, *fdn, *cmn;
	char		*recn;		/* its record's name */
	const json_t	*cm, *fd;	/* borrowed: the plan's */
	struct kube	 k;
	size_t		 g;		/* its group: groups[g] */
	json_int_t	 gen;		/* the generation written, or 0 */
	json_int_t	 seen;		/* observedGeneration read, or -1 */
};

/*
 * The builds that share a context and a namespace: each kind is read
 * for all of them in one kubectl run.  Names -> what exists (new).
 */
struct group {
	const char	*context, *ns;
	size_t		 first;		/* its first build: whose kube runs */
	json_t		*fds, *cms;
};

/*
 * The key groups of a FlinkDeployment: its pipeline.max-parallelism,
 * or, when a fluid before the field left it out, what Flink derived
 * from spec.job.parallelism p (KeyGroupRangeAssignment:
 * min(max(roundUpToPowerOfTwo(p + p/2), 128), 32768)); -1 unknown.
 */
static long long
key_groups(const json_t *fd)
{
	const char *v = jstr3(fd, "spec", "flinkConfiguration",
	    "pipeline.max-parallelism");
	const json_t *p = json_object_get(json_object_get(json_object_get(
	    fd, "spec"), "job"), "parallelism");
	long long n, r = 1;
	char *end;

	if (v != NULL) {
		n = strtoll(v, &end, 10);
		return *v != '\0' && *end == '\0' && n > 0 ? n : -1;
	}
	n = json_is_integer(p) ? (long long)json_integer_value(p) : 1;
	if (n > 32768 || n < 1)	/* read from the cluster: no overflow */
		n = n < 1 ? 1 : 32768;
	n += n / 2;
	while (r < n)
		r <<= 1;
	return r < 128 ? 128 : r > 32768 ? 32768 : r;
}

/*
 * A running deployment's key groups are its state's: a new number
 * cannot restore it.  A new deployment (another deployment.name, or
 * none live) may take any.
 */
static void
check_key_groups(const struct kube_apply_opts *o, const struct build *b,
    const json_t *live_fd, struct diags *d)
{
	long long was = key_groups(live_fd), now = key_groups(b->fd);

	if (was == now || now == -1)
		return;
	if (was == -1) {
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
		    "FlinkDeployment %s/%s: its pipeline.max-parallelism is "
		    "not a positive number: fluid cannot tell whether the "
		    "job's keyed state restores with %lld key groups", b->id,
		    b->ns, b->fdn, now);
		return;
	}
	diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': FlinkDeployment "
	    "%s/%s: pipeline.max-parallelism changes (%lld -> %lld): the "
	    "job's keyed state is stored by key group and cannot be "
	    "restored with another number; keep deployment.maxParallelism "
	    "at %lld, or start a new deployment under another "
	    "deployment.name", b->id, b->ns, b->fdn, was, now, was);
}

/*
 * Check build b against what was read (live_fd, live_cm, live_rec: NULL
 * when it does not exist) and refuse what the mode does not allow.
 * Errors in d (fatal ones when the cluster is not reached).
 */
static void
check_build(const json_t *plan, const struct kube_apply_opts *o,
    struct build *b, const json_t *live_fd, const json_t *live_cm,
    const json_t *live_rec, struct diags *d)
{
	const char *product = jstr3(plan, "product", NULL, NULL);
	const char *was, *now, *why;
	char *msg;
	int foreign;

	/* Each is named: not one stops the others being checked. */
	foreign = live_fd != NULL && !owned(live_fd, product, b->id,
	    "FlinkDeployment", b->ns, b->fdn, o->path, d);
	foreign += live_cm != NULL && !owned(live_cm, product, b->id,
	    "ConfigMap", b->ns, b->cmn, o->path, d);
	foreign += live_rec != NULL && !owned(live_rec, product, b->id,
	    "ConfigMap", b->ns, b->recn, o->path, d);
	if (foreign > 0 || live_fd == NULL)
		return;		/* a new deployment: every mode creates it */
	if (o->mode == K8S_CREATE_ONLY) {
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
		    "FlinkDeployment %s/%s exists: create-only creates, never "
		    "changes; use amend or amend-and-build", b->id, b->ns,
		    b->fdn);
		return;
	}
	check_key_groups(o, b, live_fd, d);
	was = jstr3(live_fd, "metadata", "annotations", K8S_ANN_SQL);
	now = jstr3(b->fd, "metadata", "annotations", K8S_ANN_SQL);
	if (o->mode == K8S_AMEND && (was == NULL || now == NULL ||
	    strcmp(was, now) != 0)) {
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': the "
		    "script changed (%s %s -> %s): amend keeps the running "
		    "script; amend-and-build deploys a new one", b->id,
		    K8S_ANN_SQL, shown(was), shown(now));
		return;
	}
	if (kube_covers(json_object_get(live_fd, "spec"),
	    json_object_get(b->fd, "spec")))
		return;
	if ((why = savepoint_failed(live_fd)) != NULL) {
		/* The operator writes status.error as JSON: its message. */
		msg = kube_operator_error(why);
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
		    "FlinkDeployment %s/%s: the operator reports a failed "
		    "savepoint (status.error: %s): fluid changes no job "
		    "whose state could be lost; resolve it with the operator "
		    "first", b->id, b->ns, b->fdn, msg);
		free(msg);
	} else if (pending(live_fd)) {
		/* Only a change still pending reads the Events: rare. */
		switch (savepoint_event(&b->k, b->ns, b->fdn, live_fd, &msg)) {
		case 1:
			diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
			    "FlinkDeployment %s/%s: the operator reports a "
			    "failed savepoint (its event SavepointError since "
			    "it last took a spec: %s) and has not taken the "
			    "last change: fluid changes no job whose state "
			    "could be lost; resolve it with the operator "
			    "first", b->id, b->ns, b->fdn, msg);
			break;
		case -1:
			diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
			    "FlinkDeployment %s/%s: the operator has not taken "
			    "the last change and its Events cannot be read: "
			    "cannot tell whether the last savepoint failed: "
			    "%s: fluid changes no job whose state could be "
			    "lost; allow the CLI to list events in %s, or "
			    "resolve it with the operator first", b->id, b->ns,
			    b->fdn, msg, b->ns);
			break;
		}
		free(msg);
	}
}

/*
 * Read every build's FlinkDeployment, ConfigMap and record: per group,
 * one kubectl run per kind (the records are ConfigMaps).  Fatal in d
 * when a read fails.
 */
static void
read_groups(struct build *bs, size_t n, struct group *gs, size_t ng,
    struct diags *d)
{
	const char **fdn = xcalloc(n + 1, sizeof(*fdn));
	const char **cmn = xcalloc(2 * n + 1, sizeof(*cmn));
	size_t g, i, nf, nc;

	for (g = 0; g < ng && d->nfatal == 0; g++) {
		nf = nc = 0;
		for (i = 0; i < n; i++) {
			if (bs[i].id == NULL || bs[i].g != g)
				continue;
			kube_names_add(fdn, &nf, bs[i].fdn);
			kube_names_add(cmn, &nc, bs[i].cmn);
			kube_names_add(cmn, &nc, bs[i].recn);
		}
		if (kube_get_names(&bs[gs[g].first].k, "flinkdeployment",
		    gs[g].ns, fdn, nf, &gs[g].fds, d) == -1)
			break;
		if (kube_get_names(&bs[gs[g].first].k, "configmap", gs[g].ns,
		    cmn, nc, &gs[g].cms, d) == -1)
			break;
	}
	free(fdn);
	free(cmn);
}

/* The wait's line: a minute of silence looks like a hang. */
static void
wait_progress(const struct kube_apply_opts *o, size_t left, long secs)
{
	char *line = xasprintf("waiting for the operator to take %zu "
	    "FlinkDeployment%s (%lds left of --wait %d)", left, left == 1 ?
	    "" : "s", secs, o->wait_s);

	o->progress(o->parg, line);
	free(line);
}

/*
 * Wait, up to o->wait_s, for the operator to take each generation
 * written: status.observedGeneration at least b->gen.  Each round reads
 * the FlinkDeployments still waited for, one kubectl run per group.
 * Says which took it; a warning in d for each that has not.
 */
static void
wait_taken(const struct kube_apply_opts *o, struct build *bs, size_t n,
    const struct group *gs, size_t ng, struct diags *d)
{
	const char **names = xcalloc(n + 1, sizeof(*names));
	json_t *found, *og;
	time_t end = time(NULL) + o->wait_s;
	struct diags q;
	size_t g, i, k, left;

	for (;;) {
		left = 0;
		for (g = 0; g < ng; g++) {
			for (i = k = 0; i < n; i++)
				if (bs[i].id != NULL && bs[i].g == g &&
				    bs[i].gen > 0 && bs[i].seen < bs[i].gen)
					names[k++] = bs[i].fdn;
			if (k == 0)
				continue;
			diags_init(&q);
			found = NULL;
			if (kube_get_names(&bs[gs[g].first].k,
			    "flinkdeployment", gs[g].ns, names, k, &found,
			    &q) == 0)
				for (i = 0; i < n; i++) {
					if (bs[i].id == NULL || bs[i].g != g ||
					    bs[i].gen <= 0)
						continue;
					og = json_object_get(json_object_get(
					    json_object_get(found, bs[i].fdn),
					    "status"), "observedGeneration");
					if (json_is_integer(og))
						bs[i].seen =
						    json_integer_value(og);
				}
			json_decref(found);
			diags_release(&q);
		}
		for (i = 0; i < n; i++)
			if (bs[i].id != NULL && bs[i].gen > 0 &&
			    bs[i].seen < bs[i].gen)
				left++;
		if (left == 0 || time(NULL) + KUBE_APPLY_POLL_S > end)
			break;
		if (o->progress != NULL)
			wait_progress(o, left, (long)(end - time(NULL)));
		sleep(KUBE_APPLY_POLL_S);
	}
	if (o->progress != NULL)
		o->progress(o->parg, NULL);
	for (i = 0; i < n; i++) {
		if (bs[i].id == NULL || bs[i].gen <= 0)
			continue;
		if (bs[i].seen >= bs[i].gen) {
			say(o, "FlinkDeployment %s/%s: the operator took "
			    "generation %" JSON_INTEGER_FORMAT, bs[i].ns,
			    bs[i].fdn, bs[i].gen);
			continue;
		}
		diag_pos(d, DIAG_WARNING, o->path, 0, 0, "build '%s': "
		    "FlinkDeployment %s/%s: the operator has not taken "
		    "generation %" JSON_INTEGER_FORMAT " within %d s "
		    "(status.observedGeneration: %s): the change is written, "
		    "not yet running; see its status with kubectl", bs[i].id,
		    bs[i].ns, bs[i].fdn, bs[i].gen, o->wait_s, bs[i].seen < 0 ?
		    "none" : "older");
	}
	free(names);
}

/*
 * The writes of the builds in context ctx, one kubectl run per kind, in
 * order: every ConfigMap (the FlinkDeployment names it), every
 * FlinkDeployment, every record.  Says what each job now is.  -1 when a
 * write was refused: no later kind is written.
 */
static int
write_context(const json_t *plan, const struct kube_apply_opts *o,
    struct build *bs, size_t n, const char *ctx, struct diags *d)
{
	json_t *cms = json_array(), *fds = json_array(), *recs = json_array();
	json_t *lives = NULL, *live;
	const struct kube *k = NULL;
	const char *state;
	size_t i, j;
	int rc = -1;

	for (i = 0; i < n; i++) {
		if (bs[i].id == NULL || strcmp(bs[i].context, ctx) != 0)
			continue;
		k = k != NULL ? k : &bs[i].k;
		json_array_append(cms, (json_t *)bs[i].cm);
		json_array_append(fds, (json_t *)bs[i].fd);
		json_array_append_new(recs, kube_record_make(plan, bs[i].cm,
		    bs[i].fd));
	}
	if (k == NULL || kube_apply_list(k, cms, NULL, d) == -1 ||
	    kube_apply_list(k, fds, &lives, d) == -1 ||
	    kube_apply_list(k, recs, NULL, d) == -1)
		goto out;
	for (i = j = 0; i < n; i++) {
		if (bs[i].id == NULL || strcmp(bs[i].context, ctx) != 0)
			continue;
		live = json_array_get(lives, j++);
		state = jstr3(live, "spec", "job", "state");
		bs[i].gen = json_integer_value(json_object_get(
		    json_object_get(live, "metadata"), "generation"));
		say(o, "FlinkDeployment %s/%s: %s", bs[i].ns, bs[i].fdn,
		    state ? shown(state) : "(no state)");
	}
	rc = 0;
out:
	json_decref(lives);
	json_decref(cms);
	json_decref(fds);
	json_decref(recs);
	return rc;
}

static int
same_s(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

void
kube_apply_plan(const json_t *plan, const struct kube_apply_opts *o,
    struct diags *d)
{
	const json_t *builds = json_object_get(plan, "builds"), *e;
	size_t i, j, g, ng = 0, n = json_array_size(builds);
	struct build *bs = xcalloc(n ? n : 1, sizeof(*bs));
	struct group *gs = xcalloc(n ? n : 1, sizeof(*gs));
	struct kube_cfk *cfk = NULL;
	struct build *b;

	/* Builds with an id are the operator's; a CFK one is kube_cfk.c's. */
	json_array_foreach(builds, i, e) {
		if (cfk_plan_is(e))
			continue;
		b = &bs[i];
		b->context = jstr3(e, "context", NULL, NULL);
		b->fd = plan_resource(plan, "FlinkDeployment", jstr3(e,
		    "flinkDeployment", NULL, NULL));
		b->cm = plan_resource(plan, "ConfigMap", jstr3(e,
		    "configMap", NULL, NULL));
		b->ns = jstr3(b->fd, "metadata", "namespace", NULL);
		b->fdn = jstr3(b->fd, "metadata", "name", NULL);
		b->cmn = jstr3(b->cm, "metadata", "name", NULL);
		b->recn = kube_record_name(b->fdn);
		b->seen = -1;
		if (kube_init(&b->k, b->context, o->env, d) == -1)
			break;
		b->id = jstr3(e, "build", NULL, NULL);
		for (g = 0; g < ng; g++)
			if (same_s(gs[g].context, b->context) &&
			    same_s(gs[g].ns, b->ns))
				break;
		if (g == ng)
			gs[ng++] = (struct group){ b->context, b->ns, i, NULL,
			    NULL };
		b->g = g;
	}
	if (d->nfatal == 0)
		read_groups(bs, n, gs, ng, d);
	for (i = 0; i < n && d->nfatal == 0; i++) {
		if (bs[i].id == NULL)
			continue;
		g = bs[i].g;
		check_build(plan, o, &bs[i], json_object_get(gs[g].fds,
		    bs[i].fdn), json_object_get(gs[g].cms, bs[i].cmn),
		    json_object_get(gs[g].cms, bs[i].recn), d);
	}
	if (d->nfatal == 0)
		cfk = kube_cfk_read(plan, o, d);
	/* Every build is read and allowed before the first write. */
	if (d->nerrors == 0 && d->nfatal == 0) {
		/* Per context, in the order the plan first names each. */
		for (i = 0; i < n; i++) {
			if (bs[i].id == NULL)
				continue;
			for (j = 0; j < i; j++)
				if (bs[j].id != NULL &&
				    strcmp(bs[j].context, bs[i].context) == 0)
					break;
			if (j == i && write_context(plan, o, bs, n,
			    bs[i].context, d) == -1)
				break;
		}
		if (i == n) {
			if (o->wait_s > 0)
				wait_taken(o, bs, n, gs, ng, d);
			kube_cfk_write(cfk, o, d);
		}
	}
	kube_cfk_free(cfk);
	for (g = 0; g < ng; g++) {
		json_decref(gs[g].fds);
		json_decref(gs[g].cms);
	}
	for (i = 0; i < n; i++)
		free(bs[i].recn);
	free(gs);
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

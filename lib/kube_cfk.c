/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * kube_cfk.c - a plan's CFK builds written through kubectl
 * (kube_cfk.h).  Everything read from the cluster is untrusted: labels
 * are checked again on every object listed, a role must be one fluid
 * writes, and CMF's messages are shown escaped and cut.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kube_cfk.h"
#include "k8s_cfk_plan.h"
#include "k8s_cfk_render.h"
#include "jget.h"
#include "k8s.h"
#include "kube.h"
#include "plan.h"
#include "xalloc.h"

#define MSG_MAX	300	/* bytes of a message from CMF shown */

enum { SRC, SNK, INS, NROLE };
static const char *const roles[NROLE] = { "source", "sink", "insert" };

struct cb {
	const char	*id, *ns, *context, *product;
	const json_t	*pool;		/* the plan's, or NULL */
	const json_t	*st[NROLE];	/* the plan's statements */
	json_t		*old[NROLE];	/* live statements no longer planned */
	struct kube	 k;
};

struct kube_cfk {
	struct cb	*v;
	size_t		 n;
};

static void __attribute__((format(printf, 2, 3)))
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

/* s from the cluster as a message shows it: printable, else \xNN, cut. */
static char *
esc(const char *s)
{
	struct sb b;
	char hex[5];

	sb_init(&b);
	sb_adds(&b, "");
	if (s == NULL) {
		sb_adds(&b, "(none)");
		return b.buf;
	}
	for (; *s != '\0' && b.len < MSG_MAX; s++)
		if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f)
			sb_addc(&b, *s);
		else {
			snprintf(hex, sizeof(hex), "\\x%02x", (unsigned char)*s);
			sb_adds(&b, hex);
		}
	if (*s != '\0')
		sb_adds(&b, "...");
	return b.buf;
}

/* Whether obj (from the cluster) has fluid's labels for this build. */
static int
owned(const struct cb *b, const json_t *obj, const char *kind,
    const char *name, const char *path, struct diags *d)
{
	const json_t *l = json_object_get(json_object_get(obj, "metadata"),
	    "labels");
	char *e1, *e2, *e3;

	if (k8s_owned(obj, b->product, b->id))
		return 1;
	e1 = esc(jstr(l, K8S_LABEL_MANAGED_BY));
	e2 = esc(jstr(l, K8S_LABEL_NAME));
	e3 = esc(jstr(l, K8S_LABEL_BUILD));
	diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': %s %s/%s exists "
	    "and is not fluid's for product '%s' build '%s' (its labels: "
	    "%s=%s, %s=%s, %s=%s): not touched", b->id, kind, b->ns, name,
	    b->product, b->id, K8S_LABEL_MANAGED_BY, e1, K8S_LABEL_NAME, e2,
	    K8S_LABEL_BUILD, e3);
	free(e1);
	free(e2);
	free(e3);
	return 0;
}

/*
 * Whether obj, read as Kind ns/name, is that object: its kind, namespace
 * and name as asked; if not, an error says so.
 */
static int
the_one(const struct cb *b, const json_t *obj, const char *kind,
    const char *name, const char *path, struct diags *d)
{
	if (kube_item_is(obj, kind, b->ns) && jstreq(jstr2(obj, "metadata",
	    "name"), name))
		return 1;
	diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': the answer to a read "
	    "of %s %s/%s is not that object (its kind, namespace or name "
	    "differ): not touched", b->id, kind, b->ns, name);
	return 0;
}

static int
role_of(const char *r)
{
	int i;

	for (i = 0; r != NULL && i < NROLE; i++)
		if (strcmp(r, roles[i]) == 0)
			return i;
	return -1;
}

/*
 * The FlinkStatements that carry the build's labels (a new array), or
 * NULL after a fatal error in d.
 */
static json_t *
list_labelled(const struct cb *b, struct diags *d)
{
	char *nsf = xasprintf("--namespace=%s", b->ns);
	char *sel = xasprintf("--selector=%s=%s,%s=%s,%s=%s",
	    K8S_LABEL_MANAGED_BY, K8S_MANAGER, K8S_LABEL_NAME, b->product,
	    K8S_LABEL_BUILD, b->id);
	const char *args[] = { "get", nsf, sel, "--output=json", "--",
	    "flinkstatement", NULL };
	struct kube_run r;
	json_t *list = NULL, *items, *it;
	char *why;
	size_t i;

	if (kube_exec(&b->k, args, NULL, 0, &r) == 0)
		list = json_loadb(r.out.buf, r.out.len, 0, NULL);
	items = json_object_get(list, "items");
	if (!json_is_array(items)) {
		why = esc(r.err.len > 0 ? r.err.buf : "not a JSON list");
		diag_fatal(d, "kubectl --context=%s cannot list the "
		    "FlinkStatements of build '%s' in %s: %s", b->context,
		    b->id, b->ns, why);
		free(why);
		items = NULL;
	} else
		json_incref(items);
	/* Taken on kind and namespace, as kube_get_many() takes them. */
	json_array_foreach(items, i, it)
		if (!kube_item_is(it, "flinkstatement", b->ns)) {
			diag_pos(d, DIAG_ERROR, NULL, 0, 0, "kubectl --context=%s: "
			    "the List of the FlinkStatements of build '%s' in "
			    "%s holds an item (%zu) that is not a FlinkStatement "
			    "in %s: nothing taken from it", b->context, b->id,
			    b->ns, i, b->ns);
			json_decref(items);
			items = NULL;
			break;
		}
	json_decref(list);
	kube_run_release(&r);
	free(nsf);
	free(sel);
	return items;
}

/* Is name one of the plan's statements of b? */
static int
planned(const struct cb *b, const char *name)
{
	int i;

	for (i = 0; i < NROLE; i++)
		if (strcmp(jstr2(b->st[i], "metadata", "name"), name) == 0)
			return 1;
	return 0;
}

static void
read_build(struct cb *b, const struct kube_apply_opts *o, struct diags *d)
{
	json_t *live = NULL, *items, *it;
	const char *n;
	size_t i, nlive = 0;
	int j, got, role;

	if (kube_init(&b->k, b->context, o->env, d) == -1)
		return;
	if (b->pool != NULL) {
		n = jstr2(b->pool, "metadata", "name");
		if ((got = kube_get(&b->k, "flinkcomputepool", b->ns, n, &live,
		    d)) == -1)
			return;
		if (got == 1 && the_one(b, live, "FlinkComputePool", n,
		    o->path, d))
			owned(b, live, "FlinkComputePool", n, o->path, d);
		json_decref(live);
		live = NULL;
	}
	for (j = 0; j < NROLE; j++) {
		n = jstr2(b->st[j], "metadata", "name");
		if ((got = kube_get(&b->k, "flinkstatement", b->ns, n, &live,
		    d)) == -1)
			return;
		if (got == 1) {
			nlive++;
			if (the_one(b, live, "FlinkStatement", n, o->path, d))
				owned(b, live, "FlinkStatement", n, o->path,
				    d);
		}
		json_decref(live);
		live = NULL;
	}
	if ((items = list_labelled(b, d)) == NULL)
		return;
	json_array_foreach(items, i, it) {
		n = jstr2(it, "metadata", "name");
		if (n == NULL || !owned(b, it, "FlinkStatement", n, o->path,
		    d))
			continue;
		if (planned(b, n))
			continue;
		role = role_of(jstr(json_object_get(json_object_get(it,
		    "metadata"), "annotations"), CFK_ANN_ROLE));
		if (role < 0) {
			diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
			    "FlinkStatement %s/%s carries the build's labels "
			    "but no role fluid writes (%s): not touched; remove "
			    "it or its labels", b->id, b->ns, n, CFK_ANN_ROLE);
			continue;
		}
		if (b->old[role] == NULL)
			b->old[role] = json_array();
		json_array_append(b->old[role], it);
		nlive++;
	}
	json_decref(items);
	if (o->mode == K8S_CREATE_ONLY && nlive > 0)
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': its "
		    "FlinkStatements exist in %s: create-only creates, never "
		    "changes; use amend or amend-and-build", b->id, b->ns);
	if (o->mode == K8S_AMEND && (b->old[SRC] != NULL || b->old[SNK] !=
	    NULL || b->old[INS] != NULL))
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': the "
		    "script changed (statements of another digest run in %s): "
		    "amend keeps the running script; amend-and-build deploys "
		    "a new one and stops and deletes the old", b->id, b->ns);
}

struct kube_cfk *
kube_cfk_read(const json_t *plan, const struct kube_apply_opts *o,
    struct diags *d)
{
	struct kube_cfk *a = xcalloc(1, sizeof(*a));
	const json_t *e, *names;
	struct cb *b;
	size_t i;
	int j;

	a->v = xcalloc(json_array_size(json_object_get(plan, "builds")) + 1,
	    sizeof(*a->v));
	json_array_foreach(json_object_get(plan, "builds"), i, e) {
		if (!cfk_plan_is(e))
			continue;
		b = &a->v[a->n++];
		b->id = jstr(e, "build");
		b->ns = jstr(e, "namespace");
		b->context = jstr(e, "context");
		b->product = jstr(plan, "product");
		b->pool = plan_resource(plan, "FlinkComputePool", jstr(e,
		    "computePool"));
		names = json_object_get(e, "statements");
		for (j = 0; j < NROLE; j++)
			b->st[j] = plan_resource(plan, "FlinkStatement",
			    json_string_value(json_array_get(names, j)));
		/* plan_allow() admitted it; a plan that lacks them is not. */
		if (b->id == NULL || b->ns == NULL || b->context == NULL ||
		    b->product == NULL || b->st[SRC] == NULL || b->st[SNK] ==
		    NULL || b->st[INS] == NULL) {
			diag_pos(d, DIAG_ERROR, o->path, 0, 0, "a CFK build of "
			    "the plan lacks its statements or names");
			a->n--;
			continue;
		}
		read_build(b, o, d);
		if (d->nfatal > 0)
			break;
	}
	return a;
}

/*
 * Wait, up to o->wait_s (one read when 0), for CMF to take generation
 * gen of kind/name: with completed, status.phase COMPLETED; otherwise
 * cmfSync.status Created.  Returns 1 when it did, 0 when the time ran
 * out, -1 after an error in d (CMF reports a failure).
 */
static int
await(const struct cb *b, const struct kube_apply_opts *o,
    const char *kind, const char *name, json_int_t gen, int completed,
    struct diags *d)
{
	time_t end = time(NULL) + o->wait_s;
	json_t *live = NULL, *st;
	const char *sync, *cfk, *phase;
	char *msg;
	const char *kn = strcmp(kind, "flinkstatement") == 0 ?
	    "FlinkStatement" : "FlinkComputePool";
	struct diags q;
	int got, done;

	for (;;) {
		diags_init(&q);
		got = kube_get(&b->k, kind, b->ns, name, &live, &q);
		diags_release(&q);
		st = json_object_get(live, "status");
		sync = jstr(json_object_get(st, "cmfSync"), "status");
		cfk = jstr(st, "cfkInternalState");
		phase = jstr(st, "phase");
		if (got == 1 && ((sync != NULL && strcmp(sync, "Failed") ==
		    0) || (cfk != NULL && strcmp(cfk, "FAILED") == 0))) {
			msg = esc(jstr(json_object_get(st, "cmfSync"),
			    "errorMessage"));
			diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': %s "
			    "%s/%s: CFK could not sync it with CMF (cmfSync."
			    "status Failed): %s", b->id, kn, b->ns, name, msg);
			free(msg);
			json_decref(live);
			return -1;
		}
		if (got == 1 && phase != NULL && (strcmp(phase, "FAILED") ==
		    0 || strcmp(phase, "FAILING") == 0)) {
			msg = esc(jstr(st, "detail"));
			diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': %s "
			    "%s/%s: CMF reports phase %s: %s", b->id, kn,
			    b->ns, name, phase, msg);
			free(msg);
			json_decref(live);
			return -1;
		}
		done = got == 1 && json_integer_value(json_object_get(st,
		    "observedGeneration")) >= gen && (completed ? phase !=
		    NULL && strcmp(phase, "COMPLETED") == 0 : sync != NULL &&
		    strcmp(sync, "Created") == 0);
		json_decref(live);
		live = NULL;
		if (done)
			return 1;
		if (time(NULL) + KUBE_APPLY_POLL_S > end)
			return 0;
		sleep(KUBE_APPLY_POLL_S);
	}
}

/* Server-side apply of r; its generation, or -1 after an error. */
static json_int_t
put(const struct cb *b, const json_t *r, struct diags *d)
{
	json_t *live = NULL;
	json_int_t gen;

	if (kube_apply(&b->k, r, &live, d) == -1)
		return -1;
	gen = json_integer_value(json_object_get(json_object_get(live,
	    "metadata"), "generation"));
	json_decref(live);
	return gen;
}

/*
 * Stop (stop != 0: spec.stopped true) or delete the FlinkStatement it,
 * one the build owns as read before any write, with its uid as read for
 * a precondition, so that the object changed is the one read: a JSON
 * patch whose first operation tests /metadata/uid (RFC 6902: the patch
 * fails whole when it differs), or a DELETE whose DeleteOptions carry
 * preconditions.uid (kubectl delete --raw sends its --filename as the
 * body; kubectl delete has no precondition flag).  The API server
 * refuses either (422, 409) when the object of that name is another
 * one now.  0, or -1 after an error in d.
 */
static int
touch(const struct cb *b, int stop, const json_t *it,
    const struct kube_apply_opts *o, struct diags *d)
{
	const char *name = jstr2(it, "metadata", "name");
	const char *uid = jstr2(it, "metadata", "uid");
	char *nsf = xasprintf("--namespace=%s", b->ns), *body = NULL, *pf,
	    *raw = NULL, *why, *shown;
	json_t *p;
	struct kube_run r;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	if (uid == NULL || *uid == '\0' || !k8s_dns_subdomain(name, 253)) {
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
		    "FlinkStatement %s/%s: no uid (metadata.uid) or name read "
		    "to make its %s conditional on: not touched", b->id, b->ns,
		    k8s_dns_subdomain(name, 253) ? name : "(not a name)",
		    stop ? "stop" : "delete");
		goto out;
	}
	if (stop) {
		p = json_pack("[{s:s, s:s, s:s}, {s:s, s:s, s:b}]", "op",
		    "test", "path", "/metadata/uid", "value", uid, "op", "add",
		    "path", "/spec/stopped", "value", 1);
		body = json_dumps(p, JSON_COMPACT);
		json_decref(p);
		pf = xasprintf("--patch=%s", body);
		{
			const char *args[] = { "patch", nsf,
			    "--field-manager=fluid", "--type=json", pf, "--",
			    "flinkstatement", name, NULL };

			rc = kube_exec(&b->k, args, NULL, 0, &r);
		}
		free(pf);
	} else {
		p = json_pack("{s:s, s:s, s:{s:s}}", "apiVersion", "v1", "kind",
		    "DeleteOptions", "preconditions", "uid", uid);
		body = json_dumps(p, JSON_COMPACT);
		json_decref(p);
		raw = xasprintf("--raw=/apis/%s/namespaces/%s/flinkstatements/"
		    "%s", CFK_API_VERSION, b->ns, name);
		{
			const char *args[] = { "delete", raw, "--filename=-",
			    NULL };

			rc = kube_exec(&b->k, args, body, strlen(body), &r);
		}
		/* Gone already, as --ignore-not-found would take it. */
		if (rc == -1 && r.err.len > 0 && strstr(r.err.buf,
		    "(NotFound)") != NULL)
			rc = 0;
	}
	if (rc == -1) {
		why = esc(r.err.len > 0 ? r.err.buf : "(kubectl said nothing)");
		shown = esc(uid);
		diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': cannot %s "
		    "FlinkStatement %s/%s (uid %s, as read): %s", b->id, stop ?
		    "stop" : "delete", b->ns, name, shown, why);
		free(shown);
		free(why);
	}
out:
	kube_run_release(&r);
	free(body);
	free(raw);
	free(nsf);
	return rc;
}

static int
write_build(struct cb *b, const struct kube_apply_opts *o, struct diags *d)
{
	const char *n;
	const json_t *it;
	json_int_t gen;
	size_t i;
	int j, got;

	if (b->pool != NULL) {
		n = jstr2(b->pool, "metadata", "name");
		if ((gen = put(b, b->pool, d)) == -1 ||
		    (got = await(b, o, "flinkcomputepool", n, gen, 0, d)) == -1)
			return -1;
		say(o, "FlinkComputePool %s/%s: %s", b->ns, n, got ? "synced "
		    "with CMF" : "written, not yet synced with CMF");
	}
	/* The tables exist before the INSERT names them. */
	for (j = SRC; j <= SNK; j++) {
		n = jstr2(b->st[j], "metadata", "name");
		if ((gen = put(b, b->st[j], d)) == -1 ||
		    (got = await(b, o, "flinkstatement", n, gen, 1, d)) == -1)
			return -1;
		if (!got) {
			diag_pos(d, DIAG_ERROR, o->path, 0, 0, "build '%s': "
			    "FlinkStatement %s/%s (%s) is not COMPLETED within "
			    "%d s: the INSERT is not applied; see its status "
			    "with kubectl and apply again", b->id, b->ns, n,
			    roles[j], o->wait_s);
			return -1;
		}
		say(o, "FlinkStatement %s/%s: COMPLETED", b->ns, n);
	}
	/* One job writes the table: the old INSERT stops first. */
	json_array_foreach(b->old[INS], i, it) {
		n = jstr2(it, "metadata", "name");
		if (json_object_get(json_object_get(it, "spec"), "stopped") !=
		    json_true() && touch(b, 1, it, o, d) == -1)
			return -1;
		say(o, "FlinkStatement %s/%s: stopped (spec.stopped: true)",
		    b->ns, n);
	}
	n = jstr2(b->st[INS], "metadata", "name");
	if ((gen = put(b, b->st[INS], d)) == -1 ||
	    (got = await(b, o, "flinkstatement", n, gen, 0, d)) == -1)
		return -1;
	if (got)
		say(o, "FlinkStatement %s/%s: synced with CMF", b->ns, n);
	else
		diag_pos(d, DIAG_WARNING, o->path, 0, 0, "build '%s': "
		    "FlinkStatement %s/%s: not synced with CMF within %d s "
		    "(cmfSync.status not Created): written, not known to run; "
		    "see its FlinkDeployment's status.jobStatus.state",
		    b->id, b->ns, n, o->wait_s);
	/* The old ones, in the reverse of the order they were applied. */
	for (j = INS; j >= SRC; j--)
		json_array_foreach(b->old[j], i, it) {
			n = jstr2(it, "metadata", "name");
			if (touch(b, 0, it, o, d) == -1)
				return -1;
			say(o, "FlinkStatement %s/%s: deleted", b->ns, n);
		}
	return 0;
}

int
kube_cfk_write(struct kube_cfk *a, const struct kube_apply_opts *o,
    struct diags *d)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (write_build(&a->v[i], o, d) == -1)
			return -1;
	return 0;
}

void
kube_cfk_free(struct kube_cfk *a)
{
	size_t i;
	int j;

	if (a == NULL)
		return;
	for (i = 0; i < a->n; i++)
		for (j = 0; j < NROLE; j++)
			json_decref(a->v[i].old[j]);
	free(a->v);
	free(a);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * plan_check.c - a plan made again from its bundle and compared with
 * itself (plan.h), and the API server's size limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "jget.h"
#include "ir.h"
#include "plan.h"
#include "pipeline.h"
#include "xalloc.h"

/* Longest place in the plan a message names. */
#define PLACE_MAX	240

/* A key of the plan as a message shows it: printable ASCII, else \xNN. */
static void
add_key(struct sb *s, const char *k)
{
	char hex[5];

	sb_addc(s, '.');
	for (; *k != '\0' && s->len < PLACE_MAX; k++)
		if ((unsigned char)*k >= 0x20 && (unsigned char)*k < 0x7f)
			sb_addc(s, *k);
		else {
			snprintf(hex, sizeof(hex), "\\x%02x", (unsigned char)*k);
			sb_adds(s, hex);
		}
}

/* head, then under (freed): a new string. */
static char *
place_join(struct sb *head, char *under)
{
	sb_adds(head, under);
	free(under);
	return head->buf;
}

/*
 * The first place a and b differ, as ".resources[1].resource.spec.image"
 * (a new string; "" when a and b themselves differ), or NULL when they
 * do not.  Only the place is named, never a value: a value of an
 * edited plan may be anything, a credential included.
 */
static char *
differ(const json_t *a, const json_t *b)
{
	struct sb head;
	const char *k;
	json_t *v;
	char *under;
	size_t i;

	sb_init(&head);
	sb_adds(&head, "");
	if (json_typeof(a) != json_typeof(b))
		return head.buf;
	if (json_is_object(a)) {
		json_object_foreach((json_t *)a, k, v)
			if ((under = json_object_get(b, k) == NULL ?
			    xstrdup("") : differ(v, json_object_get(b, k))) !=
			    NULL) {
				add_key(&head, k);
				return place_join(&head, under);
			}
		json_object_foreach((json_t *)b, k, v)
			if (json_object_get(a, k) == NULL) {
				add_key(&head, k);
				return head.buf;
			}
		sb_release(&head);
		return NULL;
	}
	if (json_is_array(a)) {
		for (i = 0; i < json_array_size(a) || i < json_array_size(b);
		    i++) {
			if (i >= json_array_size(a) || i >= json_array_size(b))
				under = xstrdup("");
			else if ((under = differ(json_array_get(a, i),
			    json_array_get(b, i))) == NULL)
				continue;
			sb_addf(&head, "[%zu]", i);
			return place_join(&head, under);
		}
		sb_release(&head);
		return NULL;
	}
	if (json_equal(a, b)) {
		sb_release(&head);
		return NULL;
	}
	return head.buf;
}

/*
 * differ() on the plans' content: the digests agree when the content
 * does (plan_remake() checked the plan's own), so the place named is
 * the field that was edited, not a digest that followed it.
 */
static char *
differ_content(const json_t *a, const json_t *b)
{
	json_t *x = k8s_plan_content(a), *y = k8s_plan_content(b);
	char *place = differ(x, y);

	json_decref(x);
	json_decref(y);
	if (place == NULL && !json_equal(a, b))
		place = xstrdup(".digest");
	return place;
}

/* The plan's own actions on remade's resources, where they are actions. */
static void
copy_actions(const json_t *plan, json_t *remade)
{
	json_t *mine = json_object_get(remade, "resources");
	json_t *theirs = json_object_get(plan, "resources"), *e;
	const char *a;
	size_t i;

	if (json_array_size(mine) != json_array_size(theirs))
		return;
	json_array_foreach(theirs, i, e) {
		a = jstr2(e, "action", NULL);
		/* Whether it is new is the cluster's to say; any of these. */
		if (a != NULL && (strcmp(a, "new") == 0 ||
		    strcmp(a, "changed") == 0 || strcmp(a, "unchanged") == 0))
			json_object_set_new(json_array_get(mine, i), "action",
			    json_string(a));
	}
}

/*
 * The stages fluid plan ran, on the bundle: a new document up to the
 * k8s section, or NULL with why (a new string).
 */
static json_t *
render_bundle(const json_t *bundle, char **why)
{
	json_t *doc = ir_new(), *res;
	char digest[DIGEST_STRLEN];
	struct pipeline p;
	const struct diags *d;
	const char *first = NULL;
	size_t n = 0, i;
	int s;

	*why = NULL;
	digest_json(json_object_get(bundle, "document"), digest);
	res = json_pack("{s:s, s:O?, s:O, s:s}", "kind", "contract",
	    "schemaVersion", json_object_get(bundle, "schemaVersion"),
	    "document", json_object_get(bundle, "document"), "digest", digest);
	ir_add_stage(doc, "resolve", res);
	memset(&p, 0, sizeof(p));
	pipeline_run(&p, STAGE_CHECK, STAGE_K8S, &doc);
	for (s = 0; s < p.nsteps; s++) {
		d = &p.step[s].d;
		n += d->nerrors + d->nfatal;
		for (i = 0; i < d->n && first == NULL; i++)
			if (d->v[i].level != DIAG_WARNING)
				first = d->v[i].msg;
	}
	if (n > 0) {
		*why = xasprintf("%zu error%s; the first: %s", n,
		    n == 1 ? "" : "s", first != NULL ? first : "(none)");
		json_decref(doc);
		doc = NULL;
	}
	pipeline_release(&p);
	return doc;
}

json_t *
plan_bundle_body(const json_t *bundle, enum k8s_mode mode, char **why)
{
	json_t *doc, *body;

	if ((doc = render_bundle(bundle, why)) == NULL)
		return NULL;
	body = k8s_plan_body(doc, mode, NULL);
	json_decref(doc);
	return body;
}

json_t *
plan_remake(const json_t *plan, enum k8s_mode mode, const char *path,
    struct diags *d)
{
	return plan_remake_from(plan, mode, NULL, path, d);
}

json_t *
plan_remake_from(const json_t *plan, enum k8s_mode mode, json_t *body,
    const char *path, struct diags *d)
{
	const json_t *bundle = json_object_get(plan, "bundle");
	const json_t *m = json_object_get(plan, "mode");
	const char *got = jstr2(plan, "digest", NULL);
	enum k8s_mode pm;
	const char *why;
	char want[DIGEST_STRLEN], *msg, *place;
	json_t *remade;

	if (!json_is_object(plan) ||
	    json_integer_value(json_object_get(plan, "fluidPlan")) != 1) {
		diag_fatal(d, "'%s' is not a plan (fluidPlan 1): apply reads "
		    "the output of fluid plan or fluid-k8s plan%s", path,
		    json_is_integer(json_object_get(plan, "fluidIR")) ? ", "
		    "not a pipeline document: run it through fluid-k8s plan "
		    "--mode MODE first" : "");
		goto refused;
	}
	if (!json_is_string(m) || k8s_mode_parse(json_string_value(m), &pm,
	    &why) == -1) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "the plan's mode is %s: "
		    "fluid plan writes one of amend, amend-and-build, "
		    "create-only or dry-run; make the plan again",
		    json_is_string(m) ? "not a mode" : m == NULL ? "missing" :
		    "not a string");
		goto refused;
	}
	k8s_plan_digest(plan, want);
	if (got == NULL || strcmp(got, want) != 0) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "the plan's digest %s is "
		    "not its content's (%s): it was edited after fluid plan "
		    "wrote it; make the plan again", got && strlen(got) ==
		    DIGEST_STRLEN - 1 && strncmp(got, "sha256:", 7) == 0 ?
		    got : "(not a digest)", want);
		goto refused;
	}
	if (pm != mode) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "the plan was made for "
		    "--mode %s, not %s: use the same mode for plan and apply",
		    k8s_mode_name(pm), k8s_mode_name(mode));
		goto refused;
	}
	if (!json_is_object(bundle) ||
	    !json_is_object(json_object_get(bundle, "document"))) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "the plan carries no "
		    "bundle (the contract it was made from): apply renders "
		    "the resources again from it; make the plan again with "
		    "this fluid");
		goto refused;
	}
	/* The bundle is the plan writer's: bounded like any contract. */
	if ((msg = plan_bundle_unbounded(json_object_get(bundle,
	    "document"))) != NULL) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "the plan's bundle is past "
		    "a limit of a contract (%s): fluid validate would refuse "
		    "it; not rendered", msg);
		free(msg);
		goto refused;
	}
	if ((remade = body) == NULL &&
	    (remade = plan_bundle_body(bundle, mode, &msg)) == NULL) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "the plan's bundle does "
		    "not check (%s): it is not what fluid plan wrote", msg);
		free(msg);
		return NULL;
	}
	copy_actions(plan, remade);
	k8s_plan_seal(remade);
	if ((place = differ_content(plan, remade)) != NULL) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "the plan's %s is not what "
		    "fluid renders from the plan's bundle: the plan was edited "
		    "after fluid plan wrote it; make the plan again",
		    *place != '\0' ? place + 1 : "content");
		free(place);
		json_decref(remade);
		return NULL;
	}
	return remade;
refused:
	json_decref(body);
	return NULL;
}

/* The bytes of v as the API server is sent it (compact JSON). */
static size_t
json_size(const json_t *v)
{
	return json_dumpb(v, NULL, 0, JSON_COMPACT);
}

/* One object against the limits; data counted as the API server does. */
static void
size_one(const json_t *r, const char *what, const char *path,
    struct diags *d)
{
	const char *k, *kind = jstr2(r, "kind", NULL);
	size_t n = json_size(r), data = 0;
	json_t *v;

	if (kind != NULL && strcmp(kind, "ConfigMap") == 0) {
		json_object_foreach(json_object_get(r, "data"), k, v)
			data += strlen(k) + (json_is_string(v) ?
			    json_string_length(v) : 0);
		if (data > PLAN_CONFIGMAP_DATA_MAX)
			diag_pos(d, DIAG_ERROR, path, 0, 0, "%s: its data is "
			    "%zu bytes, over the API server's limit of %u for "
			    "a ConfigMap: nothing written", what, data,
			    PLAN_CONFIGMAP_DATA_MAX);
	}
	if (n > PLAN_OBJECT_MAX)
		diag_pos(d, DIAG_ERROR, path, 0, 0, "%s is %zu bytes, over "
		    "the API server's limit of %u for an object: nothing "
		    "written", what, n, PLAN_OBJECT_MAX);
}

void
plan_sizes(const json_t *plan, json_t *(*record)(const json_t *,
    const json_t *, const json_t *), const char *path, struct diags *d)
{
	json_t *e, *r, *b, *cm, *fd;
	const char *kind, *name;
	char *what;
	size_t i;

	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		kind = jstr2(r, "kind", NULL);
		name = jstr2(r, "metadata", "name");
		what = xasprintf("%s %s", kind ? kind : "resource",
		    name ? name : "(no name)");
		size_one(r, what, path, d);
		free(what);
	}
	if (record == NULL)
		return;
	json_array_foreach(json_object_get(plan, "builds"), i, b) {
		cm = plan_resource(plan, "ConfigMap", jstr2(b, "configMap",
		    NULL));
		fd = plan_resource(plan, "FlinkDeployment", jstr2(b,
		    "flinkDeployment", NULL));
		if (cm == NULL || fd == NULL)
			continue;
		r = record(plan, cm, fd);
		what = xasprintf("the last-applied record %s of build '%s'",
		    jstr2(r, "metadata", "name") ? jstr2(r, "metadata",
		    "name") : "", jstrz(b, "build"));
		size_one(r, what, path, d);
		free(what);
		json_decref(r);
	}
}

/*
 * fluid_apply.c - fluid apply PLAN --mode M [--yes], a command of the
 * driver (fluid.c) in a file of its own: the one part of fluid that
 * writes to a cluster, and so the one that includes kube.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>

#include "fluid.h"
#include "kube.h"
#include "kube_record.h"
#include "net.h"
#include "cli.h"
#include "fluid_cmd.h"
#include "fluid_gateway.h"

/*
 * fluid apply PLAN --mode M [--yes] (fluid(1), APPLY; fluid-k8s(1),
 * APPLYING): the plan checked offline first (its digests, its mode, the
 * allowlists, --yes), then, per build, every resource read before any
 * is written, and the writes in order through kubectl (kube.h).
 */

/* A string inside v, by keys (NULL-terminated), or NULL. */
static const char *
apply_str(const json_t *v, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, v);
	while ((k = va_arg(ap, const char *)) != NULL)
		v = json_object_get(v, k);
	va_end(ap);
	return json_string_value(v);
}

/* The plan's resource of this kind and name (borrowed), or NULL. */
static json_t *
apply_resource(const json_t *plan, const char *kind, const char *name)
{
	json_t *e, *r;
	size_t i;

	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		if (apply_str(r, "kind", NULL) != NULL && name != NULL &&
		    apply_str(r, "metadata", "name", NULL) != NULL &&
		    strcmp(apply_str(r, "kind", NULL), kind) == 0 &&
		    strcmp(apply_str(r, "metadata", "name", NULL), name) == 0)
			return r;
	}
	return NULL;
}

/* The plan's "targets" entry of build id (borrowed), or NULL. */
static json_t *
apply_targets(const json_t *plan, const char *id)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(plan, "targets"), i, t)
		if (id != NULL && apply_str(t, "build", NULL) != NULL &&
		    strcmp(apply_str(t, "build", NULL), id) == 0)
			return t;
	return NULL;
}

/*
 * Whether the plan still is what fluid plan wrote: its own digest, the
 * plan-digest annotation, and per build the script's digest (the
 * ConfigMap's data, its name, both annotations, the volume).  Each
 * mismatch is an error in d, placed at path.
 */
static void
apply_check_plan(const json_t *plan, const char *path, struct diags *d)
{
	char want[DIGEST_STRLEN], sql[DIGEST_STRLEN];
	const char *got = apply_str(plan, "digest", NULL), *id, *s, *fdn, *cmn;
	json_t *b, *cm, *fd, *vol;
	char *key;
	size_t i;

	k8s_plan_digest(plan, want);
	if (got == NULL || strcmp(got, want) != 0) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "the plan's digest %s is "
		    "not its content's (%s): it was edited after fluid plan "
		    "wrote it; make the plan again", got ? got : "(none)",
		    want);
		return;
	}
	json_array_foreach(json_object_get(plan, "builds"), i, b) {
		id = apply_str(b, "build", NULL);
		fdn = apply_str(b, "flinkDeployment", NULL);
		cmn = apply_str(b, "configMap", NULL);
		fd = apply_resource(plan, "FlinkDeployment", fdn);
		cm = apply_resource(plan, "ConfigMap", cmn);
		if (id == NULL || fd == NULL || cm == NULL ||
		    apply_targets(plan, id) == NULL) {
			diag_pos(d, DIAG_ERROR, path, 0, 0, "builds[%zu] does "
			    "not name a ConfigMap, a FlinkDeployment and "
			    "targets of the plan", i);
			continue;
		}
		s = apply_str(fd, "metadata", "annotations", K8S_ANN_PLAN,
		    NULL);
		if (s == NULL || strcmp(s, want) != 0)
			diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': the "
			    "FlinkDeployment's %s is not the plan's digest",
			    id, K8S_ANN_PLAN);
		key = xasprintf("%s.sql", id);
		s = apply_str(cm, "data", key, NULL);
		free(key);
		if (s == NULL) {
			diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': the "
			    "ConfigMap has no script", id);
			continue;
		}
		digest_bytes(s, strlen(s), sql);
		s = apply_str(cm, "metadata", "annotations", K8S_ANN_SQL, NULL);
		vol = json_array_get(json_object_get(json_object_get(
		    json_object_get(json_object_get(fd, "spec"), "podTemplate"),
		    "spec"), "volumes"), 0);
		if (s == NULL || strcmp(s, sql) != 0 ||
		    (s = apply_str(fd, "metadata", "annotations", K8S_ANN_SQL,
		    NULL)) == NULL || strcmp(s, sql) != 0 ||
		    strlen(cmn) < 12 ||
		    strncmp(cmn + strlen(cmn) - 12, sql + 7, 12) != 0 ||
		    (s = apply_str(vol, "configMap", "name", NULL)) == NULL ||
		    strcmp(s, cmn) != 0)
			diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': the "
			    "script's digest %s is not the one its ConfigMap's "
			    "name, annotations and volume carry", id, sql);
	}
}

/* A refusal of allow_check() as an error placed at the plan. */
static void
apply_refusals(struct allow_refusals *r, const char *path, const char *id,
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
 * The allowlists (allow.h), for every build, before anything else
 * (a dry run included): what the resources will use and what the job
 * contacts.  Every refusal is an error in d.
 */
static void
apply_check_allow(const json_t *plan, const char *path, struct diags *d)
{
	struct allow al;
	struct allow_refusals r;
	struct allow_targets t;
	struct allow_target *sec, *ep, *kv;
	json_t *b, *fd, *tg, *v, *h, *pod;
	const char *id, *url;
	size_t i, j, n;

	warn_dotenv(".env");
	allow_load(&al, getenv);
	allow_refusals_init(&r);
	json_array_foreach(json_object_get(plan, "builds"), i, b) {
		id = apply_str(b, "build", NULL);
		fd = apply_resource(plan, "FlinkDeployment",
		    apply_str(b, "flinkDeployment", NULL));
		tg = apply_targets(plan, id);
		memset(&t, 0, sizeof(t));
		t.context = (struct allow_target){ apply_str(b, "context",
		    NULL), "deployment.context" };
		t.ns = (struct allow_target){ apply_str(fd, "metadata",
		    "namespace", NULL), "deployment.namespace" };
		t.image = (struct allow_target){ apply_str(fd, "spec", "image",
		    NULL), "deployment.image" };
		t.service_account = (struct allow_target){ apply_str(fd,
		    "spec", "serviceAccount", NULL),
		    "deployment.serviceAccount" };
		pod = json_array_get(json_object_get(json_object_get(
		    json_object_get(json_object_get(fd, "spec"), "podTemplate"),
		    "spec"), "containers"), 0);
		/* Every Secret and host is checked: no fixed limit. */
		sec = xcalloc(json_array_size(json_object_get(pod,
		    "envFrom")) + 1, sizeof(*sec));
		ep = xcalloc(json_array_size(json_object_get(tg, "hosts")) + 1,
		    sizeof(*ep));
		n = 0;
		json_array_foreach(json_object_get(pod, "envFrom"), j, v)
			sec[n++] = (struct allow_target){ apply_str(v,
			    "secretRef", "name", NULL), "deployment.secretRefs" };
		t.secrets = sec;
		t.nsecrets = n;
		t.catalog.value = apply_str(tg, "catalog", NULL);
		t.token_endpoint.value = apply_str(tg, "tokenEndpoint", NULL);
		t.catalog_auth = (struct allow_target){ apply_str(tg,
		    "catalogAuth", NULL), "catalogAuth" };
		n = 0;
		json_array_foreach(json_object_get(tg, "hosts"), j, h) {
			url = apply_str(h, "url", NULL);
			if (url == NULL)
				continue;
			if (t.catalog.value != NULL &&
			    strcmp(url, t.catalog.value) == 0)
				t.catalog.where = apply_str(h, "path", NULL);
			else if (t.token_endpoint.value != NULL &&
			    strcmp(url, t.token_endpoint.value) == 0)
				t.token_endpoint.where = apply_str(h, "path",
				    NULL);
			else
				ep[n++] = (struct allow_target){ url,
				    apply_str(h, "path", NULL) };
		}
		if (t.catalog.where == NULL)
			t.catalog.where = "catalog";
		if (t.token_endpoint.where == NULL)
			t.token_endpoint.where = "catalogAuth.oauth2ServerUri";
		t.endpoints = ep;
		t.nendpoints = n;
		t.bootstrap_servers = (struct allow_target){ apply_str(tg,
		    "bootstrapServers", NULL), "source.bootstrapServers" };
		t.schema_registry = (struct allow_target){ apply_str(tg,
		    "schemaRegistryUrl", NULL), "source.schemaRegistryUrl" };
		t.product = apply_str(plan, "product", NULL);
		t.build = id;
		t.sql = (struct allow_target){ apply_str(tg, "sql", NULL),
		    "properties.sql" };
		/* Each Kafka credential variable, paired with every broker. */
		kv = xcalloc(json_array_size(json_object_get(tg,
		    "sourceSecretRefs")) + 1, sizeof(*kv));
		n = 0;
		json_array_foreach(json_object_get(tg, "sourceSecretRefs"), j,
		    v)
			kv[n++] = (struct allow_target){ json_string_value(v),
			    "source.security" };
		t.source_secrets = kv;
		t.nsource_secrets = n;
		allow_check(&al, ALLOW_CMD_APPLY, &t, &r);
		apply_refusals(&r, path, id, d);
		free(sec);
		free(ep);
		free(kv);
	}
	allow_refusals_release(&r);
	allow_release(&al);
}

/*
 * Whether live has every field of want with want's value (numbers
 * compared as numbers: the API server writes 1 for 1.0): fields that
 * other managers or the server added do not count as a change.
 */
static int
apply_covers(const json_t *live, const json_t *want)
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
			if (!apply_covers(json_object_get(live, k), v))
				return 0;
		return 1;
	}
	if (json_is_array(want)) {
		if (!json_is_array(live) ||
		    json_array_size(live) != json_array_size(want))
			return 0;
		json_array_foreach(want, i, v)
			if (!apply_covers(json_array_get(live, i), v))
				return 0;
		return 1;
	}
	return json_equal(live, want);
}

/*
 * Whether obj (read from the cluster) carries fluid's labels for this
 * product and build; if not, an error names what it carries.
 */
static int
apply_owned(const json_t *obj, const char *product, const char *id,
    const char *path, struct diags *d)
{
	const json_t *l = json_object_get(json_object_get(obj, "metadata"),
	    "labels");
	const char *by = apply_str(l, K8S_LABEL_MANAGED_BY, NULL);
	const char *name = apply_str(l, K8S_LABEL_NAME, NULL);
	const char *build = apply_str(l, K8S_LABEL_BUILD, NULL);

	if (by != NULL && strcmp(by, K8S_MANAGER) == 0 && name != NULL &&
	    product != NULL && strcmp(name, product) == 0 && build != NULL &&
	    strcmp(build, id) == 0)
		return 1;
	diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': %s %s/%s exists "
	    "and is not fluid's for product '%s' build '%s' (its labels: "
	    "%s=%s, %s=%s, %s=%s): not touched", id,
	    apply_str(obj, "kind", NULL),
	    apply_str(obj, "metadata", "namespace", NULL),
	    apply_str(obj, "metadata", "name", NULL), product ? product : "",
	    id, K8S_LABEL_MANAGED_BY, by ? by : "(none)", K8S_LABEL_NAME,
	    name ? name : "(none)", K8S_LABEL_BUILD, build ? build : "(none)");
	return 0;
}

/*
 * Whether the operator reports that the job's last savepoint failed:
 * status.error set while a savepoint is pending
 * (status.jobStatus.savepointInfo.triggerId) or an upgrade is
 * (status.reconciliationStatus.state UPGRADING), or status.error
 * naming a savepoint ("savepoint", "Savepoint").  A new spec then could start the job without
 * its state; fluid leaves it to the operator to resolve.
 */
static const char *
apply_savepoint_failed(const json_t *live)
{
	const json_t *st = json_object_get(live, "status");
	const char *err = apply_str(st, "error", NULL), *trig, *rec;

	if (err == NULL || *err == '\0')
		return NULL;
	trig = apply_str(st, "jobStatus", "savepointInfo", "triggerId", NULL);
	rec = apply_str(st, "reconciliationStatus", "state", NULL);
	if ((trig != NULL && *trig != '\0') ||
	    (rec != NULL && strcmp(rec, "UPGRADING") == 0) ||
	    strstr(err, "avepoint") != NULL)
		return err;
	return NULL;
}

/* One build of the plan, as read from the cluster before any write. */
struct apply_build {
	const char	*id, *ns, *context;
	json_t		*cm, *fd;	/* borrowed: the plan's */
	struct kube	 k;
};

/*
 * Read what the build would write and refuse what the mode does not
 * allow.  Errors in d (fatal ones when the cluster is not reached).
 */
static void
apply_read(const json_t *plan, enum k8s_mode mode, struct apply_build *ab,
    const char *path, struct diags *d)
{
	const char *product = apply_str(plan, "product", NULL);
	const char *fdn = apply_str(ab->fd, "metadata", "name", NULL);
	const char *cmn = apply_str(ab->cm, "metadata", "name", NULL);
	const char *was, *now, *why;
	json_t *live_fd = NULL, *live_cm = NULL, *live_rec = NULL;
	char *recn = xasprintf("%s-fluid-last-applied", fdn);
	int has_fd, has_cm, has_rec;

	if (kube_init(&ab->k, ab->context, getenv, d) == -1)
		goto out;
	if ((has_fd = kube_get(&ab->k, "flinkdeployment", ab->ns, fdn,
	    &live_fd, d)) == -1 || (has_cm = kube_get(&ab->k, "configmap",
	    ab->ns, cmn, &live_cm, d)) == -1 || (has_rec = kube_get(&ab->k,
	    "configmap", ab->ns, recn, &live_rec, d)) == -1)
		goto out;
	if ((has_fd && !apply_owned(live_fd, product, ab->id, path, d)) |
	    (has_cm && !apply_owned(live_cm, product, ab->id, path, d)) |
	    (has_rec && !apply_owned(live_rec, product, ab->id, path, d)))
		goto out;
	if (!has_fd)
		goto out;		/* a new deployment: every mode creates it */
	if (mode == K8S_CREATE_ONLY) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': "
		    "FlinkDeployment %s/%s exists: create-only creates, never "
		    "changes; use amend or amend-and-build", ab->id, ab->ns,
		    fdn);
		goto out;
	}
	was = apply_str(live_fd, "metadata", "annotations", K8S_ANN_SQL, NULL);
	now = apply_str(ab->fd, "metadata", "annotations", K8S_ANN_SQL, NULL);
	if (mode == K8S_AMEND && (was == NULL || strcmp(was, now) != 0)) {
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': the script "
		    "changed (%s %s -> %s): amend keeps the running script; "
		    "amend-and-build deploys a new one", ab->id, K8S_ANN_SQL,
		    was ? was : "(none)", now);
		goto out;
	}
	if (!apply_covers(json_object_get(live_fd, "spec"),
	    json_object_get(ab->fd, "spec")) &&
	    (why = apply_savepoint_failed(live_fd)) != NULL)
		diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': "
		    "FlinkDeployment %s/%s: the operator reports a failed "
		    "savepoint (status.error: %s): fluid changes no job "
		    "whose state could be lost; resolve it with the operator "
		    "first", ab->id, ab->ns, fdn, why);
out:
	json_decref(live_fd);
	json_decref(live_cm);
	json_decref(live_rec);
	free(recn);
}

/* The writes of one build, in order; prints what the job now is. */
static void
apply_write(const json_t *plan, struct apply_build *ab, struct diags *d)
{
	json_t *live = NULL, *rec;
	const char *state;

	if (kube_apply(&ab->k, ab->cm, NULL, d) == -1)
		return;
	/* The ConfigMap exists before the FlinkDeployment names it. */
	if (kube_apply(&ab->k, ab->fd, &live, d) == -1)
		return;
	state = apply_str(live, "spec", "job", "state", NULL);
	rec = kube_record_make(plan, ab->cm, ab->fd);
	if (kube_apply(&ab->k, rec, NULL, d) == 0)
		printf("FlinkDeployment %s/%s: %s\n", ab->ns,
		    apply_str(ab->fd, "metadata", "name", NULL),
		    state ? state : "(no state)");
	json_decref(rec);
	json_decref(live);
}

static int
apply_status(struct diags *d, enum diag_format fmt)
{
	int st;

	diag_print(d, stderr, fmt, "fluid");
	st = diag_status(d);
	diags_release(d);
	diags_init(d);
	return st;
}

int
cmd_apply(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "diagnostics", required_argument, NULL, 'D' },
		{ "mode", required_argument, NULL, 'm' },
		{ "yes", no_argument, NULL, 'y' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli cli = { fluid_usage, DIAG_FORMAT_TEXT };
	struct apply_build *abs;
	struct diags d;
	enum k8s_mode mode;
	const char *modestr = NULL, *why, *path;
	json_error_t err;
	json_t *plan, *b, *e;
	size_t i, n;
	int c, idx, yes = 0, st;

	/* --target: through a SQL Gateway (fluid-gateway(1)), not kubectl. */
	for (i = 1; i < (size_t)argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--target") == 0 ||
		    strncmp(argv[i], "--target=", 9) == 0) {
			if (net_init() == -1)
				fl_fatal("cannot initialise libcurl");
			return gateway_apply(argc, argv, fluid_usage);
		}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, &idx)) != -1) {
		switch (c) {
		case 'D':
			cli_common(&cli, "diagnostics", optarg);
			break;
		case 'm':
			modestr = optarg;
			break;
		case 'y':
			yes = 1;
			break;
		case 'h':
			cli_common(&cli, "help", NULL);
			break;
		default:
			cli_bad_option(&cli, argv, c);
		}
	}
	if (optind != argc - 1)
		cli_usage_error(&cli, "apply expects one PLAN");
	path = argv[optind];
	if (modestr == NULL)
		cli_usage_error(&cli, "apply needs --mode: the plan's mode");
	if (k8s_mode_parse(modestr, &mode, &why) == -1) {
		if (strcmp(modestr, "replace") != 0 &&
		    strcmp(modestr, "reset") != 0)
			cli_usage_error(&cli, "--mode %s %s", modestr, why);
		fl_warnx("--mode %s %s", modestr, why);
		return EXIT_REFUSED;
	}
	if ((plan = json_load_file(path, JSON_REJECT_DUPLICATES, &err)) == NULL)
		fl_fatal("cannot read '%s': %d:%d: %s", path, err.line,
		    err.column, err.text);
	if (json_integer_value(json_object_get(plan, "fluidPlan")) != 1 ||
	    !json_is_array(json_object_get(plan, "builds")))
		fl_fatal("'%s' is not a plan of fluid plan (fluidPlan 1)",
		    path);
	diags_init(&d);
	abs = NULL;
	apply_check_plan(plan, path, &d);
	if ((st = apply_status(&d, cli.diagfmt)) != 0)
		goto out;
	if (strcmp(apply_str(plan, "mode", NULL), k8s_mode_name(mode)) != 0) {
		diag_pos(&d, DIAG_ERROR, path, 0, 0, "the plan was made for "
		    "--mode %s, not %s: use the same mode for plan and apply",
		    apply_str(plan, "mode", NULL), k8s_mode_name(mode));
		st = apply_status(&d, cli.diagfmt);
		goto out;
	}
	apply_check_allow(plan, path, &d);
	if ((st = apply_status(&d, cli.diagfmt)) != 0)
		goto out;
	if (mode == K8S_DRY_RUN) {
		/* No kubectl at all: the plan says everything. */
		json_array_foreach(json_object_get(plan, "resources"), i, e)
			printf("would apply %s %s/%s (%s)\n",
			    apply_str(e, "resource", "kind", NULL),
			    apply_str(e, "resource", "metadata", "namespace",
			    NULL), apply_str(e, "resource", "metadata", "name",
			    NULL), apply_str(e, "action", NULL));
		goto out;
	}
	if (!yes) {
		diag_pos(&d, DIAG_ERROR, path, 0, 0, "apply --mode %s writes "
		    "to the cluster: add --yes to do it, or see what it would "
		    "write with a dry-run plan", k8s_mode_name(mode));
		st = apply_status(&d, cli.diagfmt);
		goto out;
	}
	n = json_array_size(json_object_get(plan, "builds"));
	abs = xcalloc(n ? n : 1, sizeof(*abs));
	json_array_foreach(json_object_get(plan, "builds"), i, b) {
		abs[i].id = apply_str(b, "build", NULL);
		abs[i].context = apply_str(b, "context", NULL);
		abs[i].fd = apply_resource(plan, "FlinkDeployment",
		    apply_str(b, "flinkDeployment", NULL));
		abs[i].cm = apply_resource(plan, "ConfigMap",
		    apply_str(b, "configMap", NULL));
		abs[i].ns = apply_str(abs[i].fd, "metadata", "namespace", NULL);
		apply_read(plan, mode, &abs[i], path, &d);
		if (d.nfatal > 0)
			break;
	}
	/* Every build is read and allowed before the first write. */
	if ((st = apply_status(&d, cli.diagfmt)) == 0)
		for (i = 0; i < n && st == 0; i++) {
			apply_write(plan, &abs[i], &d);
			st = apply_status(&d, cli.diagfmt);
		}
out:
	free(abs);
	diags_release(&d);
	json_decref(plan);
	c = flush_stdout();
	return st != 0 ? st : c;
}

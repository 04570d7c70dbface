/*
 * fluid_diff.c - fluid diff CONTRACT --exit-on-drift [--out FILE], the
 * live half of fluid diff (fluid.c parses the command line; the offline
 * half, --baseline, stays there): it reads the cluster, so it includes
 * kube_drift.h, and nothing else of the driver does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fluid.h"
#include "kube_drift.h"
#include "cli.h"
#include "pipeline.h"
#include "fluid_cmd.h"

/* A string inside v, by two keys (b may be NULL), or NULL. */
static const char *
drift_str(const json_t *v, const char *a, const char *b)
{
	v = json_object_get(v, a);
	return json_string_value(b != NULL ? json_object_get(v, b) : v);
}

/* The plan's FlinkDeployment of build b (borrowed), or NULL. */
static const json_t *
drift_fd(const json_t *plan, const json_t *b)
{
	const char *name = drift_str(b, "flinkDeployment", NULL);
	json_t *e, *r;
	size_t i;

	json_array_foreach(json_object_get(plan, "resources"), i, e) {
		r = json_object_get(e, "resource");
		if (name != NULL && drift_str(r, "kind", NULL) != NULL &&
		    strcmp(drift_str(r, "kind", NULL), "FlinkDeployment") == 0 &&
		    drift_str(r, "metadata", "name") != NULL &&
		    strcmp(drift_str(r, "metadata", "name"), name) == 0)
			return r;
	}
	return NULL;
}

/*
 * The deployment-target allowlists (allow.h, ALLOW_CMD_DIFF: context,
 * namespace, image, service account, Secrets), for every build, before
 * any kubectl run: fluid reads no cluster it would not write to.
 */
static void
drift_check_allow(const json_t *plan, const char *path, struct diags *d)
{
	struct allow al;
	struct allow_refusals r;
	struct allow_targets t;
	struct allow_target *sec;
	const json_t *fd, *pod, *b, *v;
	const char *id;
	size_t i, j, n;

	warn_dotenv(".env");
	allow_load(&al, getenv);
	allow_refusals_init(&r);
	json_array_foreach(json_object_get(plan, "builds"), i, b) {
		id = drift_str(b, "build", NULL);
		fd = drift_fd(plan, b);
		memset(&t, 0, sizeof(t));
		t.context = (struct allow_target){ drift_str(b, "context",
		    NULL), "deployment.context" };
		t.ns = (struct allow_target){ drift_str(fd, "metadata",
		    "namespace"), "deployment.namespace" };
		t.image = (struct allow_target){ drift_str(fd, "spec", "image"),
		    "deployment.image" };
		t.service_account = (struct allow_target){ drift_str(fd,
		    "spec", "serviceAccount"), "deployment.serviceAccount" };
		pod = json_array_get(json_object_get(json_object_get(
		    json_object_get(json_object_get(fd, "spec"), "podTemplate"),
		    "spec"), "containers"), 0);
		sec = xcalloc(json_array_size(json_object_get(pod,
		    "envFrom")) + 1, sizeof(*sec));
		n = 0;
		json_array_foreach(json_object_get(pod, "envFrom"), j, v)
			sec[n++] = (struct allow_target){ drift_str(v,
			    "secretRef", "name"), "deployment.secretRefs" };
		t.secrets = sec;
		t.nsecrets = n;
		t.product = drift_str(plan, "product", NULL);
		t.build = id;
		allow_check(&al, ALLOW_CMD_DIFF, &t, &r);
		for (j = 0; j < r.n; j++)
			diag_pos(d, DIAG_ERROR, path, 0, 0, "build '%s': %s: %s",
			    id ? id : "", r.v[j].where, r.v[j].msg);
		allow_refusals_release(&r);
		allow_refusals_init(&r);
		free(sec);
	}
	allow_refusals_release(&r);
	allow_release(&al);
}

/* Print d, and the status it gives. */
static int
drift_status(struct diags *d, enum diag_format fmt)
{
	diag_print(d, stderr, fmt, "fluid");
	return diag_status(d);
}

int
diff_drift(const char *contract, const char *out, enum diag_format fmt)
{
	struct resolve_opts ro;
	struct diags d;
	struct kube k;
	json_t *doc, *plan, *builds, *b, *e, *res;
	size_t i, counts[3] = { 0, 0, 0 };
	const char *st_s;
	char *text;
	int st, drift = 0;

	memset(&ro, 0, sizeof(ro));
	ro.path = input_path(contract);
	if ((st = pipeline_run(&ro, fmt, PIPELINE_SQLGEN, &doc, "fluid")) != 0)
		return st;
	ir_keep_to_end(doc);	/* fluid exits after this */
	if (json_array_size(json_object_get(ir_section(doc, "sqlgen"),
	    "builds")) == 0)
		return no_managed_build(doc, fmt, "diff --exit-on-drift");
	if ((st = run_k8s(doc, fmt)) != 0)
		return st;
	/* The plan says each build's context, namespace and deployment. */
	plan = k8s_plan(doc, K8S_DRY_RUN, NULL);
	diags_init(&d);
	drift_check_allow(plan, contract, &d);
	if ((st = drift_status(&d, fmt)) != 0)
		goto out;
	builds = json_array();
	json_array_foreach(json_object_get(plan, "builds"), i, b) {
		if (kube_init(&k, drift_str(b, "context", NULL), getenv,
		    &d) == -1)
			break;
		e = kube_drift_build(&k, doc, drift_str(b, "build", NULL),
		    drift_str(b, "namespace", NULL),
		    drift_str(b, "flinkDeployment", NULL), &d);
		if (e == NULL)
			break;
		st_s = drift_str(e, "status", NULL);
		counts[strcmp(st_s, "clean") == 0 ? 0 :
		    strcmp(st_s, "pending") == 0 ? 1 : 2]++;
		json_array_append_new(builds, e);
	}
	/* One build without an answer is no answer: nothing printed. */
	if ((st = drift_status(&d, fmt)) != 0) {
		json_decref(builds);
		goto out;
	}
	drift = counts[2] > 0;
	res = json_pack("{s:i, s:s, s:{s:I, s:I, s:I}, s:o}", "fluidDrift", 1,
	    "contract", contract, "counts", "clean", (json_int_t)counts[0],
	    "pending", (json_int_t)counts[1], "drift", (json_int_t)counts[2],
	    "builds", builds);
	if (res == NULL || (text = k8s_json_text(res)) == NULL)
		fl_fatal("cannot write the drift answer as JSON");
	json_decref(res);
	if (out != NULL) {
		/* Never over a device, FIFO, link or directory: atomic.h. */
		if (atomic_write(out, text, strlen(text)) == -1) {
			if (errno == EEXIST || errno == EISDIR)
				fl_fatal("'%s' is not a regular file: not "
				    "replaced", out);
			fl_fatal("cannot write '%s':", out);
		}
		printf("wrote %s\n", out);
	} else
		fputs(text, stdout);
	free(text);
	st = flush_stdout();
	if (st == 0 && drift)
		st = EXIT_REFUSED;
out:
	diags_release(&d);
	json_decref(plan);
	return st;
}

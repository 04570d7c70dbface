/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_kube_record.c - the last-applied record (kube_record.h): made and
 * read back; each refusal of what the record may name; the data given
 * back only for the recorded digest; and drift's comparison both ways
 * (kube_drift.h).
 */
#include <stdlib.h>

#include "kube_drift.h"
#include "kube_record.h"
#include "tap.h"

static json_t *
cm(void)
{
	return json_pack("{s:s, s:s, s:{s:s, s:s, s:{s:s}}, s:b, s:{s:s}}",
	    "apiVersion", "v1", "kind", "ConfigMap", "metadata", "name",
	    "d-sql-0123456789ab", "namespace", "n", "annotations",
	    "fluid.dev/sql-digest", "sha256:0123456789ab", "immutable", 1,
	    "data", "b.sql", "INSERT INTO t SELECT 1;");
}

static json_t *
fd(void)
{
	return json_pack("{s:s, s:s, s:{s:s, s:s, s:{s:s}}, s:{s:{s:i}}}",
	    "apiVersion", "flink.apache.org/v1beta1", "kind",
	    "FlinkDeployment", "metadata", "name", "d", "namespace", "n",
	    "labels", "fluid.dev/build", "b", "spec", "job", "parallelism", 1);
}

/* The record of cm() and fd(), its resources.json edited by f. */
static json_t *
record(void (*f)(json_t *items))
{
	json_t *plan = json_pack("{s:s, s:s, s:s}", "digest", "sha256:aa",
	    "bundleDigest", "sha256:bb", "mode", "amend");
	json_t *c = cm(), *d = fd(), *rec, *list;
	char *text;

	rec = kube_record_make(plan, c, d);
	if (f != NULL) {
		list = json_loads(json_string_value(json_object_get(
		    json_object_get(rec, "data"), "resources.json")), 0, NULL);
		f(json_object_get(list, "items"));
		text = json_dumps(list, JSON_COMPACT);
		json_object_set_new(json_object_get(rec, "data"),
		    "resources.json", json_string(text));
		free(text);
		json_decref(list);
	}
	json_decref(plan);
	json_decref(c);
	json_decref(d);
	return rec;
}

static void
set_cm(json_t *items, const char *key, const char *v)
{
	json_object_set_new(json_object_get(json_array_get(items, 0),
	    "metadata"), key, json_string(v));
}

static void
cm_elsewhere(json_t *items) { set_cm(items, "namespace", "kube-system"); }
static void
cm_flag(json_t *items) { set_cm(items, "name", "--server=http://127.0.0.1:9"); }
static void
cm_other(json_t *items) { set_cm(items, "name", "e-sql-0123456789ab"); }
static void
fd_other(json_t *items)
{
	json_object_set_new(json_object_get(json_array_get(items, 1),
	    "metadata"), "name", json_string("e"));
}
static void
two_cms(json_t *items) { json_array_set(items, 1, json_array_get(items, 0)); }

/* Whether rec is refused, why containing want. */
static void
refused(json_t *rec, const char *want, const char *what)
{
	struct kube_record r;
	char *why = NULL;
	int rc = kube_record_read(rec, "n", "d", &r, &why);

	ok(rc == -1 && why != NULL && strstr(why, want) != NULL &&
	    r.cm == NULL, "refused: %s (%s)", what, why ? why : "accepted");
	free(why);
	json_decref(rec);
}

int
main(void)
{
	struct kube_record r;
	char *why = NULL, digest[DIGEST_STRLEN];
	json_t *rec = record(NULL), *c = cm(), *applied, *out, *live;
	const char *text;

	text = json_string_value(json_object_get(json_object_get(rec, "data"),
	    "resources.json"));
	ok(text != NULL && strstr(text, "INSERT INTO") == NULL &&
	    strstr(text, "\"dataDigest\"") != NULL,
	    "the record holds the data's digest, not the script");
	is_str(json_string_value(json_object_get(json_object_get(rec,
	    "metadata"), "name")), "d-fluid-last-applied", "its name");
	ok(kube_record_read(rec, "n", "d", &r, &why) == 0, "read back");
	kube_record_data_digest(c, digest);
	is_str(r.data_digest, digest, "the digest of the data applied");
	ok(json_object_get(r.cm, "data") == NULL &&
	    json_object_get(r.cm, "dataDigest") == NULL, "the ConfigMap bare");
	is_int(r.mode, K8S_AMEND, "the mode");
	applied = kube_record_applied(&r, c);
	ok(json_equal(json_array_get(json_object_get(applied, "items"), 0), c),
	    "the rendered data of the recorded digest given back");
	json_decref(applied);
	json_object_set_new(json_object_get(c, "data"), "b.sql",
	    json_string("DROP TABLE t;"));
	applied = kube_record_applied(&r, c);
	ok(json_object_get(json_array_get(json_object_get(applied, "items"),
	    0), "data") == NULL, "other rendered data not given back");
	json_decref(applied);
	kube_record_release(&r);
	ok(kube_record_read(rec, "kube-system", "d", &r, &why) == -1,
	    "a record read for another namespace is refused");
	free(why);
	ok(kube_record_read(rec, "n", "--d", &r, &why) == -1,
	    "a deployment that is not a DNS label reads nothing");
	free(why);
	json_decref(rec);

	refused(record(cm_elsewhere), "in another namespace", "kube-system");
	refused(record(cm_flag), "another name than fluid renders",
	    "a '--server=' name");
	refused(record(cm_other), "another name than fluid renders",
	    "another deployment's ConfigMap");
	refused(record(fd_other), "FlinkDeployment that has another name",
	    "another FlinkDeployment");
	refused(record(two_cms), "listing a ConfigMap and a FlinkDeployment",
	    "two ConfigMaps");

	/* Drift both ways: a key only live has is a field, with its owner. */
	rec = fd();
	live = json_pack("{s:s, s:s, s:{s:[{s:s, s:{s:{s:{}}}}]}, s:{s:{s:i, "
	    "s:b}, s:i}, s:{s:s}}", "apiVersion", "flink.apache.org/v1beta1",
	    "kind", "FlinkDeployment", "metadata", "managedFields", "manager",
	    "someone", "fieldsV1", "f:spec", "f:restartNonce", "spec", "job",
	    "parallelism", 1, "allowNonRestoredState", 1, "restartNonce", 2,
	    "status", "lifecycleState", "STABLE");
	json_object_set(json_object_get(live, "metadata"), "labels",
	    json_object_get(json_object_get(rec, "metadata"), "labels"));
	out = json_array();
	kube_drift_fields("FlinkDeployment n/d", rec, live, out);
	is_int(json_array_size(out), 2, "two fields added, status ignored");
	is_str(json_string_value(json_object_get(json_array_get(out, 0),
	    "field")), ".spec.job.allowNonRestoredState", "the first");
	ok(json_is_null(json_object_get(json_array_get(out, 0), "applied")),
	    "not applied: null");
	is_str(json_string_value(json_object_get(json_array_get(out, 1),
	    "manager")), "someone", "restartNonce's manager");
	json_decref(out);
	json_decref(live);
	json_decref(rec);
	json_decref(c);
	return done_testing();
}

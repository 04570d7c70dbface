/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_record.c - the last-applied record as read from the cluster
 * (kube_record.h), for deployment "d" in namespace "n".
 *
 * The input is a line, the record's data.mode (none when the line is
 * empty), then its data["resources.json"]; the harness wraps them in the
 * ConfigMap kubectl would return (the first byte's low bits choose
 * whether that ConfigMap is the one asked for).  Properties:
 *
 *  - a refusal is one line of printable text, and leaves nothing;
 *  - what is accepted is the deployment's own: the FlinkDeployment "d"
 *    and a ConfigMap "d-sql-<12 hex>", both in "n", apiVersions fluid
 *    renders, a sha256 data digest, a mode fluid plan knows, and the
 *    ConfigMap asked for; a name never starts with '-';
 *  - kube_record_applied() lists that ConfigMap then that
 *    FlinkDeployment, with data only when the rendered ConfigMap given
 *    has the recorded digest;
 *  - kube_record_make() of what was read reads back to the same.
 */
#include "fuzz.h"
#include "kube_record.h"

static void
check_why(const char *why)
{
	const unsigned char *p;

	if (why == NULL || *why == '\0')
		fuzz_fail("a refusal without a reason");
	for (p = (const unsigned char *)why; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			fuzz_fail("a control character in a refusal");
	if (!fuzz_utf8(why))
		fuzz_fail("a refusal that is not UTF-8");
}

static const char *
sget(const json_t *v, const char *a, const char *b)
{
	v = json_object_get(v, a);
	return json_string_value(b ? json_object_get(v, b) : v);
}

static void
check_accepted(const struct kube_record *r)
{
	const char *cmn = sget(r->cm, "metadata", "name");
	char *why = NULL;
	struct kube_record again;
	json_t *applied, *rendered, *rec, *plan;
	size_t i;

	if (sget(r->fd, "metadata", "name") == NULL ||
	    strcmp(sget(r->fd, "metadata", "name"), "d") != 0 ||
	    sget(r->fd, "metadata", "namespace") == NULL ||
	    strcmp(sget(r->fd, "metadata", "namespace"), "n") != 0)
		fuzz_fail("a FlinkDeployment not the deployment's own");
	if (cmn == NULL || strlen(cmn) != 18 || strncmp(cmn, "d-sql-", 6) != 0 ||
	    sget(r->cm, "metadata", "namespace") == NULL ||
	    strcmp(sget(r->cm, "metadata", "namespace"), "n") != 0)
		fuzz_fail("a ConfigMap not the deployment's own");
	for (i = 6; i < 18; i++)
		if (!strchr("0123456789abcdef", cmn[i]))
			fuzz_fail("a ConfigMap name that is not hex");
	if (strncmp(r->data_digest, "sha256:", 7) != 0 ||
	    strlen(r->data_digest) != 71)
		fuzz_fail("a data digest that is not sha256");
	if (json_object_get(r->cm, "dataDigest") != NULL)
		fuzz_fail("the digest left in the ConfigMap");
	/* Applied without a rendered ConfigMap: no data but the record's. */
	applied = kube_record_applied(r, NULL);
	if (json_array_size(json_object_get(applied, "items")) != 2 ||
	    !json_equal(json_array_get(json_object_get(applied, "items"), 1),
	    r->fd))
		fuzz_fail("applied does not list the FlinkDeployment second");
	json_decref(applied);
	/* A rendered ConfigMap of the same name and digest: data back. */
	rendered = json_deep_copy(r->cm);
	if (json_object_get(rendered, "data") == NULL) {
		json_object_set_new(rendered, "data",
		    json_pack("{s:s}", "x.sql", "SELECT 1;"));
		applied = kube_record_applied(r, rendered);
		if (json_object_get(json_array_get(json_object_get(applied,
		    "items"), 0), "data") != NULL) {
			char d[DIGEST_STRLEN];

			kube_record_data_digest(rendered, d);
			if (strcmp(d, r->data_digest) != 0)
				fuzz_fail("data given back of another digest");
		}
		json_decref(applied);
	}
	json_decref(rendered);
	/* Made again from what was read: read back the same. */
	plan = json_pack("{s:s, s:s}", "digest", "sha256:00", "mode",
	    k8s_mode_name(r->mode));
	rendered = json_deep_copy(r->cm);
	if (json_object_get(rendered, "data") == NULL)
		json_object_set_new(rendered, "data", json_object());
	rec = kube_record_make(plan, rendered, r->fd);
	if (kube_record_read(rec, "n", "d", &again, &why) != 0)
		fuzz_fail("a record made again from a read one is refused");
	if (!json_equal(again.fd, r->fd) || again.mode != r->mode)
		fuzz_fail("a record made again reads back another");
	kube_record_release(&again);
	json_decref(rec);
	json_decref(rendered);
	json_decref(plan);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "d-fluid-last-applied",
	    "d-fluid-last-applied", "d-fluid-last-applied", "other" };
	struct kube_record r;
	char *s, *nl, *why = NULL;
	json_t *rec;
	int rc;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	s = fuzz_cstr(data + 1, size - 1);
	if ((nl = strchr(s, '\n')) != NULL)
		*nl++ = '\0';
	rec = json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:s?, s:s?}}",
	    "apiVersion", "v1", "kind", "ConfigMap", "metadata", "name",
	    names[data[0] & 3], "namespace", data[0] & 4 ? "m" : "n",
	    "data", "mode", nl != NULL && *s != '\0' ? s : NULL,
	    "resources.json", nl != NULL ? nl : s);
	if (rec == NULL) {	/* not UTF-8: kubectl's JSON never is that */
		free(s);
		return 0;
	}
	rc = kube_record_read(rec, "n", "d", &r, &why);
	if (rc == 0) {
		if (why != NULL)
			fuzz_fail("an accepted record with a reason");
		if ((data[0] & 3) == 3 || (data[0] & 4))
			fuzz_fail("a ConfigMap other than the one asked for");
		check_accepted(&r);
		kube_record_release(&r);
	} else {
		check_why(why);
		if (r.cm != NULL || r.fd != NULL)
			fuzz_fail("a refusal that leaves resources");
		free(why);
	}
	json_decref(rec);
	free(s);
	return 0;
}

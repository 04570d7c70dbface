/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_kubejson.c - kubectl's JSON answers as drift reads them
 * (kube_drift.h): kube_drift_answer() on what kubectl printed, then
 * kube_drift_fields() of an applied object against a live one.
 *
 * The input is an applied object, a NUL, then the live object kubectl
 * would print (without a NUL, the input is the live object and the
 * applied one is a fixed FlinkDeployment).  Properties:
 *
 *  - an answer is an object (1), only blanks (0), or refused (-1) with
 *    a reason, and nothing is left behind;
 *  - any object compared with itself has no drifted field;
 *  - every drifted field names its resource and a field that is one
 *    line of UTF-8, has an "applied" and a "live" (null on the side
 *    that lacks it, never both), and a manager that is a string or
 *    null; a field nobody added (live holds applied's value) is never
 *    listed twice.
 */
#include "fuzz.h"
#include "kube_drift.h"

static const char fixed[] = "{\"apiVersion\":\"flink.apache.org/v1beta1\","
    "\"kind\":\"FlinkDeployment\",\"metadata\":{\"name\":\"d\","
    "\"namespace\":\"n\",\"labels\":{\"app.kubernetes.io/name\":\"p\"}},"
    "\"spec\":{\"job\":{\"parallelism\":1,\"state\":\"running\"},"
    "\"flinkConfiguration\":{\"a.b\":\"1\"}}}";

static void
check_fields(const json_t *out)
{
	const json_t *f;
	const char *name;
	size_t i;

	json_array_foreach(out, i, f) {
		if (!json_is_string(json_object_get(f, "resource")))
			fuzz_fail("a field without its resource");
		name = json_string_value(json_object_get(f, "field"));
		if (name == NULL || strchr(name, '\n') != NULL)
			fuzz_fail("a field name that is not one line");
		if (json_object_get(f, "applied") == NULL ||
		    json_object_get(f, "live") == NULL)
			fuzz_fail("a field without both sides");
		if (json_is_null(json_object_get(f, "applied")) &&
		    json_is_null(json_object_get(f, "live")))
			fuzz_fail("a field null on both sides");
		if (!json_is_null(json_object_get(f, "manager")) &&
		    !json_is_string(json_object_get(f, "manager")))
			fuzz_fail("a manager that is not a string");
	}
}

/* kube_drift_answer() of buf, checked; the object or NULL. */
static json_t *
answer(const char *buf, size_t len)
{
	json_error_t err;
	json_t *obj = (json_t *)(uintptr_t)1;
	int rc = kube_drift_answer(buf, len, &obj, &err);

	if (rc == 1 && !json_is_object(obj))
		fuzz_fail("an answer that is not an object");
	if (rc != 1 && obj != NULL)
		fuzz_fail("a refused answer leaves an object");
	if (rc == -1 && err.text[0] == '\0')
		fuzz_fail("a refused answer without a reason");
	if (rc == 0) {
		size_t i;

		for (i = 0; i < len; i++)
			if (!strchr(" \t\r\n", buf[i]) || buf[i] == '\0')
				fuzz_fail("an answer with text taken for "
				    "nothing");
	}
	return rc == 1 ? obj : NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nul;
	json_t *applied, *live, *out;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	nul = memchr(data, '\0', size);
	if (nul != NULL) {
		applied = answer((const char *)data, (size_t)(nul -
		    (const char *)data));
		live = answer(nul + 1, size - (size_t)(nul -
		    (const char *)data) - 1);
	} else {
		applied = answer(fixed, strlen(fixed));
		live = answer((const char *)data, size);
	}
	if (applied == NULL) {
		if (nul == NULL)
			fuzz_fail("the fixed object is not read");
		json_decref(live);
		return 0;
	}
	out = json_array();
	kube_drift_fields("FlinkDeployment n/d", applied, applied, out);
	if (json_array_size(out) != 0)
		fuzz_fail("an object drifted from itself");
	if (live != NULL) {
		kube_drift_fields("FlinkDeployment n/d", applied, live, out);
		check_fields(out);
		json_array_clear(out);
		kube_drift_fields("FlinkDeployment n/d", live, live, out);
		if (json_array_size(out) != 0)
			fuzz_fail("a live object drifted from itself");
	}
	json_decref(out);
	json_decref(applied);
	json_decref(live);
	return 0;
}

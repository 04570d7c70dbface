/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_verify.c - verify's parsers of what the cluster answers
 * (verify_int.h): the FlinkDeployment's status judged against the
 * applied spec, the operator's status.error, an Event list, and the
 * JobManager's checkpoint statistics.  All of it is the cluster's text.
 * The operator's readings that fluid apply shares (kube_operr.h) too:
 * status.error, and the savepoint guard's SavepointError among Events.
 *
 * The input's first byte picks the parser (modulo 6) (and, for the status, whether
 * the contract says suspended); the rest is the answer, as JSON (or, for
 * status.error, any text).  A status answer may carry the applied spec
 * under "applied"; otherwise a fixed one is used.  Properties:
 *
 *  - every detail is UTF-8 (the report is JSON) and, once a diagnostic
 *    has quoted it, one line without control characters;
 *  - the operator's words are bounded: an error message, an event's
 *    reason, time and message are quoted to at most 400 bytes each;
 *  - a pass is final, and names only a job id that is one.
 */
#include "fuzz.h"
#include "kube_operr.h"
#include "verify_int.h"

#define APPLIED "{\"image\": \"registry.example.com/f@sha256:00\", " \
	"\"job\": {\"state\": \"running\", \"upgradeMode\": \"savepoint\", " \
	"\"parallelism\": 2}, \"flinkConfiguration\": {\"a\": \"1\"}}"

/* The text a diagnostic would print: one UTF-8 line. */
static void
check_detail(const char *detail, size_t max)
{
	struct diags d;

	if (detail == NULL)
		fuzz_fail("no detail");
	if (!fuzz_utf8(detail))
		fuzz_fail("a detail that is not UTF-8");
	if (strlen(detail) > max)
		fuzz_fail("a detail longer than its bound");
	diags_init(&d);
	diag_at(&d, DIAG_ERROR, NULL, "%s", detail);
	fuzz_check_diags(&d);
	diags_release(&d);
}

static void
status(json_t *live, bool suspended)
{
	json_t *applied = json_object_get(live, "applied"), *own = NULL;
	struct vfy_reading r = { VFY_UNAVAILABLE, false, NULL, NULL };

	if (applied == NULL)
		applied = own = json_loads(APPLIED, 0, NULL);
	if (suspended)
		json_object_set_new(json_object_get(applied, "job"), "state",
		    json_string("suspended"));
	vfy_judge_status(live, applied, suspended ? "suspended" : NULL, &r);
	/* Two quotes of 400, a path and two values of about 80, words. */
	check_detail(r.detail, 64 * 1024);
	if (r.outcome == VFY_PASS && !r.final)
		fuzz_fail("a pass that is not final");
	free(r.detail);
	json_decref(own);
}

static void
checkpoint(json_t *st)
{
	struct vfy_reading r = { VFY_UNAVAILABLE, false, NULL, NULL };

	vfy_checkpoint_judge(st, "7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6", 900, &r);
	check_detail(r.detail, 4096);
	free(r.detail);
	r.detail = NULL;
	vfy_checkpoint_judge(st, "7d9f0e4c2b1a48d6a5e3c1f0b9d8e7a6", -1, &r);
	check_detail(r.detail, 4096);
	free(r.detail);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j;
	char *text, *s;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	text = fuzz_cstr(data + 1, size - 1);
	switch (data[0] % 6) {
	case 0:
	case 1:
		if ((j = json_loads(text, 0, NULL)) != NULL)
			status(j, data[0] % 6 == 1);
		json_decref(j);
		break;
	case 2:
		if ((j = json_loads(text, 0, NULL)) != NULL)
			checkpoint(j);
		json_decref(j);
		break;
	case 3:
		if ((j = json_loads(text, 0, NULL)) != NULL &&
		    (s = vfy_events_reason(j, "commerce-orders-landed")) !=
		    NULL) {
			check_detail(s, 3 * 403 + 64);
			free(s);
		}
		json_decref(j);
		break;
	case 4:
		/* The savepoint guard of fluid apply, since a fixed time. */
		if ((j = json_loads(text, 0, NULL)) != NULL &&
		    (s = kube_savepoint_event(j, "commerce-orders-landed",
		    data[0] & 0x80 ? -1 : 1700000000000LL)) != NULL) {
			check_detail(s, 403);
			free(s);
		}
		json_decref(j);
		break;
	default:
		/* status.error is UTF-8 once jansson has read the status. */
		if (fuzz_utf8(text) && (s = kube_operator_error(text)) != NULL) {
			check_detail(s, 2 * 403 + 16);
			free(s);
		}
	}
	free(text);
	return 0;
}

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_sqlgen.c - sqlgen (sqlgen.h) on arbitrary IR.
 *
 * fluid-sqlgen reads whatever JSON comes after a "check" stage, which
 * need not be what fluid-check wrote.  The input is JSON: a check
 * section ({"builds": [...]}) whose builds are written one by one, or
 * one build.
 *
 * Properties: no crash, leak or undefined behaviour; a build is
 * written, or refused with one error.  (What the script says is only
 * checked for IR that fluid-check accepted: see fuzz_check.c.)
 */
#include "fuzz.h"

static void
build(const json_t *b)
{
	struct diags d;
	char *sql;

	diags_init(&d);
	sql = sqlgen_build(b, &d);
	fuzz_check_diags(&d);
	if ((sql == NULL) != (d.nerrors == 1) || d.n != d.nerrors)
		fuzz_fail("a script with an error, or none without one");
	free(sql);
	diags_release(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *doc, *builds, *b;
	size_t i;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if ((doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &err)) == NULL)
		return 0;
	builds = json_object_get(doc, "builds");
	if (json_is_array(builds))
		json_array_foreach(builds, i, b)
			build(b);
	else
		build(doc);
	json_decref(doc);
	return 0;
}

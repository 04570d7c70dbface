/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_check.c - the full check (check.h) on an arbitrary document, and
 * sqlgen (sqlgen.h) on whatever IR the check returns.
 *
 * The input is JSON, read as fluid-check reads its standard input
 * (duplicate keys refused), and stands as the resolved contract of a
 * resolve section: {"kind": "contract", "document": INPUT,
 * "positions": {}, "files": []}.
 *
 * Properties: the IR is returned iff no error was added; every
 * diagnostic is one line of UTF-8; and sqlgen writes every build of an
 * accepted contract (an IR that no quoting can make safe is something
 * the check should have refused), in a script whose only comment
 * marker is its first line's "--" (the operator's runner strips
 * comments without knowing about literals).
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *doc, *section, *ir, *b;
	struct diags d;
	const char *rest;
	char *sql;
	size_t i;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if ((doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &err)) == NULL)
		return 0;
	/* No positions: every diagnostic falls back to having no place. */
	section = json_pack("{s:s, s:o, s:s, s:[]}", "kind", "contract",
	    "document", doc, "positions", "", "files");
	diags_init(&d);
	diags_set_resolve(&d, section);
	ir = check_run(section, &d);
	fuzz_check_diags(&d);
	if ((ir != NULL) != (d.nerrors == 0))
		fuzz_fail("IR with errors, or no IR without");
	json_array_foreach(json_object_get(ir, "builds"), i, b) {
		if ((sql = sqlgen_build(b, &d)) == NULL)
			fuzz_fail("checked IR that sqlgen cannot write");
		if ((rest = strchr(sql, '\n')) == NULL || strstr(rest, "--") ||
		    strstr(rest, "/*") || strstr(rest, "*/"))
			fuzz_fail("a comment marker in a checked script");
		free(sql);
	}
	json_decref(ir);
	json_decref(section);
	diags_release(&d);
	return 0;
}

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stage_sqlgen.c - what fluid-sqlgen does to the document (see stage.h).
 */
#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "ir.h"
#include "stage.h"
#include "sqlgen.h"
#include "sqlgen_cfk.h"
#include "xalloc.h"

/*
 * A CFK build's entry: its statements (sqlgen_cfk.h) and, as "sql",
 * the script they make, one after another, which the digest is of.
 */
static json_t *
stage_sqlgen_cfk(const json_t *b, struct diags *d)
{
	json_t *st = sqlgen_cfk_build(b, d), *s, *e;
	struct sb sql;
	char digest[DIGEST_STRLEN];
	size_t i;

	if (st == NULL)
		return NULL;
	sb_init(&sql);
	json_array_foreach(st, i, s) {
		if (i > 0)
			sb_addc(&sql, '\n');
		sb_adds(&sql, json_string_value(json_object_get(s, "sql")));
	}
	digest_bytes(sql.buf, strlen(sql.buf), digest);
	e = json_pack("{s:O, s:s, s:s, s:s, s:o}", "build",
	    json_object_get(b, "id"), "target", "cfk", "digest", digest,
	    "sql", sql.buf, "statements", st);
	sb_release(&sql);
	return e;
}

json_t *
stage_sqlgen_builds(json_t *doc, const char *want, struct diags *d)
{
	json_t *builds = json_object_get(ir_section(doc, "check"), "builds");
	json_t *out = json_array(), *b;
	const char *id;
	char *sql, digest[DIGEST_STRLEN];
	size_t i;

	json_array_foreach(builds, i, b) {
		id = json_string_value(json_object_get(b, "id"));
		if (want != NULL && (id == NULL || strcmp(id, want) != 0))
			continue;
		if (sqlgen_cfk_target(b)) {
			json_t *e = stage_sqlgen_cfk(b, d);

			if (e != NULL)
				json_array_append_new(out, e);
			continue;
		}
		if ((sql = sqlgen_build(b, d)) == NULL)
			continue;
		digest_bytes(sql, strlen(sql), digest);
		json_array_append_new(out, json_pack("{s:s, s:s, s:s}", "build",
		    id, "digest", digest, "sql", sql));
		free(sql);
	}
	return out;
}

json_t *
stage_sqlgen(json_t *doc, struct diags *d)
{
	json_t *section = json_pack("{s:o}", "builds",
	    stage_sqlgen_builds(doc, NULL, d));

	ir_add_stage(doc, "sqlgen", section);
	return section;
}

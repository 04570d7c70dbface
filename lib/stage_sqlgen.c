/*
 * stage_sqlgen.c - what fluid-sqlgen does to the document (see stage.h).
 */
#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "ir.h"
#include "stage.h"
#include "sqlgen.h"

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
		if ((sql = sqlgen_build(b, d)) == NULL)
			continue;
		digest_bytes(sql, strlen(sql), digest);
		json_array_append_new(out, json_pack("{s:s, s:s, s:s}", "build",
		    id, "digest", digest, "sql", sql));
		free(sql);
	}
	return out;
}

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_scol.c - a stream's column table (struct chk_stream, in
 * check_int.h): the columns a mapping path may start from, by name in
 * any case.  check_stream.c fills it from the value, key and metadata,
 * check_cdc.c adds a change stream's operation column; both call down
 * to this file, which calls neither.
 */
#include <stdlib.h>
#include <string.h>

#include "check_int.h"

struct chk_scol *
chk_stream_col(const struct chk_stream *s, const char *name)
{
	struct chk_scol *sc;
	size_t i;

	if (!chk_name_index_get(&s->index, name, &i))
		return NULL;
	sc = &s->cols[i];
	return strcmp(sc->name, name) == 0 ? sc : NULL;
}

bool
chk_stream_unknown(const struct chk_stream *s, const char *name)
{
	return s->broken || chk_name_in(s->bad, name);
}

void
chk_stream_release(struct chk_stream *s)
{
	size_t i;

	for (i = 0; i < s->ncols; i++) {
		free(s->cols[i].name);
		json_decref(s->cols[i].jname);
		free(s->cols[i].from);
		ty_free(s->cols[i].type);
	}
	free(s->cols);
	chk_name_index_release(&s->index);
	json_decref(s->bad);
	json_decref(s->ir);
	memset(s, 0, sizeof(*s));
}

bool
chk_stream_add(struct chk *c, struct chk_loc *l, struct chk_stream *s,
    const char *name, json_t *jname, enum chk_origin origin,
    const char *from, struct ty *t)
{
	struct chk_scol *sc;
	size_t i;

	if (chk_name_index_get(&s->index, name, &i)) {
		const struct chk_scol *o = &s->cols[i];
		const char *what = o->origin == CHK_ORIGIN_VALUE ? "value" :
		    o->origin == CHK_ORIGIN_KEY ? "key" : "metadata";

		if (strcmp(o->name, name) != 0)
			chk_err(c, l, "'%s' differs from the %s column '%s' "
			    "only by case%s", name, what, o->name,
			    origin == CHK_ORIGIN_KEY ?
			    "; set properties.stream.key.prefix" : "");
		else
			chk_err(c, l, "column '%s' is already a %s column%s",
			    name, what, origin == CHK_ORIGIN_KEY ?
			    "; set properties.stream.key.prefix" : "");
		ty_free(t);
		return false;
	}
	if (s->ncols == s->capcols) {
		s->capcols = s->capcols ? 2 * s->capcols : 16;
		s->cols = xreallocarray(s->cols, s->capcols,
		    sizeof(*s->cols));
	}
	sc = &s->cols[s->ncols++];
	sc->name = xstrdup(name);
	chk_name_index_put(&s->index, sc->name, s->ncols - 1);
	sc->jname = jname != NULL ? json_incref(jname) : json_string(name);
	sc->origin = origin;
	sc->from = from ? xstrdup(from) : NULL;
	sc->type = t;
	return true;
}

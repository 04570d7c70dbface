/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * path.h - the mapping path grammar of the spec.
 *
 * A path is never SQL.  It is a dotted name with ['literal'] map keys:
 *
 *	path   = ident { "." ident | "['" literal "']" }
 *	ident  = [A-Za-z_][A-Za-z0-9_]*            (at most 128 bytes)
 *	literal= any characters but control characters, with '' for '
 *
 * and at most PATH_MAX_STEPS steps.  A path that does not parse is
 * refused with a reason that never quotes it, since it may be an
 * attempt at SQL injection and the error may end up in a CI log.
 */
#ifndef FLUID_PATH_H
#define FLUID_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "xalloc.h"

#define PATH_MAX_STEPS	64
#define PATH_MAX_IDENT	128

enum path_step_kind {
	PATH_FIELD,	/* .name (or the first name) */
	PATH_KEY	/* ['literal'] */
};

struct path_step {
	enum path_step_kind	 kind;
	char			*name;	/* field name, or the map key */
};

struct path {
	struct path_step	*steps;
	size_t			 n;
};

/*
 * Parse s into p.  Returns 0, or -1 with *why a static reason that does
 * not contain any of s; p is then empty.  Release p with path_release().
 */
int	path_parse(const char *s, struct path *p, const char **why);
void	path_release(struct path *);
/* Append the canonical spelling ("a.b['k']") to sb. */
void	path_print(const struct path *, struct sb *);
/* Is s a plain SQL identifier as above? */
bool	path_is_ident(const char *s);
/*
 * Is s a plain absolute file path inside a pod (a mounted Secret):
 * '/' then segments of letters, digits, '.', '_' and '-', none empty,
 * "." or ".." (so no trailing '/'), at most 1024 bytes?  NULL is not.
 * fluid-check refuses any other; fluid-sqlgen judges its IR again.
 */
bool	path_pod_ok(const char *s);

#endif

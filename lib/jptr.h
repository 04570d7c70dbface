/*
 * jptr.h - RFC 6901 JSON pointers, the addresses of fluid's positions
 * table and of every diagnostic.
 */
#ifndef FLUID_JPTR_H
#define FLUID_JPTR_H

#include <stddef.h>
#include <jansson.h>

#include "xalloc.h"

/* Append "/token" to sb, escaping '~' as ~0 and '/' as ~1. */
void	jptr_push_key(struct sb *, const char *key);
/* Append "/index". */
void	jptr_push_index(struct sb *, size_t index);
/*
 * The value at ptr inside root (borrowed), or NULL when there is none.
 * "" is root itself.  A malformed pointer finds nothing.
 */
json_t	*jptr_get(json_t *root, const char *ptr);

#endif

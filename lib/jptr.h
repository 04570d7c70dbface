/*
 * SPDX-License-Identifier: Apache-2.0
 *
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
 * Visit node, whose pointer is in ptr, then its children in document
 * order (an object's members in their order, an array's elements), each
 * with its own pointer in ptr.  visit returns 0 to go on, 1 to leave the
 * node's children out, or -1 to stop: jptr_walk() then returns -1.
 * ptr is as it was when jptr_walk() returns.
 */
int	jptr_walk(json_t *node, struct sb *ptr,
	    int (*visit)(json_t *node, const struct sb *ptr, void *arg),
	    void *arg);
/*
 * The value at ptr inside root (borrowed), or NULL when there is none.
 * "" is root itself.  A malformed pointer finds nothing.
 */
json_t	*jptr_get(json_t *root, const char *ptr);

/*
 * A table from JSON pointers to three integers (a file index, a line
 * and a column), for the positions of a document's nodes: one string
 * arena and one hash index, so that a node costs a few bytes and no
 * allocation of its own.  jptab_put() replaces the value of a pointer
 * already there; jptab_get() returns the three values (valid until the
 * next put) or NULL.
 */
struct jptab;

struct jptab *jptab_new(void);
void	 jptab_free(struct jptab *);
void	 jptab_put(struct jptab *, const char *ptr, size_t len, int a, int b,
	    int c);
const int *jptab_get(const struct jptab *, const char *ptr, size_t len);

#endif

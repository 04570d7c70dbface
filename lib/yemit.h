/*
 * yemit.h - jansson values out as YAML (fluid bundle).
 *
 * Block style, keys in document order.  A string that would read back as
 * something else under the loader's core schema ("true", "0.7.7" is fine,
 * "1.5" is not) is quoted, so that loading the output gives back the same
 * JSON value and the same digest.
 */
#ifndef FLUID_YEMIT_H
#define FLUID_YEMIT_H

#include <jansson.h>

#include "xalloc.h"

/* Append the YAML text of v to out.  Returns 0, or -1 if libyaml failed. */
int	yemit(const json_t *v, struct sb *out);

#endif

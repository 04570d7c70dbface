/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * yemit.h - jansson values out as YAML (fluid bundle).
 *
 * Block style, keys in document order.  A string that would read back as
 * something else is quoted, so that loading the output gives back the
 * same JSON value and the same digest: under the loader's core schema
 * (YAML 1.2: "true", "1.5", "0x1F"), and under YAML 1.1 as PyYAML and Go
 * yaml.v2 (older kubectl) read it ("yes", "off", "1_000", "1:30",
 * "2001-12-14", "0b101", "<<", "=").  "0.7.7" stays plain.  A real
 * always has a dot ("1.0e+22"), which YAML 1.1 floats need.
 */
#ifndef FLUID_YEMIT_H
#define FLUID_YEMIT_H

#include <jansson.h>

#include "xalloc.h"

/*
 * Append the YAML text of v to out.  Returns 0, or -1 if libyaml or
 * regcomp() failed.
 */
int	yemit(const json_t *v, struct sb *out);

#endif

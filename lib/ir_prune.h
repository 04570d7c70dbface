/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * ir_prune.h - a section's JSON bytes without the members a stage does
 * not read (ir_prune.c), so that they are never parsed into a tree.
 */
#ifndef FLUID_IR_PRUNE_H
#define FLUID_IR_PRUNE_H

#include <stddef.h>

#include "xalloc.h"

/*
 * The JSON value [p, p + len) into out, less the object members that a
 * pattern of pats (NULL-terminated, at most 8) names: "builds/x/outputs"
 * drops the member "outputs" of every element of the array "builds",
 * whatever the middle segment says ("*" by convention: array elements
 * are not named).  Returns the number of members dropped, or -1 when the
 * bytes on a pattern's way are not compact JSON objects and arrays
 * (out is then to be ignored; parse [p, p + len) instead).  What is
 * kept is copied byte for byte and is not checked here: the parse that
 * follows checks it.
 */
int	ir_prune(const char *p, size_t len, const char *const pats[],
	    struct sb *out);

/*
 * The byte scanner ir.c shares: past the JSON string that starts at p
 * (at its '"'), or NULL; past the value that starts at p (before a ','
 * or a closing bracket, or at end), or NULL when it is broken, setting
 * *blank (unless NULL) when it has blank space outside its strings.
 */
const char *ir_prune_string_end(const char *p, const char *end);
const char *ir_prune_value_end(const char *p, const char *end, int *blank);

/*
 * ir_read_pruned()'s patterns for the stages after fluid-sqlgen: the
 * check section's bulk they do not read.
 */
extern const char *const ir_prune_check_bulk[];

#endif

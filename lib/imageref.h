/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * imageref.h - a container image reference pinned by digest, the one
 * rule the checker, both renderers and the allowlists apply.
 */
#ifndef FLUID_IMAGEREF_H
#define FLUID_IMAGEREF_H

#include <stdbool.h>

/*
 * Whether s is repository[:tag]@sha256:<64 lower-case hex>, printable
 * ASCII with nothing blank and no second '@' (NULL: false).
 */
bool	imageref_pinned(const char *s);

#endif

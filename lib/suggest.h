/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * suggest.h - "did you mean": the one test of closeness, shared by the
 * checker (contract keys and values, chk_didyoumean()) and the tools
 * (commands, subcommands and options), so that a typo is caught the
 * same way wherever it is made.
 */
#ifndef FLUID_SUGGEST_H
#define FLUID_SUGGEST_H

#include <stddef.h>

/*
 * The first of the n candidates (NULL entries passed over) that is one
 * insertion, deletion, substitution or swap of neighbours from name,
 * or NULL.  Borrowed: a pointer into cands.
 */
const char *suggest_near(const char *name, const char *const *cands,
	    size_t n);

#endif

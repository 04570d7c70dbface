/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * diff.h - what changed between two checked contracts, and how much it
 * matters: the spec's "Schema changes and fluid diff".
 *
 * Pure: two check sections (what fluid-check wrote) and the resolve
 * sections they came from (for the contract paths' file:line) in, a
 * list of changes out.  Nothing is read or written; the driver (fluid
 * diff, tools/fluid.c) runs the pipeline twice and prints the result.
 * Both contracts must have been checked without errors: the check
 * section of a refused contract does not describe every build.
 *
 * properties.stream is read as a reader schema: a field the job newly
 * requires is breaking, one it stops reading is not.  The output table
 * is compared as the runner compares it, exactly: nothing is migrated.
 *
 * A change is a JSON object:
 *
 *	{"severity": "breaking" | "non-breaking" | "info",
 *	 "build": ID  or  "expose": EXPOSEID,
 *	 "change": WORD,	     what kind of change ("topic", "retyped")
 *	 "reason": TEXT,
 *	 "old": {"path": P, "file": F, "line": N, "value": V} | null,
 *	 "new": {...} | null}	     null: not on that side
 *
 * P is the contract path the checker's messages use, under the build
 * ("properties.stream.schema.customer.address") or from the top
 * ("exposes[0].contract.schema.channel"); F and N are where it stands
 * in the resolved files (null and 0 when unknown).  The list is sorted:
 * by severity (breaking first), then builds before exposes, each by
 * name, then in the order of the new contract.
 *
 * Linear in the size of the two sections: every list is indexed by
 * name, nothing compares all pairs.
 *
 * Ownership: diff_contracts() returns a new reference; the sections are
 * borrowed.
 */
#ifndef FLUID_DIFF_H
#define FLUID_DIFF_H

#include <stddef.h>
#include <jansson.h>

#include "xalloc.h"

enum diff_severity {
	DIFF_BREAKING,
	DIFF_NON_BREAKING,
	DIFF_INFO,
	DIFF_NSEVERITIES
};

/* The changes from the old contract to the new one, sorted. */
json_t	*diff_contracts(json_t *old_check, json_t *old_resolve,
	    json_t *new_check, json_t *new_resolve);
/* "breaking", "non-breaking", "info". */
const char *diff_severity_name(enum diff_severity);
/* How many changes of changes have severity s. */
size_t	 diff_count(const json_t *changes, enum diff_severity s);
/*
 * A summary for a person, appended to out: the changes grouped by
 * severity, one line each, or a line saying there are none.
 */
void	 diff_summary(const json_t *changes, struct sb *out);

#endif

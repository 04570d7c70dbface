/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * odcs.h - the contract published as an Open Data Contract Standard
 * (ODCS) v3.2.0 data contract, made offline from the pipeline document
 * after fluid-check.
 *
 * A renderer, as sqlgen and k8s are (fluid.h): nothing here includes
 * net.h or kube.h or contacts anything.  One schema object and one
 * server per expose; every column a property, nested types as ODCS
 * object, array and map properties (v3.2.0 is the first with maps),
 * and each property's whole FLUID type (ty_print(), types.h) in the
 * custom property fluid.recursiveType, which also keeps what ODCS
 * cannot say.  fluid-odcs(1) lists every field and
 * where it comes from.  The same document gives the same output.
 */
#ifndef FLUID_ODCS_H
#define FLUID_ODCS_H

#include <jansson.h>

#include "diag.h"

#define ODCS_API_VERSION	"v3.2.0"
/* The custom property that carries a property's whole FLUID type. */
#define ODCS_RECURSIVE_TYPE	"fluid.recursiveType"

/*
 * The ODCS document (a new reference) of doc, a pipeline document after
 * fluid-check (its resolve and check sections are read).  A contract
 * with no managed build has no table to describe: an error in d, placed
 * at its builds, and NULL.  A document whose sections are not what
 * fluid-check writes is a fatal error in d, and NULL.
 */
json_t	*odcs_render(json_t *doc, struct diags *d);

#endif

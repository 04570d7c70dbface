/*
 * resolve.h - a contract and its $ref fragments, as one document.
 *
 * A $ref is an object {"$ref": "relative/file.yaml#/json/pointer"}; the
 * file part is relative to the file that holds the $ref (empty means that
 * same file) and the pointer part is optional.  The object is replaced by
 * what it points at, recursively.  No $ref may reach outside the root:
 * the ref_root of the nearest fluid.workspace.yaml above the contract,
 * or the contract's own directory when there is none.  Symbolic links
 * are followed before that test, so a link cannot leave the root either.
 *
 * The result is the section fluid-resolve adds to the pipeline document:
 *
 *	{ "kind": "contract" | "fragment",
 *	  "fragment": KIND,		(fragments only)
 *	  "schemaVersion": "0.7.7" | null,
 *	  "document": {...},		the resolved contract
 *	  "files": ["a.yaml", ...],	every file read, contract first
 *	  "positions": "1,1 ,3 1,3 1@-40,5 ...",  one record per node of
 *					"document", in its order (diag.h)
 *	  "digest": "sha256:..." }	of the canonical document
 */
#ifndef FLUID_RESOLVE_H
#define FLUID_RESOLVE_H

#include <jansson.h>

#include "diag.h"

#define RESOLVE_WORKSPACE_FILE	"fluid.workspace.yaml"

struct resolve_opts {
	const char	*path;		/* contract or fragment; NULL: stdin */
	const char	*fragment;	/* NULL, or a fragment kind */
	const char	*schema_version;/* required with fragment */
};

/* Is kind one of the fragment kinds (streamSource, schema, recordMapping)? */
int	 resolve_fragment_kind_ok(const char *kind);

/*
 * Resolve.  Returns the new section, or NULL after adding errors to d.
 * An unreadable contract file is an environment error: fl_fatal().
 */
json_t	*resolve_run(const struct resolve_opts *, struct diags *d);

#endif

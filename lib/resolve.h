/*
 * resolve.h - a contract and its $ref fragments, as one document.
 *
 * A $ref is an object {"$ref": "relative/file.yaml#/json/pointer"}; the
 * file part is relative to the file that holds the $ref (empty means that
 * same file) and the pointer part is optional.  The object is replaced by
 * what it points at, recursively.  No $ref may reach outside the root:
 * the ref_root of the nearest fluid.workspace.yaml above the contract
 * (searched up to the top of its repository or file system, and never
 * above the workspace file's own directory), or the contract's own
 * directory when there is none.  A $ref is opened by a walk beneath
 * the open root that follows symbolic links itself, so neither a link
 * nor a rename can lead it out, and never from /proc, /sys or /dev.
 * The resolved contract is bounded in nodes and in bytes of strings
 * and keys (bounds.h), counted before anything is built.
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

/*
 * SPDX-License-Identifier: Apache-2.0
 *
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

/*
 * Where the files are read from: the file system (resolve_run()), or
 * another tree, such as a git revision (git.h).  A source
 * is given absolute paths with no ".", ".." or empty component, made
 * from the names without looking at the file system (it follows no
 * symbolic link); the contract's is the working directory joined with
 * its path.  Files are then read whole, $refs kept beneath the root by
 * their paths, and every file's name in messages and in "files" starts
 * with label.
 */
enum resolve_kind {
	RESOLVE_NONE,		/* nothing there */
	RESOLVE_FILE,		/* a regular file */
	RESOLVE_DIR,
	RESOLVE_OTHER		/* a link, a device, a submodule... */
};

struct resolve_source {
	/* What is at path: a resolve_kind, or -1 after a fatal in d. */
	int	(*kind)(void *ctx, const char *path, struct diags *d);
	/*
	 * The regular file at path, at most max bytes: 0 with *buf (new,
	 * *len bytes); -1 with errno ENOENT, EISDIR, ENODEV (not a regular
	 * file) or EFBIG (larger than max); -2 after a fatal in d.
	 */
	int	(*read)(void *ctx, const char *path, size_t max,
		    unsigned char **buf, size_t *len, struct diags *d);
	const char *top;	/* the search for a workspace file ends here */
	const char *label;	/* before every file name ("main:") */
	void	*ctx;
};

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
/* The same, the files read from src (resolve_run(): NULL). */
json_t	*resolve_run_from(const struct resolve_opts *,
	    const struct resolve_source *src, struct diags *d);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * target.h - where a build is applied: the targets a project declares
 * (fluid-gateway(1), TARGETS).
 *
 *	targets:
 *	  local:
 *	    backend: flink
 *	    flink: {gateway: http://127.0.0.1:8083}
 *
 * in fluid.targets.yaml, or in the project's fluid.workspace.yaml
 * beside its ref_root.  A target names a Flink SQL Gateway as the
 * operator's machine reaches it.  This module only reads files and
 * checks their shape: it contacts nothing (the gateway client is gw_,
 * gw.h), so a dry run can pick a target without a network.
 */
#ifndef FLUID_TARGET_H
#define FLUID_TARGET_H

#include <stddef.h>

#include "diag.h"

#define TARGET_FILE	"fluid.targets.yaml"

struct target {
	char	*name;
	char	*backend;	/* "flink", the only one */
	char	*gateway;	/* an http(s) URL, as written */
	int	 line, col;	/* of the target's name in file */
};

struct targets {
	char		*file;	/* the file they were read from */
	struct target	*v;
	size_t		 n;
};

/*
 * The file that declares the targets for a contract or script in dir:
 * in dir and each directory above it, fluid.targets.yaml, then
 * fluid.workspace.yaml; the search stops at the first workspace file
 * (the project's top), a repository's top (.git) or "/".  A new string,
 * or NULL when there is none.
 */
char	*target_find_file(const char *dir);

/*
 * Read the targets of path into t (no init needed; targets_release()
 * after, whatever the result).  Returns 0, or -1 after adding errors to
 * d placed at path:line:col (a fatal one when path cannot be read).  A
 * file without a targets section reads as no targets.
 */
int	target_load(const char *path, struct targets *t, struct diags *d);
void	targets_release(struct targets *);

/*
 * The target named name, or, when name is NULL, the only one declared.
 * Returns it (borrowed from t), or NULL after a fatal error in d (a
 * usage error) that says which targets there are.
 */
const struct target *target_pick(const struct targets *t, const char *name,
	    struct diags *d);

#endif

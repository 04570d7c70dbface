/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * git.h - a contract and its fragments as they are at a git revision,
 * for fluid diff --baseline-rev: a resolve_source (resolve.h) that reads
 * files out of the revision's tree, never out of the work tree, so that
 * a review sees the fragments a commit changed along with the contract.
 *
 * Every read is a git process: "git rev-parse" to find the repository
 * and the commit, "git ls-tree" for what a path is, "git cat-file blob"
 * for a file's bytes.  git is started with posix_spawnp (no shell,
 * through proc_, proc.h), its standard input /dev/null, within a
 * deadline, its output bounded; the revision is refused if it could be
 * read as an option, and is used as git's commit id once resolved; a
 * path goes after "--", with literal pathspecs.  A symbolic link, a submodule or anything but a file or a
 * directory in the tree is not followed: it is not a regular file.
 *
 * Like kube.h, only the tools include it (a stage or checker never
 * starts a process: tests/bats/layout.bats).
 */
#ifndef FLUID_GIT_H
#define FLUID_GIT_H

#include "diag.h"
#include "resolve.h"

#define GIT_DEADLINE_S		60		/* per git run */
#define GIT_META_MAX		(64u << 10)	/* rev-parse, ls-tree */

struct git_rev {
	char	*rev;		/* as given, for messages */
	char	*commit;	/* its commit id */
	char	*top;		/* the work tree's top (absolute) */
	char	*label;		/* "REV:", before file names in messages */
	struct resolve_source src;	/* reads at commit; ctx is this */
};

/*
 * Set g up for revision rev of the repository the working directory is
 * in.  Returns 0, or -1 with a fatal diagnostic in d: rev empty, too
 * long, starting with '-' or holding a control character or ':'; no
 * git, no repository, no such commit.
 */
int	git_rev_open(struct git_rev *g, const char *rev, struct diags *d);
void	git_rev_close(struct git_rev *g);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * outdir.h - a directory of generated files, replaced as one set.
 *
 * A command that writes several files into one directory, fluid
 * generate flink --out DIR (tools/fluid_generate.c, its one user: the
 * other --out options write one file, through atomic.h), must never
 * leave a new file beside an old one of the same set.  Every file
 * is first written whole into a staging directory inside DIR, and only
 * when all of them are written are they renamed into place; a failure
 * before that leaves DIR as it was.
 *
 * DIR then holds exactly the last run's files: a manifest in DIR
 * records the names a run wrote, each with the sha256 of what it wrote,
 * and nothing that depends on the machine or the directory, so that two
 * runs on one contract, into two directories or two clones, give
 * byte-identical trees (a committed generated tree stays up to date).
 * What a run may remove is kept apart, outside DIR: a proof file under
 * $XDG_STATE_HOME/fluid/outdir/ (default ~/.local/state), named after
 * DIR's real path, lists each name this machine's runs wrote there with
 * its sha256 and inode.  The next run removes those it does not write
 * again, but only a file that is still that very file with those very
 * bytes.  The manifest is never trusted for removal (anyone who can
 * commit to a checkout can plant one), and a file that no run on this
 * machine wrote, or that a user has since edited or replaced, is never
 * touched; in a fresh clone, with no proof, no old file is removed.
 * Runs on one DIR are serialised by a lock, so two of them cannot
 * interleave their renames, and a staging directory that a killed run
 * left behind is removed by the next run.  The files of the writer's
 * own are named after a tag ("generate" for generate flink):
 *
 *	DIR/.fluid-TAG.manifest   the names the last run wrote, each
 *	                          with its sha256
 *	DIR/.fluid-TAG.lock       flock()ed while a run works; removed after
 *	DIR/.fluid-TAG.XXXXXX/    a run's staging directory
 *
 * The library neither prints nor exits: a function that fails returns
 * -1 and fills msg (and err, an errno value, or 0 when strerror() has
 * nothing to add) for the tool to print, and has discarded the run, as
 * outdir_abort() does.
 */
#ifndef FLUID_OUTDIR_H
#define FLUID_OUTDIR_H

#include <stddef.h>

struct outdir {
	char	*dir;		/* DIR, as given */
	char	*base;		/* DIR/.fluid-TAG: the writer's own files */
	char	*proof;		/* what runs wrote into DIR, kept outside it,
				   or NULL (see below) */
	char	*stage;		/* the staging directory, or NULL */
	int	 lock;		/* the locked DIR/.fluid-TAG.lock, or -1 */
	char	**names;	/* the files added, in order */
	char	**stamps;	/* each one's "sha256:<hex> <inode>" */
	size_t	 n;
	char	*msg;		/* after a failure: what could not be done */
	int	 err;		/* and why, as errno, or 0 */
};

/*
 * Open DIR for a run: create it if missing, wait for the lock, remove
 * the staging directories of runs that were killed, and make this run's.
 */
int	outdir_open(struct outdir *, const char *dir, const char *tag);
/*
 * Stage one file.  name is a plain file name: no '/', no control
 * character, not starting with '.' (those are the writer's own).
 */
int	outdir_add(struct outdir *, const char *name, const void *buf,
	    size_t len);
/*
 * Rename every file added into DIR, remove the files of the last run
 * that this one did not write, and record this run's in the manifest.
 * After a failure while renaming, DIR may hold some new files beside
 * old ones; the manifest then lists both, so the next run cleans up.
 */
int	outdir_commit(struct outdir *);
/* Discard the run: nothing in DIR has changed.  May be called twice. */
void	outdir_abort(struct outdir *);
/* Free everything, msg included; aborts a run not committed. */
void	outdir_close(struct outdir *);

#endif

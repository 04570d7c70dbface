/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * proc.h - one program run to its end, or to a deadline: the process
 * kubectl (kube.c) and git (git.c) are started through.
 *
 * The program is started with posix_spawnp, argv as given (never a
 * shell), its standard input bytes of ours on a pipe or /dev/null, its
 * standard output and error read through poll, each bounded.  Past a
 * bound or the deadline it is killed (its process group, when it has
 * one of its own) and reaped; nothing past a bound is read.  The caller
 * ignores SIGPIPE (the tools do, cli_start()): a program that exits
 * without reading its input is then a failed write, not our death.
 *
 * Like kube.h and git.h, only the modules that may start a process
 * include it (tests/bats/layout.bats).
 */
#ifndef FLUID_PROC_H
#define FLUID_PROC_H

#include <stddef.h>

#include "xalloc.h"

/* What to run. */
struct proc_spec {
	const char *const *argv;	/* argv[0] is found in PATH */
	char *const	*env;		/* NULL: ours (environ) */
	const char	*in;		/* NULL: /dev/null */
	size_t		 inlen;		/* bytes of in, may be 0 */
	size_t		 out_max;	/* standard output read, at most */
	size_t		 err_max;	/* standard error read, at most */
	long long	 deadline_ms;	/* from the start, for the whole run */
	int		 group;		/* a process group of its own */
};

/* What one run gave. */
struct proc_run {
	int		 status;	/* exit status, or -1: see below */
	int		 spawn_errno;	/* could not be started */
	int		 timed_out;	/* killed at the deadline */
	int		 signal;	/* killed by this signal, or 0 */
	int		 too_big;	/* stopped: output past a bound */
	struct sb	 out, err;	/* what it wrote (capped) */
};

/*
 * Run s to its end.  Returns 0 when the program ran and exited 0 within
 * the deadline and the bounds; otherwise -1 and r says why.  An exit
 * status of 127 with nothing on standard error is posix_spawnp failing
 * in the child's exec: spawn_errno is then ENOENT.  r needs no init;
 * release it with proc_run_release().
 */
int	proc_exec(const struct proc_spec *s, struct proc_run *r);
void	proc_run_release(struct proc_run *r);

#endif

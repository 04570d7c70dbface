/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_proc.c - unit tests for lib/proc.c: one program run with bounded
 * output and a deadline, the way kubectl and git are run.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proc.h"
#include "tap.h"

#define BIG	(3u << 20)	/* well past any pipe's buffer */

/* Run argv with the bounds 1 MiB past BIG, 60 s, /dev/null in. */
static void
spec(struct proc_spec *s, const char *const *argv)
{
	memset(s, 0, sizeof(*s));
	s->argv = argv;
	s->out_max = BIG + (1u << 20);
	s->err_max = BIG + (1u << 20);
	s->deadline_ms = 60 * 1000;
}

static int
all(const struct sb *b, char c)
{
	size_t i;

	for (i = 0; i < b->len; i++)
		if (b->buf[i] != c)
			return 0;
	return 1;
}

/* "R" (running), "Z" (a zombie), or "" once the process is gone. */
static char
state(long pid)
{
	char path[64], line[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return '\0';
	p = fgets(line, sizeof(line), f);
	fclose(f);
	if (p == NULL || (p = strrchr(line, ')')) == NULL || p[1] == '\0')
		return '\0';
	return p[2];
}

/*
 * The state of pid once it is gone or a zombie, or after ms: a process
 * sent SIGKILL dies when next scheduled, which a loaded machine (or
 * ASan) can put off past the sender's return.
 */
static char
state_after_kill(long pid, int ms)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	char c;

	while ((c = state(pid)) != '\0' && c != 'Z' && ms > 0) {
		nanosleep(&tick, NULL);
		ms -= 10;
	}
	return c;
}

static void
t_status(void)
{
	const char *ok0[] = { "true", NULL };
	const char *ex3[] = { "sh", "-c", "echo out; echo err >&2; exit 3",
	    NULL };
	const char *sig[] = { "sh", "-c", "kill -TERM $$", NULL };
	const char *e127[] = { "sh", "-c", "exit 127", NULL };
	struct proc_spec s;
	struct proc_run r;

	spec(&s, ok0);
	is_int(proc_exec(&s, &r), 0, "true: 0");
	is_int(r.status, 0, "true: status 0");
	ok(!r.timed_out && !r.too_big && r.signal == 0 && r.spawn_errno == 0,
	    "true: no failure flagged");
	proc_run_release(&r);

	spec(&s, ex3);
	is_int(proc_exec(&s, &r), -1, "exit 3: -1");
	is_int(r.status, 3, "exit 3: status 3");
	is_str(r.out.buf, "out\n", "exit 3: its standard output");
	is_str(r.err.buf, "err\n", "exit 3: its standard error");
	is_int(r.spawn_errno, 0, "exit 3: it was started");
	proc_run_release(&r);

	spec(&s, sig);
	is_int(proc_exec(&s, &r), -1, "killed by SIGTERM: -1");
	is_int(r.status, -1, "killed by SIGTERM: no exit status");
	is_int(r.signal, SIGTERM, "killed by SIGTERM: the signal");
	ok(!r.timed_out, "killed by SIGTERM: not a timeout");
	proc_run_release(&r);

	spec(&s, e127);
	is_int(proc_exec(&s, &r), -1, "exit 127, nothing said: -1");
	is_int(r.spawn_errno, ENOENT, "exit 127, nothing said: ENOENT");
	proc_run_release(&r);
}

static void
t_missing(void)
{
	const char *argv[] = { "fluid-t-proc-no-such-program", NULL };
	struct proc_spec s;
	struct proc_run r;

	spec(&s, argv);
	is_int(proc_exec(&s, &r), -1, "missing program: -1");
	is_int(r.spawn_errno, ENOENT, "missing program: ENOENT");
	ok(r.status == -1 || r.status == 127,
	    "missing program: no status but exec's 127 (%d)", r.status);
	ok(!r.timed_out && !r.too_big, "missing program: no timeout, no bound");
	is_int(r.out.len + r.err.len, 0, "missing program: no output");
	proc_run_release(&r);
}

static void
t_stdin(void)
{
	const char *cat[] = { "cat", NULL };
	const char *wc[] = { "sh", "-c", "wc -c | tr -d ' '", NULL };
	const char *shut[] = { "sh", "-c", "exec <&-; echo closed", NULL };
	const char *env[] = { "sh", "-c", "printf %s \"$FLUID_T_PROC\"",
	    NULL };
	char *const vars[] = { "FLUID_T_PROC=given", NULL };
	struct proc_spec s;
	struct proc_run r;
	char *big;

	spec(&s, cat);
	s.in = "hello\n";
	s.inlen = 6;
	is_int(proc_exec(&s, &r), 0, "cat: 0");
	is_str(r.out.buf, "hello\n", "cat: stdin fed");
	proc_run_release(&r);

	spec(&s, cat);
	is_int(proc_exec(&s, &r), 0, "cat, no input: 0 (/dev/null)");
	is_int(r.out.len, 0, "cat, no input: nothing out");
	proc_run_release(&r);

	spec(&s, cat);
	s.in = "";
	is_int(proc_exec(&s, &r), 0, "cat, empty input: 0 (closed pipe)");
	is_int(r.out.len, 0, "cat, empty input: nothing out");
	proc_run_release(&r);

	big = malloc(BIG);
	memset(big, 'x', BIG);
	spec(&s, wc);
	s.in = big;
	s.inlen = BIG;
	is_int(proc_exec(&s, &r), 0, "wc -c of 3 MiB: 0");
	is_int(r.out.buf != NULL ? atol(r.out.buf) : -1, BIG,
	    "wc -c of 3 MiB: every byte fed");
	proc_run_release(&r);

	/* Both ways at once: cat blocks on its output while we feed it. */
	spec(&s, cat);
	s.in = big;
	s.inlen = BIG;
	is_int(proc_exec(&s, &r), 0, "cat of 3 MiB: 0, no deadlock");
	is_int(r.out.len, BIG, "cat of 3 MiB: every byte back");
	ok(all(&r.out, 'x'), "cat of 3 MiB: the same bytes");
	proc_run_release(&r);

	/* A program that reads nothing: the write fails, the run does not. */
	spec(&s, shut);
	s.in = big;
	s.inlen = BIG;
	is_int(proc_exec(&s, &r), 0, "stdin closed unread: 0");
	is_str(r.out.buf, "closed\n", "stdin closed unread: its output");
	proc_run_release(&r);
	free(big);

	spec(&s, env);
	s.env = vars;
	is_int(proc_exec(&s, &r), 0, "an environment of ours: 0");
	is_str(r.out.buf, "given", "an environment of ours: the one given");
	proc_run_release(&r);
}

static void
t_bounds(void)
{
	const char *out[] = { "sh", "-c", "printf 0123456789", NULL };
	const char *err[] = { "sh", "-c", "printf 0123456789 >&2", NULL };
	const char *flood[] = { "sh", "-c",
	    "head -c 4194304 /dev/zero; echo never >&2", NULL };
	struct proc_spec s;
	struct proc_run r;

	spec(&s, out);
	s.out_max = 10;
	is_int(proc_exec(&s, &r), 0, "10 bytes, bound 10: 0");
	is_str(r.out.buf, "0123456789", "10 bytes, bound 10: all read");
	proc_run_release(&r);

	spec(&s, out);
	s.out_max = 9;
	is_int(proc_exec(&s, &r), -1, "stdout past its bound: -1");
	ok(r.too_big, "stdout past its bound: too_big");
	is_int(r.out.len, 0, "stdout past its bound: nothing past it read");
	ok(r.signal == 0, "stdout past its bound: not reported as a signal");
	proc_run_release(&r);

	spec(&s, err);
	s.err_max = 9;
	is_int(proc_exec(&s, &r), -1, "stderr past its bound: -1");
	ok(r.too_big, "stderr past its bound: too_big");
	ok(r.err.len <= 9, "stderr past its bound: at most the bound kept");
	proc_run_release(&r);

	/* A program that would go on: killed at the bound, not waited for. */
	spec(&s, flood);
	s.out_max = 1u << 20;
	is_int(proc_exec(&s, &r), -1, "4 MiB, bound 1 MiB: -1");
	ok(r.too_big && !r.timed_out, "4 MiB, bound 1 MiB: too_big");
	ok(r.out.len <= (1u << 20), "4 MiB, bound 1 MiB: at most 1 MiB kept");
	is_int(r.err.len, 0, "4 MiB, bound 1 MiB: stopped there");
	proc_run_release(&r);
}

static void
t_both_pipes(void)
{
	/* stderr first, past a pipe's buffer, then stdout: read both. */
	const char *both[] = { "sh", "-c", "head -c 3145728 /dev/zero | "
	    "tr '\\0' e >&2; head -c 3145728 /dev/zero | tr '\\0' o", NULL };
	struct proc_spec s;
	struct proc_run r;

	spec(&s, both);
	is_int(proc_exec(&s, &r), 0, "3 MiB on each pipe: 0, no deadlock");
	is_int(r.out.len, BIG, "3 MiB on each pipe: all of stdout");
	is_int(r.err.len, BIG, "3 MiB on each pipe: all of stderr");
	ok(all(&r.out, 'o') && all(&r.err, 'e'),
	    "3 MiB on each pipe: each on its own");
	proc_run_release(&r);
}

static void
t_early_close(void)
{
	const char *argv[] = { "sh", "-c",
	    "echo first; exec >&-; sleep 1; echo after >&2; exit 4", NULL };
	struct proc_spec s;
	struct proc_run r;

	spec(&s, argv);
	is_int(proc_exec(&s, &r), -1, "stdout closed early: -1 (exit 4)");
	is_int(r.status, 4, "stdout closed early: waited for its status");
	is_str(r.out.buf, "first\n", "stdout closed early: what came before");
	is_str(r.err.buf, "after\n", "stdout closed early: stderr read on");
	ok(!r.timed_out && !r.too_big, "stdout closed early: no failure but "
	    "the status");
	proc_run_release(&r);
}

/*
 * The program gets the pipes as 0, 1 and 2 only: when it closes those,
 * a child it leaves running holds no other copy of them, and the run
 * ends with its exit, not at the deadline.
 */
static void
t_fds(void)
{
	const char *argv[] = { "sh", "-c", "sleep 60 </dev/null >/dev/null "
	    "2>&1 & echo $!; exec >&- 2>&-; exit 5", NULL };
	struct proc_spec s;
	struct proc_run r;
	long child;

	spec(&s, argv);
	s.in = "x";
	s.inlen = 1;
	s.deadline_ms = 20 * 1000;
	is_int(proc_exec(&s, &r), -1, "a child left running: -1 (exit 5)");
	is_int(r.status, 5, "a child left running: the exit status");
	ok(!r.timed_out, "a child left running: no copy of a pipe in it");
	child = r.out.buf != NULL ? atol(r.out.buf) : 0;
	if (child > 0)
		kill((pid_t)child, SIGKILL);
	proc_run_release(&r);
}

static void
t_deadline(void)
{
	const char *sleep60[] = { "sleep", "60", NULL };
	const char *tree[] = { "sh", "-c", "sleep 60 & echo $!; wait", NULL };
	const char *hold[] = { "sh", "-c",
	    "exec >&- 2>&-; sleep 60", NULL };
	struct proc_spec s;
	struct proc_run r;
	long child;
	char c;

	spec(&s, sleep60);
	s.deadline_ms = 200;
	is_int(proc_exec(&s, &r), -1, "sleep 60, deadline 200 ms: -1");
	ok(r.timed_out, "sleep 60, deadline 200 ms: timed out");
	is_int(r.status, -1, "sleep 60, deadline 200 ms: no exit status");
	is_int(r.signal, SIGKILL, "sleep 60, deadline 200 ms: killed");
	proc_run_release(&r);

	/* Its own group: what it started is killed with it. */
	spec(&s, tree);
	s.deadline_ms = 500;
	s.group = 1;
	is_int(proc_exec(&s, &r), -1, "a tree at the deadline: -1");
	ok(r.timed_out, "a tree at the deadline: timed out");
	child = r.out.buf != NULL ? atol(r.out.buf) : 0;
	ok(child > 0, "a tree at the deadline: its child's pid (%ld)", child);
	c = child > 0 ? state_after_kill(child, 10 * 1000) : 'R';
	ok(c == '\0' || c == 'Z', "a tree at the deadline: the child is "
	    "killed too (state '%c')", c == '\0' ? '-' : c);
	proc_run_release(&r);

	/* Pipes closed but the program still running: the wait has it too. */
	spec(&s, hold);
	s.deadline_ms = 300;
	is_int(proc_exec(&s, &r), -1, "pipes closed, still running: -1");
	ok(r.timed_out, "pipes closed, still running: timed out in the wait");
	proc_run_release(&r);
}

int
main(void)
{
	/* As the tools do (cli_start()): a closed pipe is a failed write. */
	signal(SIGPIPE, SIG_IGN);
	t_status();
	t_missing();
	t_stdin();
	t_bounds();
	t_both_pipes();
	t_early_close();
	t_fds();
	t_deadline();
	return done_testing();
}

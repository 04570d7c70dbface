/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * proc.c - one program run with bounded output and a deadline (proc.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "proc.h"

extern char **environ;

void
proc_run_release(struct proc_run *r)
{
	sb_release(&r->out);
	sb_release(&r->err);
}

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Read what fd has into b; returns 0 at end of file, -1 when b would
 * hold more than max bytes (the run is then stopped: nothing past a
 * bound is read).
 */
static int
drain(int fd, struct sb *b, size_t max)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n > 0 && b->len + (size_t)n > max)
		return -1;
	if (n > 0)
		sb_addn(b, buf, (size_t)n);
	return n > 0;
}

/*
 * Feed s->in on fds[0], collect fds[1] and fds[2], until both are
 * closed or the deadline passes.  Returns 0, -1 at the deadline, -2
 * past a bound (r->too_big).
 */
static int
pump(int fds[3], const struct proc_spec *s, long long deadline,
    struct proc_run *r)
{
	struct pollfd p[3];
	size_t off = 0, np;
	long long left;
	ssize_t n;
	int i, rc;

	for (;;) {
		np = 0;
		for (i = 0; i < 3; i++)
			if (fds[i] >= 0) {
				p[np].fd = fds[i];
				p[np].events = i == 0 ? POLLOUT : POLLIN;
				p[np].revents = 0;
				np++;
			}
		if (fds[1] < 0 && fds[2] < 0)
			return 0;
		if ((left = deadline - clk_mono_ms()) <= 0)
			return -1;
		if (poll(p, np, left > INT_MAX ? INT_MAX : (int)left) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (i = 0; i < (int)np; i++) {
			if (p[i].revents == 0)
				continue;
			if (p[i].fd == fds[0]) {
				n = write(fds[0], s->in + off, s->inlen - off);
				if (n > 0)
					off += (size_t)n;
				if ((n < 0 && errno != EINTR &&
				    errno != EAGAIN) || off == s->inlen)
					close_fd(&fds[0]);
			} else if (p[i].fd == fds[1] || p[i].fd == fds[2]) {
				rc = p[i].fd == fds[1] ? drain(fds[1], &r->out,
				    s->out_max) : drain(fds[2], &r->err,
				    s->err_max);
				if (rc == -1) {
					r->too_big = 1;
					return -2;
				}
				if (rc == 0)
					close_fd(p[i].fd == fds[1] ? &fds[1] :
					    &fds[2]);
			}
		}
	}
}

static void
stop(pid_t pid, int group)
{
	if (group)
		kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/* Three pipes, or -1 with none left open. */
static int
make_pipes(int p[3][2])
{
	int i, j;

	for (i = 0; i < 3; i++)
		p[i][0] = p[i][1] = -1;
	for (i = 0; i < 3; i++)
		if (pipe(p[i]) == -1) {
			for (j = 0; j < i; j++) {
				close_fd(&p[j][0]);
				close_fd(&p[j][1]);
			}
			return -1;
		}
	return 0;
}

int
proc_exec(const struct proc_spec *s, struct proc_run *r)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int p[3][2], fds[3], ws, rc, i;
	long long deadline, nap = 1;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	sb_init(&r->out);
	sb_init(&r->err);
	r->status = -1;
	if (make_pipes(p) == -1) {
		r->spawn_errno = errno;
		return -1;
	}
	/*
	 * No end is inherited as such: the program gets its three as 0, 1
	 * and 2 (dup2 clears the flag), nothing more.
	 */
	for (i = 0; i < 3; i++) {
		fcntl(p[i][0], F_SETFD, FD_CLOEXEC);
		fcntl(p[i][1], F_SETFD, FD_CLOEXEC);
	}
	fcntl(p[0][1], F_SETFL, O_NONBLOCK);
	posix_spawn_file_actions_init(&fa);
	if (s->in != NULL)
		posix_spawn_file_actions_adddup2(&fa, p[0][0], 0);
	else
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
		    O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1][1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[2][1], 2);
	posix_spawnattr_init(&at);
	/* A group of its own, so that the deadline kills what it started. */
	if (s->group) {
		posix_spawnattr_setpgroup(&at, 0);
		posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	}
	deadline = clk_mono_ms() + s->deadline_ms;
	rc = posix_spawnp(&pid, s->argv[0], &fa, &at,
	    (char *const *)s->argv, s->env != NULL ? s->env : environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	for (i = 0; i < 3; i++)
		close_fd(&p[i][i == 0 ? 0 : 1]);
	fds[0] = p[0][1];
	fds[1] = p[1][0];
	fds[2] = p[2][0];
	if (rc != 0) {
		r->spawn_errno = rc;
		for (i = 0; i < 3; i++)
			close_fd(&fds[i]);
		return -1;
	}
	if (s->in == NULL || s->inlen == 0)
		close_fd(&fds[0]);
	if ((rc = pump(fds, s, deadline, r)) != 0) {
		r->timed_out = rc == -1;
		stop(pid, s->group);
	}
	for (i = 0; i < 3; i++)
		close_fd(&fds[i]);
	/*
	 * Both pipes are closed: the program has exited or is about to,
	 * unless a child kept them open; the deadline still holds for the
	 * wait.
	 */
	while ((rc = waitpid(pid, &ws, WNOHANG)) == 0 ||
	    (rc == -1 && errno == EINTR)) {
		if (rc == -1)
			continue;
		if (!r->timed_out && clk_mono_ms() >= deadline) {
			r->timed_out = 1;
			stop(pid, s->group);
		}
		clk_sleep_ms(nap);
		if (nap < 10)
			nap *= 2;
	}
	if (rc == -1)
		return -1;
	if (WIFEXITED(ws))
		r->status = WEXITSTATUS(ws);
	else if (WIFSIGNALED(ws) && !r->too_big)
		r->signal = WTERMSIG(ws);
	/* posix_spawnp may run the child and fail in exec: 127. */
	if (r->status == 127 && r->err.len == 0)
		r->spawn_errno = ENOENT;
	return r->status == 0 && !r->timed_out && !r->too_big ? 0 : -1;
}

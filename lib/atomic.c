/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * atomic.c - temp file, fsync, rename (see atomic.h).
 *
 * Where the file system allows it the temporary file has no name until
 * its data is written and synced (O_TMPFILE, then linkat()), so a run
 * killed half way leaves nothing behind, not even a temporary file.
 * Elsewhere it is a mkstemp() file beside the target, removed on
 * failure.
 */
#define _GNU_SOURCE		/* O_TMPFILE (Linux) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "xalloc.h"

/* Write all of buf to fd, sync it and set the mode of a shared file. */
static int
fill(int fd, const char *p, size_t len)
{
	ssize_t n;

	/* Temporary files are made 0600; generated files are shared. */
	if (fchmod(fd, 0644) == -1)
		return -1;
	while (len > 0) {
		n = write(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return fsync(fd);
}

static char *
dir_of(const char *path)
{
	const char *s = strrchr(path, '/');

	if (s == NULL)
		return xstrdup(".");
	return xstrndup(path, s == path ? 1 : (size_t)(s - path));
}

/*
 * The unnamed way.  Returns 0, -1 with errno set after a failure, or 1
 * when it cannot be done here (no O_TMPFILE in this file system, no
 * /proc): then the target is untouched and the named way is tried.
 */
static int
write_unnamed(const char *path, const void *buf, size_t len)
{
	char *dir = dir_of(path), *tmp = NULL, fdpath[64];
	int fd, e, i;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#else
	fd = -1;
	errno = EOPNOTSUPP;
#endif
	free(dir);
	if (fd == -1)
		return errno == EOPNOTSUPP || errno == EISDIR ||
		    errno == EINVAL ? 1 : -1;
	if (fill(fd, buf, len) == -1)
		goto fail;
	/* A name of its own, then over the target in one step. */
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	for (i = 0;; i++) {
		free(tmp);
		tmp = xasprintf("%s.tmp%06lx", path,
		    ((unsigned long)getpid() * 7919u + (unsigned long)i *
		    104729u + (unsigned long)rand()) & 0xffffffu);
		if (linkat(AT_FDCWD, fdpath, AT_FDCWD, tmp,
		    AT_SYMLINK_FOLLOW) == 0)
			break;
		if (errno != EEXIST || i == 100) {
			/* No /proc, say: the named way will do. */
			close(fd);
			free(tmp);
			return 1;
		}
	}
	if (close(fd) == -1) {
		fd = -1;
		goto fail_named;
	}
	fd = -1;
	if (rename(tmp, path) == -1)
		goto fail_named;
	free(tmp);
	return 0;
fail_named:
	e = errno;
	unlink(tmp);
	errno = e;
fail:
	e = errno;
	if (fd != -1)
		close(fd);
	free(tmp);
	errno = e;
	return -1;
}

/*
 * rename() replaces whatever has the name: a symbolic link rather than
 * the file it points to, a device node (-o /dev/null as root would
 * replace /dev/null), a FIFO.  Only a regular file may go.
 *
 * The window that is left: between this lstat() and the rename(), a
 * process that may write to the directory can put something else at
 * path, which the rename then replaces.  No call renames "only over a
 * regular file" (renameat2() can exchange or refuse to replace, not
 * check the type), and such a process could replace the entry itself
 * anyway; the check is against mistakes, not against the directory's
 * other writers.
 */
int
atomic_replaceable(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	if (S_ISREG(st.st_mode))
		return 0;
	errno = S_ISDIR(st.st_mode) ? EISDIR : EEXIST;
	return -1;
}

int
atomic_write(const char *path, const void *buf, size_t len)
{
	char *tmp;
	int fd, e, rc;

	if (atomic_replaceable(path) == -1)
		return -1;
	if ((rc = write_unnamed(path, buf, len)) != 1)
		return rc;
	tmp = xasprintf("%s.tmpXXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1)
		goto fail;
	if (fill(fd, buf, len) == -1)
		goto fail_fd;
	if (close(fd) == -1) {
		fd = -1;
		goto fail_fd;
	}
	if (rename(tmp, path) == -1) {
		fd = -1;
		goto fail_fd;
	}
	free(tmp);
	return 0;
fail_fd:
	e = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	errno = e;
fail:
	e = errno;
	free(tmp);
	errno = e;
	return -1;
}

int
atomic_mkdirs(const char *dir)
{
	struct stat st;
	char *p, *s;
	int rc = 0;

	p = xstrdup(dir);
	/* Each prefix ending before a '/', then the whole path. */
	for (s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		if (s[-1] != '/') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0777) == -1 && errno != EEXIST)
				rc = -1;
			else if (stat(p, &st) == -1)
				rc = -1;
			else if (!S_ISDIR(st.st_mode)) {
				errno = ENOTDIR;
				rc = -1;
			}
			*s = c;
		}
		if (rc == -1 || *s == '\0')
			break;
	}
	free(p);
	return rc;
}

int
atomic_mkparents(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int rc;

	if (slash == NULL || slash == path)
		return 0;
	dir = xstrndup(path, (size_t)(slash - path));
	rc = atomic_mkdirs(dir);
	free(dir);
	return rc;
}

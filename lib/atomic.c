/*
 * atomic.c - temp file, fsync, rename (see atomic.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "xalloc.h"

int
atomic_write(const char *path, const void *buf, size_t len)
{
	char *tmp = xasprintf("%s.tmpXXXXXX", path);
	const char *p = buf;
	ssize_t n;
	int fd, e;

	if ((fd = mkstemp(tmp)) == -1)
		goto fail;
	/* mkstemp makes 0600; generated files are meant to be shared. */
	if (fchmod(fd, 0644) == -1)
		goto fail_fd;
	while (len > 0) {
		n = write(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail_fd;
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) == -1)
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

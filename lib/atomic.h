/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * atomic.h - write a file so that it is either whole or not there.
 *
 * The data goes to a temporary file in the same directory, is flushed
 * and synced, and is then renamed over the target.  A crash, a full disk
 * or a signal leaves the old file or nothing, never half of a new one.
 */
#ifndef FLUID_ATOMIC_H
#define FLUID_ATOMIC_H

#include <stddef.h>

/*
 * Returns 0, or -1 with errno set and no temporary file left behind.
 * Only a regular file is replaced: anything else at path (a directory,
 * a symbolic link, a device, a FIFO, a socket) is left alone and is
 * EISDIR for a directory, EEXIST for the others.  A missing file is
 * created.
 */
int	atomic_write(const char *path, const void *buf, size_t len);
/*
 * Whether a rename onto path replaces nothing but a regular file: 0 when
 * path is missing or a regular file, else -1 with errno as above (or
 * lstat()'s own).
 */
int	atomic_replaceable(const char *path);

/*
 * Create dir and every missing directory above it, as mkdir -p does
 * (mode 0777 less the umask): 0, or -1 with errno (ENOTDIR when a part
 * is not a directory).  For --out paths, which fluid(1) says are made.
 */
int	atomic_mkdirs(const char *dir);
/* The same for the directory that holds path (nothing for a bare name). */
int	atomic_mkparents(const char *path);

#endif

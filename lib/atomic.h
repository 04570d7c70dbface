/*
 * atomic.h - write a file so that it is either whole or not there.
 *
 * The data goes to a temporary file in the same directory, is flushed
 * and synced, and is then renamed over the target.  A crash, a full disk
 * or a signal leaves the old file or nothing, never half of a new one.
 */
#ifndef FLUID_ATOMIC_H
#define FLUID_ATOMIC_H

#include <stddef.h>

/* Returns 0, or -1 with errno set and no temporary file left behind. */
int	atomic_write(const char *path, const void *buf, size_t len);

#endif

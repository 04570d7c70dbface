/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * xalloc.h - allocation that never returns NULL, and a growing string.
 *
 * For every file in lib/ and tools/.  Out of memory is not something a
 * contract compiler can recover from, so it is handled here, once: the
 * process prints one line and exits 2 (environment error).  That line,
 * on standard error, is the one thing lib/ writes to a stream it was
 * not given, and its exit the one exit: every other error is reported
 * to the caller (diag.h), and the tools print.
 *
 * struct sb is a NUL-terminated string buffer.  sb_init() sets it up,
 * sb_release() frees what it holds, sb_steal() hands the string to the
 * caller (who frees it) and leaves the buffer empty and unallocated
 * (buf NULL): adding to it allocates again, releasing it frees nothing.
 */
#ifndef FLUID_XALLOC_H
#define FLUID_XALLOC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The one way out of the library: "fluid: out of memory (what)" and
 * exit 2.  For allocation failures only, here and in the libraries we
 * call (libyaml's parser setup, OpenSSL's digest context), whose only
 * failure is to allocate.
 */
_Noreturn void xalloc_die(const char *what);

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

struct sb {
	char	*buf;	/* always NUL-terminated once initialised */
	size_t	 len;	/* bytes in use, excluding the NUL */
	size_t	 cap;	/* bytes allocated */
};

void	 sb_init(struct sb *);
void	 sb_release(struct sb *);
void	 sb_addn(struct sb *, const char *, size_t);
void	 sb_adds(struct sb *, const char *);
void	 sb_addc(struct sb *, char);
/* The decimal digits of v, without printf. */
void	 sb_addu(struct sb *, unsigned long long v);
/* The same written at p, which has room for 20; returns their end. */
char	*put_digits(char *p, unsigned long long v);
/* v in decimal, as "%d" prints it, without printf. */
void	 sb_addi(struct sb *, int v);
void	 sb_addf(struct sb *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void	 sb_truncate(struct sb *, size_t len);
char	*sb_steal(struct sb *);

/*
 * Read a whole file or stream into memory, refusing more than max bytes.
 * Returns 0, or -1 with errno set (EFBIG when too large).
 */
int	 slurp(FILE *fp, size_t max, unsigned char **buf, size_t *len);

#endif

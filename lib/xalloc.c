/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * xalloc.c - allocation wrappers that exit on failure (see xalloc.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

_Noreturn void
xalloc_die(const char *what)
{
	/* Exit status 2: the environment, not the contract, failed. */
	if (what != NULL)
		fprintf(stderr, "fluid: out of memory (%s)\n", what);
	else
		fputs("fluid: out of memory\n", stderr);
	exit(2);	/* EXIT_USAGE: the documented out-of-memory abort */
}

static void
oom(void)
{
	xalloc_die(NULL);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > (size_t)-1 / size)
		oom();
	p = realloc(p, nmemb * size != 0 ? nmemb * size : 1);
	if (p == NULL)
		oom();
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	char *p;

	/*
	 * Never true; said here so that a compiler instrumenting for
	 * UBSan in recoverable mode knows it (gcc 12 warns otherwise).
	 */
	if (fmt == NULL)
		abort();
	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		oom();
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void
sb_init(struct sb *sb)
{
	sb->cap = 64;
	sb->len = 0;
	sb->buf = xmalloc(sb->cap);
	sb->buf[0] = '\0';
}

void
sb_release(struct sb *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

static void
sb_grow(struct sb *sb, size_t extra)
{
	if (sb->buf != NULL && sb->len + extra + 1 <= sb->cap)
		return;
	if (sb->cap == 0)
		sb->cap = 64;	/* after sb_steal() */
	while (sb->len + extra + 1 > sb->cap)
		sb->cap *= 2;
	sb->buf = xreallocarray(sb->buf, sb->cap, 1);
}

void
sb_addn(struct sb *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
sb_adds(struct sb *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void
sb_addc(struct sb *sb, char c)
{
	sb_addn(sb, &c, 1);
}

char *
put_digits(char *p, unsigned long long v)
{
	char buf[24], *d = buf + sizeof(buf);
	size_t n;

	do
		*--d = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	n = (size_t)(buf + sizeof(buf) - d);
	memcpy(p, d, n);
	return p + n;
}

void
sb_addu(struct sb *sb, unsigned long long v)
{
	char buf[24];

	sb_addn(sb, buf, (size_t)(put_digits(buf, v) - buf));
}

void
sb_addi(struct sb *sb, int v)
{
	if (v < 0) {
		sb_addc(sb, '-');
		sb_addu(sb, (unsigned long long)-(long long)v);
	} else
		sb_addu(sb, (unsigned long long)v);
}

void
sb_addf(struct sb *sb, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	sb_adds(sb, p);
	free(p);
}

void
sb_truncate(struct sb *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

char *
sb_steal(struct sb *sb)
{
	char *p = sb->buf;

	/* Empty and unallocated: the next add allocates, release is a no-op. */
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return p ? p : xstrdup("");
}

int
slurp(FILE *fp, size_t max, unsigned char **bufp, size_t *lenp)
{
	size_t len = 0, cap = 65536, n;
	unsigned char *buf = xmalloc(cap);

	for (;;) {
		if (len == cap) {
			if (cap > max) {
				free(buf);
				errno = EFBIG;
				return -1;
			}
			/*
			 * Never more than max + 1 bytes: one byte past the
			 * limit is enough to know the input is too large.
			 */
			cap = cap > max / 2 ? max + 1 : cap * 2;
			buf = xreallocarray(buf, cap, 1);
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(fp)) {
		free(buf);
		return -1;
	}
	if (len > max) {
		free(buf);
		errno = EFBIG;
		return -1;
	}
	*bufp = buf;
	*lenp = len;
	return 0;
}

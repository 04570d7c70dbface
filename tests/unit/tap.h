/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tap.h - a minimal TAP producer for fluid's C unit tests.
 *
 * Each test program includes this once, calls ok()/is_str()/is_int() and
 * returns done_testing().  tests/run counts the "ok" and "not ok" lines
 * of every program and prints the closing "N passed, N failed".
 */
#ifndef FLUID_TAP_H
#define FLUID_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, want, ...) \
	tap_is_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) \
	tap_is_int((long long)(got), (long long)(want), __FILE__, __LINE__, \
	    __VA_ARGS__)

/*
 * Every description is a printf format, checked by the compiler
 * (-Wformat=2), so a case in a loop can name itself: "sqlq_ident #%zu".
 */
static int __attribute__((format(printf, 4, 0)))
tap_vok(int pass, const char *file, int line, const char *fmt, va_list ap)
{
	tap_n++;
	printf("%s %d - ", pass ? "ok" : "not ok", tap_n);
	vprintf(fmt, ap);
	printf("\n");
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return pass;
}

static int __attribute__((format(printf, 4, 5), unused))
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vok(pass, file, line, fmt, ap);
	va_end(ap);
	return pass;
}

static int __attribute__((format(printf, 5, 6), unused))
tap_is_str(const char *got, const char *want, const char *file, int line,
    const char *fmt, ...)
{
	int pass = (got == NULL && want == NULL) ||
	    (got != NULL && want != NULL && strcmp(got, want) == 0);
	va_list ap;

	va_start(ap, fmt);
	tap_vok(pass, file, line, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   got: '%s'\n#  want: '%s'\n", got ? got : "(null)",
		    want ? want : "(null)");
	return pass;
}

static int __attribute__((format(printf, 5, 6), unused))
tap_is_int(long long got, long long want, const char *file, int line,
    const char *fmt, ...)
{
	int pass = got == want;
	va_list ap;

	va_start(ap, fmt);
	tap_vok(pass, file, line, fmt, ap);
	va_end(ap);
	if (!pass)
		printf("#   got: %lld\n#  want: %lld\n", got, want);
	return pass;
}

/*
 * tap_q(s): s in double quotes for a test name, so that a case in a loop
 * names its input.  A byte that would break the TAP line (a control
 * character, '#', a non-ASCII byte) is written \xNN, '"' and '\\' get a
 * backslash, and a long input is cut with "...".  The result is in one
 * of four static buffers, so up to four tap_q()s may appear in one call.
 */
static __attribute__((unused)) const char *
tap_q(const char *s)
{
	static char buf[4][96];
	static int next;
	char *b = buf[next++ % 4];
	size_t n = 0;

	if (s == NULL)
		return "(null)";
	b[n++] = '"';
	for (; *s != '\0' && n < sizeof(buf[0]) - 9; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f || c == '#')
			n += (size_t)snprintf(b + n, 5, "\\x%02x", c);
		else if (c == '"' || c == '\\') {
			b[n++] = '\\';
			b[n++] = (char)c;
		} else
			b[n++] = (char)c;
	}
	if (*s != '\0') {
		memcpy(b + n, "...", 3);
		n += 3;
	}
	b[n++] = '"';
	b[n] = '\0';
	return b;
}

static int __attribute__((unused))
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif

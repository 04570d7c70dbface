/*
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

static int __attribute__((format(printf, 4, 5), unused))
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%s %d - ", pass ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return pass;
}

#define tap_desc(fmt) fmt

static int __attribute__((unused))
tap_is_str(const char *got, const char *want, const char *file, int line,
    const char *desc, ...)
{
	int pass = (got == NULL && want == NULL) ||
	    (got != NULL && want != NULL && strcmp(got, want) == 0);

	tap_ok(pass, file, line, "%s", desc);
	if (!pass)
		printf("#   got: '%s'\n#  want: '%s'\n", got ? got : "(null)",
		    want ? want : "(null)");
	return pass;
}

static int __attribute__((unused))
tap_is_int(long long got, long long want, const char *file, int line,
    const char *desc, ...)
{
	int pass = got == want;

	tap_ok(pass, file, line, "%s", desc);
	if (!pass)
		printf("#   got: %lld\n#  want: %lld\n", got, want);
	return pass;
}

static int __attribute__((unused))
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif

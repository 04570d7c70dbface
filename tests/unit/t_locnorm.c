/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_locnorm.c - unit tests for chk_uri_norm() (lib/check_util.c), the
 * one spelling of a checkpoint, savepoint, HA or catalog location that
 * fluid-check compares.
 */
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "tap.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* Each input and the spelling it must have (as Flink's Path reads it). */
static const struct {
	const char	*in;
	const char	*want;
} good[] = {
	/* The two examples. */
	{ "s3://b/x/../checkpoints", "s3://b/checkpoints" },
	{ "s3://b//x", "s3://b/x" },
	/* Dot segments, wherever they are. */
	{ "s3://b/./x/.", "s3://b/x" },
	{ "s3://b/x/./y", "s3://b/x/y" },
	{ "s3://b/x/y/../../z", "s3://b/z" },
	{ "s3://b/../../x", "s3://b/x" },
	{ "s3://b/x/..", "s3://b" },
	{ "s3://b/..x/x..", "s3://b/..x/x.." },
	{ "s3://b/.../x", "s3://b/.../x" },
	/* Repeated and trailing slashes. */
	{ "s3://b///x////y///", "s3://b/x/y" },
	{ "s3://b/x/", "s3://b/x" },
	{ "s3://b/", "s3://b" },
	{ "s3://b", "s3://b" },
	/* Percent-escapes, and the segments and slashes they spell. */
	{ "s3://b/a%20b", "s3://b/a b" },
	{ "s3://b/%63heckpoints", "s3://b/checkpoints" },
	{ "s3://b/%7e", "s3://b/~" },
	{ "s3://b/a%2Fb", "s3://b/a/b" },
	{ "s3://b/a%2fb%2F", "s3://b/a/b" },
	{ "s3://b/x/%2e%2e/y", "s3://b/y" },
	{ "s3://b/x/%2E/y", "s3://b/x/y" },
	{ "s3://b/%25", "s3://b/%" },
	/* A '%' that starts no escape is itself. */
	{ "s3://b/x%zz", "s3://b/x%zz" },
	{ "s3://b/x%4", "s3://b/x%4" },
	/* The host's case; the path's stays. */
	{ "s3://Flink-State/X", "s3://flink-state/X" },
	{ "S3://b/x", "s3://b/x" },
	/* A default port goes, another stays. */
	{ "https://Catalog.Example.COM:443/api/", "https://catalog.example.com/api" },
	{ "https://catalog.example.com:8443/api", "https://catalog.example.com:8443/api" },
	{ "http://h:80/x", "http://h/x" },
	{ "http://h:443/x", "http://h:443/x" },
	{ "s3://b:9000/x", "s3://b:9000/x" },
	/* IPv6 hosts keep their brackets. */
	{ "http://[::1]:8181/x", "http://[::1]:8181/x" },
	/* A query is no part of the place. */
	{ "https://h/api?x=1", "https://h/api" },
};

/* Inputs that are refused, and the words of the reason. */
static const struct {
	const char	*in;
	const char	*why;
} bad[] = {
	{ "s3://b/x%00y", "control" },
	{ "s3://b/x%0ay", "control" },
	{ "s3://b/x%7Fy", "control" },
	{ "s3:b/x", "absolute URL" },
	{ "s3://b/x y", "spaces" },
	{ "/checkpoints", "absolute URL" },
};

int
main(void)
{
	const char *why;
	char *got;
	size_t i;

	for (i = 0; i < NELEM(good); i++) {
		why = NULL;
		got = chk_uri_norm(good[i].in, &why);
		is_str(got ? got : "(null)", good[i].want, "chk_uri_norm(%s)",
		    good[i].in);
		free(got);
	}
	for (i = 0; i < NELEM(bad); i++) {
		why = NULL;
		got = chk_uri_norm(bad[i].in, &why);
		ok(got == NULL && why != NULL && strstr(why, bad[i].why) !=
		    NULL, "chk_uri_norm(%s) is refused: %s", bad[i].in,
		    why ? why : "(no reason)");
		/* The reason never quotes the input. */
		ok(why == NULL || strstr(why, bad[i].in) == NULL,
		    "chk_uri_norm(%s)'s reason does not quote it", bad[i].in);
		free(got);
	}
	/* Two spellings of one place are one string. */
	{
		char *a = chk_uri_norm("s3://flink-state/x/../orders/ha/", &why);
		char *b = chk_uri_norm("s3://FLINK-STATE//orders/%68a", &why);

		ok(a != NULL && b != NULL && strcmp(a, b) == 0,
		    "two spellings of one location normalise alike");
		free(a);
		free(b);
	}
	return done_testing();
}

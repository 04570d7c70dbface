/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * clock.c - monotonic and wall time (clock.h).
 */
#include <errno.h>
#include <time.h>

#include "clock.h"
#include "xalloc.h"

long long
clk_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long
clk_mono_s(void)
{
	return (long)(clk_mono_ms() / 1000);
}

void
clk_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

long long
clk_wall_s(void)
{
	return (long long)time(NULL);
}

char *
clk_utc_now(void)
{
	return clk_utc_at((long long)time(NULL));
}

char *
clk_utc_at(long long s)
{
	char buf[32] = "";
	time_t t = (time_t)s;
	struct tm tm;

	if (gmtime_r(&t, &tm) != NULL)
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return xstrdup(buf);
}

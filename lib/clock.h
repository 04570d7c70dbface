/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * clock.h - the time the library reads: a monotonic clock for deadlines
 * and back-off (a wall clock that steps would stretch or cut a wait), a
 * sleep that an interrupting signal does not cut short, and the wall
 * clock for what a report says.
 */
#ifndef FLUID_CLOCK_H
#define FLUID_CLOCK_H

/* Milliseconds of the monotonic clock (an arbitrary start). */
long long	clk_mono_ms(void);
/* Whole seconds of the monotonic clock. */
long		clk_mono_s(void);
/* Sleep ms milliseconds, resumed after a signal. */
void		clk_sleep_ms(long ms);
/* Seconds since the epoch (the wall clock). */
long long	clk_wall_s(void);
/* The wall clock as UTC, "YYYY-MM-DDTHH:MM:SSZ", a new string. */
char		*clk_utc_now(void);
/* s seconds since the epoch the same way, a new string. */
char		*clk_utc_at(long long s);

#endif

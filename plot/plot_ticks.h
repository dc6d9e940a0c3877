/* SPDX-License-Identifier: MIT */
/*
 * Axis ticks: where they go and what they say.  Every linear axis of the
 * plotter (curve y and x, bar charts) takes its ticks from here, so one
 * rule holds everywhere: a step of 1, 2, 2.5 or 5 x 10^k, 4 to 10 ticks,
 * and labels that read back as exactly the values they mark.
 */
#ifndef SLCSCOPE_PLOT_TICKS_H
#define SLCSCOPE_PLOT_TICKS_H

#include <stddef.h>

/* The fewest and most ticks an axis gets (fewer only when @max is smaller). */
#define SLC_TICKS_MIN 4
#define SLC_TICKS_MAX 10

/*
 * Ticks inside [@lo, @hi] (swapped when reversed) for about @want of them:
 * their values into @at (at most @max), the step into @step; the count.
 * A zero-width range gets a window around its value, a NaN or infinite
 * bound the window of the other or [0, 1].
 */
size_t slc__ticks(double lo, double hi, int want, double *at, size_t max, double *step);

/*
 * Ticks spanning [@lo, @hi]: the first at or below @lo, the last at or above
 * @hi, so an axis can be widened to them (same arguments and result as
 * slc__ticks).
 */
size_t slc__ticks_span(double lo, double hi, int want, double *at, size_t max, double *step);

/* The multiples of @step inside [@lo, @hi] into @at (at most @max); their count. */
size_t slc__ticks_at(double lo, double hi, double step, double *at, size_t max);

/*
 * The label of tick @v on an axis of step @step: the fewest decimals that
 * write every multiple of @step exactly, the same on every tick.
 */
void slc__tick_label(char *buf, size_t len, double v, double step);

/* @v in the fewest decimals (up to 9) that read back as @v; %g beyond that. */
void slc__num_label(char *buf, size_t len, double v);

/*
 * The label of @v on a logarithmic axis: plain up to 999, then 1k, 20k,
 * 5M ... (SI prefixes up to P); below 0.001 as 10⁻⁴ or 2×10⁻⁵.
 */
void slc__log_label(char *buf, size_t len, double v);

#endif

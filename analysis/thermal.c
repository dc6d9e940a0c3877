// SPDX-License-Identifier: MIT
/*
 * Drive-side evidence applied to a phase breakdown: temperature readings and
 * thermal-management counters tell throttling from a stall or from the end
 * of the cache, and the drive's host/NAND write counters give each phase its
 * write amplification.  Pure functions over arrays.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "slcscope/analysis.h"

/* The longest gap between readings: how far a reading's evidence reaches. */
static double reach_of(const double *t, size_t n, double floor_s)
{
	double g = floor_s;

	for (size_t i = 1; i < n; i++)
		if (t[i] - t[i - 1] > g)
			g = t[i] - t[i - 1];
	return g;
}

/*
 * Drives report whole kelvins (NVMe composite temperature, ATA attribute
 * 194), and a throttling drive cools at once, so that readings a few seconds
 * apart rarely catch the threshold itself: a reading within this much of it
 * counts as at it.
 */
#define SENSOR_STEP_C 1.0

/*
 * A throttling drive keeps near its threshold while it throttles: it is
 * released a few degrees below it (the thermal-management hysteresis).  A
 * reading this far under the warning temperature is a drive no longer held
 * back by heat.
 */
#define RELEASE_C 5.0

/* Do the readings in [a, b] show the drive cool (RELEASE_C under @warn)
 * for most of it?  A slowdown that mostly runs cool is no throttling:
 * throttling ends as the drive cools. */
static int mostly_cool(const struct slc_thermal_in *th, double a, double b)
{
	size_t in = 0, cool = 0;

	for (size_t i = 0; i < th->n_temp; i++)
		if (th->temp_t_s[i] >= a && th->temp_t_s[i] <= b) {
			in++;
			cool += th->temp_c[i] < th->warn_c - RELEASE_C;
		}
	return in > 0 && 2 * cool > in;
}

/* Any reading at or over @warn in [a, b]? */
static int hot_within(const struct slc_thermal_in *th, double a, double b)
{
	for (size_t i = 0; i < th->n_temp; i++)
		if (th->temp_t_s[i] >= a && th->temp_t_s[i] <= b && th->temp_c[i] >= th->warn_c - SENSOR_STEP_C)
			return 1;
	return 0;
}

/* Did the temperature cross @warn upwards within [a, b]?  A reading below it
 * and the next at or over it place the crossing between the two readings. */
static int crossed_within(const struct slc_thermal_in *th, double a, double b)
{
	for (size_t i = 1; i < th->n_temp; i++)
		if (th->temp_t_s[i] >= a && th->temp_t_s[i - 1] <= b &&
		    th->temp_c[i - 1] < th->warn_c - SENSOR_STEP_C && th->temp_c[i] >= th->warn_c - SENSOR_STEP_C)
			return 1;
	return 0;
}

/* Did the thermal-management transition count rise within [a, b]?  A rise
 * between two readings happened somewhere between them. */
static int tmt_rose_within(const struct slc_thermal_in *th, double a, double b)
{
	for (size_t i = 1; i < th->n_tmt; i++)
		if (th->tmt_t_s[i] >= a && th->tmt_t_s[i - 1] <= b && th->tmt[i] > th->tmt[i - 1])
			return 1;
	return 0;
}

static int is_native(enum slc_phase_kind k)
{
	return k == SLC_PHASE_DIRECT_TO_TLC || k == SLC_PHASE_ERASE_BOUND;
}

/* The reason, after the model's: the slowdown from @from_bytes was read
 * as @was (a phase kind) and is throttling; @onset: where the erase-bound
 * phase now begins (NAN: none).  Only a whole line is added. */
static void thermal_reason(struct slc_analysis *a, double from_bytes, enum slc_phase_kind was, double onset)
{
	char line[256], tail[64] = "";
	size_t len = strnlen(a->model.explain, sizeof(a->model.explain)), n;

	if (isfinite(onset)) snprintf(tail, sizeof(tail), "; erase-bound from %.4g GB written", onset / 1e9);
	n = (size_t)snprintf(line, sizeof(line), "the drive's temperature or thermal management: the slowdown from "
			     "%.4g GB written is throttling, not %s%s\n", from_bytes / 1e9,
			     was == SLC_PHASE_ERASE_BOUND ? "the erase-bound phase" : "native writing", tail);
	if (n < sizeof(line) && len + n < sizeof(a->model.explain)) memcpy(a->model.explain + len, line, n + 1);
}

int slc_analysis_apply_thermal(struct slc_analysis *a, const struct slc_thermal_in *th)
{
	int changed = 0, native_changed = 0, have_temp, have_tmt;
	enum slc_phase_kind was = SLC_PHASE_DIRECT_TO_TLC;
	double reach_t, dt = th ? th->interval_s : 0, from = NAN;

	if (!a || !th)
		return -EINVAL;
	have_temp = th->n_temp > 0 && isfinite(th->warn_c);
	have_tmt = th->n_tmt > 1;
	if (!have_temp && !have_tmt)
		return 0;
	reach_t = have_temp ? reach_of(th->temp_t_s, th->n_temp, dt) : 0;

	for (size_t i = 0; i < a->n_phases; i++) {
		struct slc_phase *p = &a->phases[i];
		double prev_bps = i ? a->phases[i - 1].mean_bps : NAN;
		int evidence;

		if (p->kind == SLC_PHASE_STALL || p->kind == SLC_PHASE_THROTTLED) {
			/* a dip: throttling when the drive was hot or managed its
			 * temperature during it, a stall when it demonstrably was not */
			evidence = (have_temp && hot_within(th, p->start_s - reach_t, p->end_s + reach_t)) ||
				   (have_tmt && tmt_rose_within(th, p->start_s, p->end_s));
			enum slc_phase_kind k = evidence ? SLC_PHASE_THROTTLED : SLC_PHASE_STALL;
			if (k != p->kind) {
				p->kind = k;
				changed++;
			}
		} else if (is_native(p->kind) && i > 0 && isfinite(prev_bps) && p->mean_bps < prev_bps) {
			/* a slowdown that starts as the drive crosses its warning
			 * temperature (or starts managing it) is throttling, not
			 * the end of the cache or the start of GC */
			evidence = (have_temp && crossed_within(th, p->start_s - dt, p->start_s + dt)) ||
				   (have_tmt && tmt_rose_within(th, p->start_s - dt, p->start_s + dt));
			if (evidence && have_temp && mostly_cool(th, p->start_s, p->end_s)) evidence = 0;
			if (evidence) {
				if (!native_changed) {
					was = p->kind;
					from = p->start_bytes;
				}
				p->kind = SLC_PHASE_THROTTLED;
				changed++;
				native_changed++;
			}
		}
	}
	if (native_changed) {
		/* the cache ends where the first native phase begins, as before */
		size_t first_native = a->n_phases, last_cache = a->n_phases;
		for (size_t i = 0; i < a->n_phases; i++)
			if (is_native(a->phases[i].kind)) { first_native = i; break; }
		for (size_t i = 0; i < first_native; i++)
			if (a->phases[i].kind == SLC_PHASE_SLC_CACHE) last_cache = i;
		/* a cache too short to measure stays a bound: its phase's end
		 * is where its sample ends, not its size */
		if (last_cache < a->n_phases && !a->model.cache_bound) {
			a->has_cache = 1;
			a->cache_bytes = a->phases[last_cache].end_bytes;
			a->cache_end_s = a->phases[last_cache].end_s;
		}
		a->erase_bound_start_s = a->erase_bound_start_bytes = NAN;
		for (size_t i = 0; i < a->n_phases; i++)
			if (a->phases[i].kind == SLC_PHASE_ERASE_BOUND) {
				a->erase_bound_start_s = a->phases[i].start_s;
				a->erase_bound_start_bytes = a->phases[i].start_bytes;
				break;
			}
		thermal_reason(a, from, was, a->erase_bound_start_bytes);
	}
	return changed;
}

/* @v at time @x, linear between readings, NAN outside [t0 - reach, tn + reach]. */
static double interp(const double *t, const double *v, size_t n, double x, double reach)
{
	if (!n || x < t[0] - reach || x > t[n - 1] + reach)
		return NAN;
	if (x <= t[0])
		return v[0];
	if (x >= t[n - 1])
		return v[n - 1];
	for (size_t i = 1; i < n; i++)
		if (x <= t[i]) {
			double f = t[i] > t[i - 1] ? (x - t[i - 1]) / (t[i] - t[i - 1]) : 1;
			return v[i - 1] + f * (v[i] - v[i - 1]);
		}
	return v[n - 1];
}

double slc_write_amplification(const double *t_s, const double *host, const double *nand, size_t n,
			       double from_s, double to_s, double reach_s)
{
	double h0, h1, n0, n1;

	if (!t_s || !host || !nand || n < 2 || !(to_s > from_s))
		return NAN;
	h0 = interp(t_s, host, n, from_s, reach_s);
	h1 = interp(t_s, host, n, to_s, reach_s);
	n0 = interp(t_s, nand, n, from_s, reach_s);
	n1 = interp(t_s, nand, n, to_s, reach_s);
	if (!isfinite(h0) || !isfinite(h1) || !isfinite(n0) || !isfinite(n1) || !(h1 > h0) || n1 < n0)
		return NAN;
	return (n1 - n0) / (h1 - h0);
}

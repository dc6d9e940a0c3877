// SPDX-License-Identifier: MIT
/*
 * One workload on a fresh simulated drive, its samples as CSV: what `sim
 * run` prints, for any program that wants a curve and the drive's own
 * events without a trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "slcscope/session.h"

struct curve_out {
	FILE *csv, *log;
	int quiet;
};

static int on_sample(void *arg, const struct slc_sample *s)
{
	struct curve_out *o = arg;

	fprintf(o->csv, "%.3f,%.3f,%" PRIu64 ",%" PRIu64 ",%.3f,%.3f,%.3f,%.3f,%.3f\n", s->t_s, s->interval_s,
		s->bytes_total, s->ios, s->lat_p50_us, s->lat_p99_us, s->lat_p999_us, s->lat_max_us, s->temp_c);
	return slc_stream_error(o->csv);
}

static int on_event(void *arg, const struct slc_sim_event *e, uint64_t t0)
{
	struct curve_out *o = arg;
	char b[32], v[32];

	if (!o->quiet)
		fprintf(o->log, "event %-20s at %9.3f s, %s written%s%s\n", slc_sim_event_name(e->kind),
			(double)(e->t_ns - t0) * 1e-9, slc_format_bytes(b, sizeof(b), (double)e->host_bytes, SLC_UNITS_DECIMAL),
			e->kind == SLC_SIM_EV_CACHE_CAPACITY ? ", cache free " : "",
			e->kind == SLC_SIM_EV_CACHE_CAPACITY ? slc_format_bytes(v, sizeof(v), e->value, SLC_UNITS_DECIMAL) : "");
	return 0;
}

static void summary(FILE *log, struct slc_target *t)
{
	struct slc_sim_counters c;
	char a[32], b[32], m[32];

	slc_sim_get_counters(slc_target_sim(t), &c);
	fprintf(log, "host writes %s, NAND writes %s (write amplification %.2f), %" PRIu64 " erases, drive memory %s\n",
		slc_format_bytes(a, sizeof(a), (double)c.host_write_bytes, SLC_UNITS_DECIMAL),
		slc_format_bytes(b, sizeof(b), (double)c.nand_write_bytes, SLC_UNITS_DECIMAL),
		c.host_write_bytes ? (double)c.nand_write_bytes / (double)c.host_write_bytes : 0.0, c.erases,
		slc_format_bytes(m, sizeof(m), (double)slc_sim_memory_bytes(slc_target_sim(t)), SLC_UNITS_BINARY));
}

int slc_sim_curve_run(const struct slc_sim_curve *c, FILE *csv, FILE *log, const volatile int *stop, char *err,
		      size_t errlen)
{
	struct curve_out o = { csv, log, c->quiet };
	struct slc_engine_cb cb = { .sample = on_sample, .event = on_event, .arg = &o };
	struct slc_job w = c->job;
	struct slc_size bytes = c->bytes;
	struct slc_job_result res;
	struct slc_target *t = NULL;
	struct slc_sim_model m;
	struct slc_sim *s = NULL;
	int rc;

	if ((rc = slc_sim_model_load(&m, c->model, err, errlen)))
		return rc;
	if (!c->have_bytes && !c->have_time)
		bytes.capacity_multiple = 1.0;
	if (slc_size_resolve(&w.max_bytes, &bytes, m.capacity_bytes))
		return slc_errf(err, errlen, -EDOM, "--bytes: too large for this drive");
	if ((rc = slc_sim_open(&s, &m, w.seed, err, errlen)))
		return rc;
	if (slc_target_from_sim(&t, s, c->model)) {
		slc_sim_close(s);
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	}
	if (c->prefill.bytes || c->prefill.capacity_multiple > 0) {
		struct slc_job pw = { .kind = SLC_JOB_SEQ_WRITE, .seed = w.seed };
		if (slc_size_resolve(&pw.max_bytes, &c->prefill, m.capacity_bytes) || !pw.max_bytes)
			rc = slc_errf(err, errlen, -EDOM, "--prefill: must be more than 0 and fit the drive");
		else if ((rc = slc_engine_run(t, &pw, NULL, stop, &res, err, errlen)) && rc != -ECANCELED)
			snprintf(err + strlen(err), errlen - strlen(err), " (in the prefill)");
	}
	if (!rc && c->idle_ns)
		slc_target_idle(t, slc_target_now_ns(t) + c->idle_ns);
	if (!rc) {
		fprintf(csv, "time_s,interval_s,bytes_total,ios,lat_p50_us,lat_p99_us,lat_p999_us,lat_max_us,temp_c\n");
		rc = slc_engine_run(t, &w, &cb, stop, &res, err, errlen);
		if (rc && rc != -ECANCELED && rc != -EINVAL) snprintf(err, errlen, "%s", strerror(-rc));
	}
	if (!rc && !c->quiet)
		summary(log, t);
	slc_target_close(t);
	return rc;
}

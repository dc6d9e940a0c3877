// SPDX-License-Identifier: MIT
/*
 * What the emulator tells: the model's events as they happen (on stderr),
 * DIR/stats.json (a fresh snapshot at each open, slcscope/emu_stats.h), the
 * description at start and the summary at exit.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "slcscope/units.h"
#include "emu_priv.h"

void slc__emu_drain_events(struct slc_emu *e)
{
	struct slc_sim_event ev[16];
	size_t n;

	while ((n = slc_sim_events(e->sim, ev, 16)) > 0) {
		for (size_t i = 0; i < n; i++) {
			struct last_event *l;
			double real_s = (double)(real_of(e, ev[i].t_ns) - e->t0) * 1e-9;

			if ((unsigned)ev[i].kind < SLC_SIM_EV__COUNT)
				e->ev_count[ev[i].kind]++;
			if (e->n_last == SLC_EMU_STATS_LAST_EVENTS) {
				memmove(e->last, e->last + 1, sizeof(e->last[0]) * (SLC_EMU_STATS_LAST_EVENTS - 1));
				e->n_last--;
			}
			l = &e->last[e->n_last++];
			l->ev = ev[i];
			l->real_s = real_s;
			if (!e->o.quiet && ev[i].kind != SLC_SIM_EV_CACHE_CAPACITY) {
				char b[32], v[32] = "";
				if (ev[i].kind == SLC_SIM_EV_TRIM)
					slc_format_bytes(v, sizeof(v), ev[i].value, SLC_UNITS_DECIMAL);
				fprintf(stderr, "slcscope emulate: %9.3f s  %-20s model %.3f s, %s written since the last TRIM%s%s\n",
					real_s, slc_sim_event_name(ev[i].kind), (double)ev[i].t_ns * 1e-9,
					slc_format_bytes(b, sizeof(b), (double)ev[i].host_bytes, SLC_UNITS_DECIMAL),
					v[0] ? ", trimmed " : "", v);
			}
		}
	}
}

/* The document as it is now; under e->mu, @v the model time of @now. */
static void snapshot(struct slc_emu *e, uint64_t now, uint64_t v, struct slc_emu_stats *s)
{
	struct slc_sim_counters c;

	slc_sim_get_counters(e->sim, &c);
	slc_emu_stats_init(s);
	s->pid = (uint64_t)getpid();
	memcpy(s->model.name, e->m.name, sizeof(s->model.name));
	s->model.capacity_bytes = e->m.capacity_bytes;
	s->model.raw_bytes = e->m.raw_bytes;
	s->model.slc_static_bytes = e->m.slc_static_bytes;
	s->model.slc_dynamic_max_bytes = e->m.slc_dynamic_max_bytes;
	s->model.throttle_c = e->m.thermal_enabled ? e->m.throttle_c : NAN;
	s->model.time_scale = e->o.time_scale;
	s->model.size_scale = e->o.size_scale;
	s->uptime_s = (double)(now - e->t0) * 1e-9;
	s->model_time_s = (double)v * 1e-9;
	s->commands = e->cmds;
	s->write_commands = e->write_cmds;
	s->read_commands = e->read_cmds;
	s->trim_commands = e->trim_cmds;
	s->host_write_bytes = c.host_write_bytes;
	s->host_read_bytes = c.host_read_bytes;
	s->host_trim_bytes = c.host_trim_bytes;
	s->nand_write_bytes = c.nand_write_bytes;
	s->slc_write_bytes = c.slc_write_bytes;
	s->gc_copy_bytes = c.gc_copy_bytes;
	s->fold_bytes = c.fold_bytes;
	s->erases = c.erases;
	s->map_flushes = c.map_flushes;
	s->write_amplification = c.host_write_bytes ? (double)c.nand_write_bytes / (double)c.host_write_bytes : NAN;
	s->cache_free_bytes = slc_sim_cache_free_bytes(e->sim);
	s->temp_c = c.temp_c;
	memcpy(s->events, e->ev_count, sizeof(s->events));
	for (size_t i = 0; i < e->n_last; i++)
		s->last_events[i] = (struct slc_emu_stats_event){ .kind = e->last[i].ev.kind, .t_s = e->last[i].real_s,
			.model_t_s = (double)e->last[i].ev.t_ns * 1e-9, .host_bytes = e->last[i].ev.host_bytes,
			.value = e->last[i].ev.value };
	s->n_last_events = e->n_last;
	s->faults.injected_errors = e->injected_errors;
	s->faults.spikes = e->spikes;
	s->faults.vanished = e->vanished;
	s->late_replies = e->late;
	s->max_late_ms = (double)e->max_late_ns * 1e-6;
	s->opens_direct = e->opens_direct;
	s->opens_buffered = e->opens_buffered;
	s->async_dio = e->async_dio;
	s->max_background = e->max_background;
	s->in_flight_max = e->in_flight_max;
}

char *slc__emu_snapshot_json(struct slc_emu *e)
{
	struct slc_emu_stats s;
	uint64_t now = mono_ns(), v;

	pthread_mutex_lock(&e->mu);
	v = vnow(e, now);
	if (!e->vanished)
		slc_sim_idle(e->sim, v);        /* background work up to now */
	slc__emu_drain_events(e);
	snapshot(e, now, v, &s);
	pthread_mutex_unlock(&e->mu);
	return slc_emu_stats_format(&s);
}

void slc_emu_describe(struct slc_emu *e, FILE *out)
{
	const struct slc_sim_model *m = &e->m;
	double t = e->o.time_scale;
	char a[32], b[32], c[32], d[32];

	fprintf(out, "slcscope emulate: %s, size scale %g, time scale %g (model seconds per real second)\n",
		m->name, e->o.size_scale, t);
	fprintf(out, "  %s/%s  %s (%" PRIu64 " bytes), data in %s; counters in %s/%s\n", e->o.dir, SLC_EMU_IMG_NAME,
		slc_format_bytes(a, sizeof(a), (double)m->capacity_bytes, SLC_UNITS_DECIMAL), m->capacity_bytes,
		e->store_path, e->o.dir, SLC_EMU_STATS_NAME);
	fprintf(out, "  as the host sees it: SLC cache %s at %s, native %s, link %s\n",
		slc_format_bytes(a, sizeof(a), (double)slc_sim_cache_free_bytes(e->sim), SLC_UNITS_DECIMAL),
		slc_format_rate(b, sizeof(b), m->slc_static_bps * t, SLC_UNITS_DECIMAL),
		slc_format_rate(c, sizeof(c), m->native_bps * t, SLC_UNITS_DECIMAL),
		slc_format_rate(d, sizeof(d), m->link_bps * t, SLC_UNITS_DECIMAL));
	fprintf(out, "  attach: losetup --direct-io=on -f --show %s/%s\n", e->o.dir, SLC_EMU_IMG_NAME);
}

void slc_emu_summary(struct slc_emu *e, FILE *out)
{
	struct slc_sim_counters c;
	char a[32], b[32], d[32], f[32];
	double up;

	pthread_mutex_lock(&e->mu);
	slc_sim_get_counters(e->sim, &c);
	up = (double)(mono_ns() - e->t0) * 1e-9;
	fprintf(out, "slcscope emulate: %s served for %.1f s (%.1f s of model time)\n", e->m.name, up,
		(double)e->last_v * 1e-9);
	fprintf(out, "  host writes  %s in %" PRIu64 " commands, reads %s in %" PRIu64 "\n",
		slc_format_bytes(a, sizeof(a), (double)c.host_write_bytes, SLC_UNITS_DECIMAL), e->write_cmds,
		slc_format_bytes(b, sizeof(b), (double)c.host_read_bytes, SLC_UNITS_DECIMAL), e->read_cmds);
	fprintf(out, "  TRIMs        %" PRIu64 " commands, %s\n", e->trim_cmds,
		slc_format_bytes(a, sizeof(a), (double)c.host_trim_bytes, SLC_UNITS_DECIMAL));
	fprintf(out, "  NAND writes  %s (write amplification %.2f), SLC %s, GC copies %s, folded %s, %" PRIu64 " erases\n",
		slc_format_bytes(a, sizeof(a), (double)c.nand_write_bytes, SLC_UNITS_DECIMAL),
		c.host_write_bytes ? (double)c.nand_write_bytes / (double)c.host_write_bytes : 0.0,
		slc_format_bytes(b, sizeof(b), (double)c.slc_write_bytes, SLC_UNITS_DECIMAL),
		slc_format_bytes(d, sizeof(d), (double)c.gc_copy_bytes, SLC_UNITS_DECIMAL),
		slc_format_bytes(f, sizeof(f), (double)c.fold_bytes, SLC_UNITS_DECIMAL), c.erases);
	fprintf(out, "  events       cache_exhausted %" PRIu64 ", free_pool_exhausted %" PRIu64 ", fold_done %" PRIu64
		", throttle_on %" PRIu64 "\n", e->ev_count[SLC_SIM_EV_CACHE_EXHAUSTED],
		e->ev_count[SLC_SIM_EV_FREE_POOL_EXHAUSTED], e->ev_count[SLC_SIM_EV_FOLD_DONE],
		e->ev_count[SLC_SIM_EV_THROTTLE_ON]);
	fprintf(out, "  replies      up to %" PRIu64 " commands in flight; %" PRIu64 " more than 1 ms late (worst %.1f ms)%s\n",
		e->in_flight_max, e->late, (double)e->max_late_ns * 1e-6,
		e->late * 10 > e->cmds && e->cmds > 100 ? ": the host could not keep up, try a smaller --time-scale" : "");
	if (e->injected_errors || e->spikes || e->vanished)
		fprintf(out, "  faults       %" PRIu64 " errors injected, %" PRIu64 " latency spikes%s\n",
			e->injected_errors, e->spikes, e->vanished ? ", vanished" : "");
	pthread_mutex_unlock(&e->mu);
}

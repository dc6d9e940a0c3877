// SPDX-License-Identifier: MIT
/*
 * The simulated drive's probe: identity from the model, health from the
 * model's counters (host and NAND writes, temperature, throttling).  A
 * simulated drive has no path for probe.c's backend table to look at, so
 * it is attached here, by the calls that are given the drive or the write
 * target in front of it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe_priv.h"
#include "slcscope/engine.h"
#include "slcscope/sim.h"
#include "slcscope/units.h"

static int sim_health(struct slc_probe *p, struct slc_health *h, char *err, size_t errlen)
{
	struct slc_sim_counters c;
	const struct slc_sim_model *m = slc_sim_model_of(p->sim);

	(void)err; (void)errlen;
	slc_health_init(h);
	slc_sim_get_counters(p->sim, &c);
	h->has_smart = 1;
	h->host_write_bytes = c.host_write_bytes;
	h->host_read_bytes = c.host_read_bytes;
	h->nand_write_bytes = c.nand_write_bytes;
	snprintf(h->nand_write_source, sizeof(h->nand_write_source), "sim");
	h->temp_c = c.temp_c;
	if (m->thermal_enabled) {
		h->warn_temp_c = m->throttle_c;
		h->throttled = c.throttled;
		h->thm_transitions[0] = c.throttle_transitions;
		h->thm_transitions[1] = 0;
	}
	return 0;
}

static int sim_temperature(struct slc_probe *p, double *c)
{
	struct slc_sim_counters k;

	slc_sim_get_counters(p->sim, &k);
	if (!isfinite(k.temp_c))
		return -ENODATA;
	*c = k.temp_c;
	return 0;
}

static const struct slc_probe_ops sim_ops = {
	.health = sim_health,
	.temperature = sim_temperature,
	/* no purge of its own: the dispatcher answers TRIM (the caller's) */
};

static void sim_attach(struct slc_probe *p, struct slc_sim *sim)
{
	const struct slc_sim_model *m = slc_sim_model_of(sim);

	p->sim = sim;
	p->ops = &sim_ops;
	p->id.source = SLC_PROBE_SIM;
	snprintf(p->id.interface, sizeof(p->id.interface), "sim");
	snprintf(p->id.link, sizeof(p->id.link), "simulated %s", m->interface);
	snprintf(p->id.model, sizeof(p->id.model), "%.127s", m->description[0] ? m->description : m->name);
	snprintf(p->id.serial, sizeof(p->id.serial), "SIM-%.59s", m->name);
	snprintf(p->id.firmware, sizeof(p->id.firmware), "%s", SLCSCOPE_VERSION);
	snprintf(p->id.vendor, sizeof(p->id.vendor), "slcscope");
	p->id.capacity_bytes = m->capacity_bytes;
	p->id.logical_block_bytes = 512;
	p->id.physical_block_bytes = m->unit_bytes;
	p->id.rotational = 0;
	p->id.discard_granularity_bytes = m->unit_bytes;
	p->id.discard_max_bytes = m->capacity_bytes;
	p->id.trim_supported = 1;
}

int slc_probe_open_sim(struct slc_probe **out, struct slc_sim *sim, const char *spec,
		       char *err, size_t errlen)
{
	struct slc_probe *p;

	*out = NULL;
	if (!sim)
		return slc_errf(err, errlen, -EINVAL, "no simulated drive");
	if (!(p = slc__probe_alloc(spec ? spec : "sim:")))
		return slc_errf(err, errlen, -ENOMEM, "out of memory");
	sim_attach(p, sim);
	*out = p;
	return 0;
}

int slc_probe_open_target(struct slc_probe **out, struct slc_target *t, char *err, size_t errlen)
{
	struct slc_sim *sim = slc_target_sim(t);

	*out = NULL;
	if (sim)
		return slc_probe_open_sim(out, sim, slc_target_spec(t), err, errlen);
	if (slc_target_caps(t) & SLC_TARGET_CAP_NO_IO)
		return slc_errf(err, errlen, -ENODEV, "%s: no drive behind it to probe", slc_target_spec(t));
	return slc_probe_open(out, slc_target_spec(t), err, errlen);
}

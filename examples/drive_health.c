// SPDX-License-Identifier: MIT
/*
 * drive_health: what a drive is and what one sequential pass costs it in
 * flash writes, with the probes library.
 *
 *   drive_health [DEVICE|FILE|sim:MODEL]     defaults to sim:tiny-tlc
 *
 * Prints the drive's identity and health.  For a simulated drive it then
 * writes the drive once sequentially and reads its health again: host bytes,
 * NAND bytes and the write amplification between the two snapshots, the
 * figures `slcscope run` stores around every step.  Real devices are only
 * read (opened read-only), never written.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/core.h"
#include "slcscope/probe.h"

static void show(const char *when, const struct slc_health *h)
{
	if (!h->has_smart) {
		printf("%s: %s\n", when, h->no_smart_reason);
		return;
	}
	printf("%s: host writes %" PRIu64 " bytes, NAND writes ", when, h->host_write_bytes);
	if (h->nand_write_bytes == SLC_PROBE_UNKNOWN)
		printf("not counted");
	else
		printf("%" PRIu64 " bytes", h->nand_write_bytes);
	if (isfinite(h->temp_c))
		printf(", %.1f C", h->temp_c);
	printf("\n");
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "sim:tiny-tlc";
	struct slc_sim *sim = NULL;
	struct slc_probe *p;
	struct slc_health before, after;
	char err[512];

	if (!strncmp(spec, "sim:", 4)) {
		struct slc_sim_model m;
		if (slc_sim_model_load(&m, spec, err, sizeof(err)) || slc_sim_open(&sim, &m, 1, err, sizeof(err)) ||
		    slc_probe_open_sim(&p, sim, spec, err, sizeof(err))) {
			fprintf(stderr, "drive_health: %s\n", err);
			return 1;
		}
	} else if (slc_probe_open(&p, spec, err, sizeof(err))) {
		fprintf(stderr, "drive_health: %s\n", err);
		return 1;
	}
	{
		const struct slc_identity *id = slc_probe_identity(p);
		printf("%s: %s, %s, %" PRIu64 " bytes (via %s)\n", spec, id->model[0] ? id->model : "(no model)",
		       id->interface, id->capacity_bytes, slc_probe_source_name(id->source));
	}
	if (slc_probe_health(p, &before, err, sizeof(err))) {
		fprintf(stderr, "drive_health: %s\n", err);
		slc_probe_close(p);
		slc_sim_close(sim);
		return 1;
	}
	show("health", &before);
	if (sim) {
		uint64_t cap = slc_probe_identity(p)->capacity_bytes, now = 0;
		for (uint64_t off = 0; off + 131072 <= cap; off += 131072)
			now = slc_sim_write(sim, now, off, 131072, NULL);
		slc_probe_health(p, &after, err, sizeof(err));
		show("after one sequential pass", &after);
		printf("write amplification of the pass: %.3f\n", slc_health_write_amplification(&before, &after));
	}
	slc_probe_close(p);
	slc_sim_close(sim);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * The emulated drive's probe: a loop device attached to DIR/drive.img of a
 * 'slcscope emulate MODEL DIR' mount.  The emulator serves the model's live
 * counters as DIR/stats.json (slcscope/emu_stats.h); this backend reads
 * them as the drive's health, so that runs against the emulated block
 * device carry host and NAND writes and temperature like a drive with SMART.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/emu_stats.h"
#include "probe_priv.h"

struct emu_priv {
	char stats[PATH_MAX];
};

static uint64_t known(uint64_t v)
{
	return v == SLC_EMU_STATS_UNKNOWN ? SLC_PROBE_UNKNOWN : v;
}

static int emu_health(struct slc_probe *p, struct slc_health *h, char *err, size_t errlen)
{
	struct emu_priv *e = p->priv;
	struct slc_emu_stats s;

	slc_health_init(h);
	if (slc_emu_stats_load(&s, e->stats, err, errlen))
		return -EIO;
	h->has_smart = 1;
	h->host_write_bytes = known(s.host_write_bytes);
	h->host_read_bytes = known(s.host_read_bytes);
	h->host_write_cmds = known(s.write_commands);
	h->host_read_cmds = known(s.read_commands);
	h->nand_write_bytes = known(s.nand_write_bytes);
	if (h->nand_write_bytes != SLC_PROBE_UNKNOWN)
		snprintf(h->nand_write_source, sizeof(h->nand_write_source), "emulated model");
	h->temp_c = s.temp_c;
	h->warn_temp_c = s.model.throttle_c;
	if (isfinite(h->warn_temp_c)) {
		h->thm_transitions[0] = known(s.events[SLC_SIM_EV_THROTTLE_ON]);
		h->thm_transitions[1] = 0;
	}
	return 0;
}

static int emu_temperature(struct slc_probe *p, double *c)
{
	struct slc_health h;

	if (emu_health(p, &h, NULL, 0) || !isfinite(h.temp_c))
		return -ENODATA;
	*c = h.temp_c;
	return 0;
}

static void emu_close(struct slc_probe *p)
{
	free(p->priv);
	p->priv = NULL;
}

static const struct slc_probe_ops emu_ops = {
	.health = emu_health,
	.temperature = emu_temperature,
	/* no purge of its own: the dispatcher answers TRIM (the caller's) */
	.close = emu_close,
};

int slc__emu_attach(struct slc_probe *p, char *err, size_t errlen)
{
	char path[PATH_MAX + 64], backing[PATH_MAX];
	struct slc_emu_stats s;
	struct emu_priv *e;
	FILE *f;
	char *slash;
	size_t n;

	if (!p->id.kernel_name[0])
		return -ENOTSUP;
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", p->id.kernel_name);
	if (!(f = fopen(path, "re")))
		return -ENOTSUP;
	n = fread(backing, 1, sizeof(backing) - 1, f);
	fclose(f);
	backing[n] = '\0';
	while (n && (backing[n - 1] == '\n' || backing[n - 1] == ' ')) backing[--n] = '\0';
	slash = strrchr(backing, '/');
	if (!slash || strcmp(slash + 1, SLC_EMU_IMG_NAME))
		return -ENOTSUP;
	if (!(e = calloc(1, sizeof(*e))))
		return -ENOMEM;
	*slash = '\0';
	snprintf(e->stats, sizeof(e->stats), "%.*s/%s", (int)(sizeof(e->stats) - sizeof("/" SLC_EMU_STATS_NAME)), backing,
		 SLC_EMU_STATS_NAME);
	if (slc_emu_stats_load(&s, e->stats, err, errlen)) {
		free(e);
		return -ENOTSUP;
	}
	if (s.model.name[0])
		snprintf(p->id.model, sizeof(p->id.model), "slcscope emulate %.100s", s.model.name);
	snprintf(p->id.serial, sizeof(p->id.serial), "EMU-%lld",
		 s.pid == SLC_EMU_STATS_UNKNOWN ? 0ll : (long long)s.pid);
	snprintf(p->id.firmware, sizeof(p->id.firmware), "%s", SLCSCOPE_VERSION);
	p->priv = e;
	p->ops = &emu_ops;
	return 0;
}

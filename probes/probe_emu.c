// SPDX-License-Identifier: MIT
/*
 * The emulated drive's probe: a loop device attached to DIR/drive.img of a
 * 'slcscope emulate MODEL DIR' mount.  The emulator serves the model's live
 * counters as DIR/stats.json (schema slcscope.emulate-stats/1); this backend
 * reads them as the drive's health, so that runs against the emulated block
 * device carry host and NAND writes and temperature like a drive with SMART.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "probe_priv.h"

#define EMU_SCHEMA "slcscope.emulate-stats/1"

struct emu_priv {
	char stats[PATH_MAX];
};

/* Load and check stats.json; NULL with a reason in @err. */
static json_t *load_stats(const char *path, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je), *s;

	if (!doc) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, je.text);
		return NULL;
	}
	s = json_object_get(doc, "schema");
	if (!json_is_string(s) || strcmp(json_string_value(s), EMU_SCHEMA)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: not %s", path, EMU_SCHEMA);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static uint64_t u64_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) >= 0 ? (uint64_t)json_integer_value(v) : SLC_PROBE_UNKNOWN;
}

static double real_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int emu_health(struct slc_probe *p, struct slc_health *h, char *err, size_t errlen)
{
	struct emu_priv *e = p->priv;
	json_t *doc = load_stats(e->stats, err, errlen), *model, *ev;

	slc_health_init(h);
	if (!doc)
		return -EIO;
	model = json_object_get(doc, "model");
	ev = json_object_get(doc, "events");
	h->has_smart = 1;
	h->host_write_bytes = u64_of(doc, "host_write_bytes");
	h->host_read_bytes = u64_of(doc, "host_read_bytes");
	h->host_write_cmds = u64_of(doc, "write_commands");
	h->host_read_cmds = u64_of(doc, "read_commands");
	h->nand_write_bytes = u64_of(doc, "nand_write_bytes");
	if (h->nand_write_bytes != SLC_PROBE_UNKNOWN)
		snprintf(h->nand_write_source, sizeof(h->nand_write_source), "emulated model");
	h->temp_c = real_of(doc, "temp_c");
	h->warn_temp_c = real_of(model, "throttle_c");
	if (isfinite(h->warn_temp_c)) {
		h->thm_transitions[0] = u64_of(ev, "throttle_on");
		h->thm_transitions[1] = 0;
	}
	json_decref(doc);
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

int slc_emu_attach(struct slc_probe *p, char *err, size_t errlen)
{
	char path[PATH_MAX + 64], backing[PATH_MAX];
	struct emu_priv *e;
	json_t *doc, *model;
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
	if (!slash || strcmp(slash + 1, "drive.img"))
		return -ENOTSUP;
	if (!(e = calloc(1, sizeof(*e))))
		return -ENOMEM;
	*slash = '\0';
	snprintf(e->stats, sizeof(e->stats), "%.*s/stats.json", (int)(sizeof(e->stats) - 12), backing);
	if (!(doc = load_stats(e->stats, err, errlen))) {
		free(e);
		return -ENOTSUP;
	}
	model = json_object_get(doc, "model");
	if (json_is_string(json_object_get(model, "name")))
		snprintf(p->id.model, sizeof(p->id.model), "slcscope emulate %.100s", json_string_value(json_object_get(model, "name")));
	snprintf(p->id.serial, sizeof(p->id.serial), "EMU-%lld", (long long)json_integer_value(json_object_get(doc, "pid")));
	snprintf(p->id.firmware, sizeof(p->id.firmware), "%s", SLCSCOPE_VERSION);
	json_decref(doc);
	p->priv = e;
	p->ops = &emu_ops;
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * Drive models: JSON files parsed with jansson.  Every field is checked
 * against a table (type, range, unit conversion); unknown fields are refused
 * so that a typo never silently falls back to a default.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#include "slcscope/core.h"
#include "private.h"

enum ftype { F_U64, F_U32, F_DBL, F_BOOL, F_STR, F_WHENFULL };

struct field {
	const char *section;       /* NULL: top level */
	const char *key;
	enum ftype type;
	size_t off;
	double min, max;           /* inclusive range, in the JSON's unit */
	double scale;              /* JSON unit -> model unit */
	int required;
	double dflt;               /* used when absent and not required (numbers) */
};

#define M(f) offsetof(struct slc_sim_model, f)
#define BIG 9.2e18

static const struct field fields[] = {
	{ NULL, "name", F_STR, M(name), 0, 0, 0, 1, 0 },
	{ NULL, "description", F_STR, M(description), 0, 0, 0, 0, 0 },
	{ NULL, "interface", F_STR, M(interface), 0, 0, 0, 0, 0 },
	{ NULL, "capacity_bytes", F_U64, M(capacity_bytes), 1048576, BIG, 1, 1, 0 },
	{ NULL, "mapping_unit_bytes", F_U32, M(unit_bytes), 512, 1048576, 1, 0, 4096 },
	{ "nand", "bits_per_cell", F_U32, M(bits_per_cell), 1, 4, 1, 1, 0 },
	{ "nand", "raw_bytes", F_U64, M(raw_bytes), 1048576, BIG, 1, 1, 0 },
	{ "nand", "block_bytes", F_U64, M(block_bytes), 4096, 1073741824.0, 1, 1, 0 },
	{ "nand", "erase_ms", F_DBL, M(erase_ns), 0, 1000, 1e6, 0, 3 },
	{ "nand", "channels", F_U32, M(channels), 1, 64, 1, 0, 4 },
	{ "nand", "dies_per_channel", F_U32, M(dies_per_channel), 1, 64, 1, 0, 2 },
	{ "nand", "page_bytes", F_U32, M(page_bytes), 512, 4194304, 1, 0, 16384 },
	{ "nand", "read_us", F_DBL, M(read_native_ns), 1, 100000, 1e3, 0, -1 },
	{ "nand", "slc_read_us", F_DBL, M(read_slc_ns), 1, 100000, 1e3, 0, 30 },
	{ "nand", "program_us", F_DBL, M(prog_native_ns), 1, 100000, 1e3, 0, -1 },
	{ "nand", "slc_program_us", F_DBL, M(prog_slc_ns), 1, 100000, 1e3, 0, -1 },
	{ "nand", "channel_MBps", F_DBL, M(channel_bps), 1, 1e6, 1e6, 0, 400 },
	{ "controller", "max_iops", F_DBL, M(max_iops), 1, 1e8, 1, 1, 0 },
	{ "controller", "link_MBps", F_DBL, M(link_bps), 1, 1e6, 1e6, 1, 0 },
	{ "controller", "write_buffer_ms", F_DBL, M(write_buffer_ns), 0, 10000, 1e6, 0, 20 },
	{ "controller", "latency_us", F_DBL, M(latency_ns), 0, 100000, 1e3, 0, 20 },
	{ "controller", "duplex_penalty", F_DBL, M(duplex_penalty), 0, 100, 1, 0, 0 },
	{ "speed_MBps", "slc_static", F_DBL, M(slc_static_bps), 0.001, 1e6, 1e6, 0, -1 },
	{ "speed_MBps", "slc_dynamic", F_DBL, M(slc_dynamic_bps), 0.001, 1e6, 1e6, 0, -1 },
	{ "speed_MBps", "native", F_DBL, M(native_bps), 0.001, 1e6, 1e6, 1, 0 },
	{ "speed_MBps", "gc_copy", F_DBL, M(gc_copy_bps), 0.001, 1e6, 1e6, 1, 0 },
	{ "speed_MBps", "fold_idle", F_DBL, M(fold_idle_bps), 0.001, 1e6, 1e6, 0, -1 },
	{ "speed_MBps", "read", F_DBL, M(read_bps), 0.001, 1e6, 1e6, 0, 500 },
	{ "slc_cache", "static_bytes", F_U64, M(slc_static_bytes), 0, BIG, 1, 0, 0 },
	{ "slc_cache", "dynamic_max_bytes", F_U64, M(slc_dynamic_max_bytes), 0, BIG, 1, 0, 0 },
	{ "slc_cache", "dynamic_free_ratio", F_DBL, M(slc_dynamic_free_ratio), 0, 1, 1, 0, 0 },
	{ "slc_cache", "fast_tier_bytes", F_U64, M(slc_fast_tier_bytes), 0, BIG, 1, 0, 0 },
	{ "slc_cache", "when_full", F_WHENFULL, M(when_full), 0, 0, 0, 0, 0 },
	{ "gc", "free_fraction", F_DBL, M(gc_free_fraction), 0, 0.5, 1, 0, 0.02 },
	{ "gc", "idle", F_BOOL, M(idle_gc), 0, 0, 0, 0, 0 },
	{ "gc", "idle_target_bytes", F_U64, M(idle_gc_target_bytes), 0, BIG, 1, 0, 0 },
	{ "gc", "idle_copy_MBps", F_DBL, M(idle_gc_bps), 0.001, 1e6, 1e6, 0, -1 },
	{ "trim", "process_GBps", F_DBL, M(trim_process_bps), 0.001, 1e6, 1e9, 0, 50 },
	{ "trim", "read_slowdown", F_DBL, M(trim_read_slowdown), 1, 1000, 1, 0, 1 },
	{ "trim", "read_stall_ms", F_DBL, M(trim_read_stall_ns), 0, 600000, 1e6, 0, 0 },
	{ "map_cache", "entries", F_U64, M(map_cache_entries), 0, BIG, 1, 0, 0 },
	{ "map_cache", "journal_entries", F_U32, M(map_journal_entries), 1, 1e9, 1, 0, 4096 },
	{ "map_cache", "flush_us_per_entry", F_DBL, M(map_flush_entry_ns), 0, 1e6, 1e3, 0, 0 },
	{ "map_cache", "miss_us", F_DBL, M(map_miss_ns), 0, 1e6, 1e3, 0, 0 },
	{ "noise", "io_jitter_sigma", F_DBL, M(io_jitter_sigma), 0, 2, 1, 0, 0 },
	{ "noise", "native_sigma", F_DBL, M(native_sigma), 0, 3, 1, 0, 0 },
	{ "noise", "native_tau_s", F_DBL, M(native_tau_s), 0.001, 3600, 1, 0, 1 },
	{ "thermal", "enabled", F_BOOL, M(thermal_enabled), 0, 0, 0, 0, 0 },
	{ "thermal", "ambient_c", F_DBL, M(ambient_c), -40, 100, 1, 0, 35 },
	{ "thermal", "idle_w", F_DBL, M(idle_w), 0, 100, 1, 0, 1 },
	{ "thermal", "write_nJ_per_byte", F_DBL, M(write_nj_per_byte), 0, 1000, 1, 0, 2 },
	{ "thermal", "c_per_w", F_DBL, M(c_per_w), 0, 100, 1, 0, 8 },
	{ "thermal", "tau_s", F_DBL, M(thermal_tau_s), 0.01, 3600, 1, 0, 60 },
	{ "thermal", "throttle_c", F_DBL, M(throttle_c), 0, 150, 1, 0, 80 },
	{ "thermal", "hysteresis_c", F_DBL, M(throttle_hysteresis_c), 0, 50, 1, 0, 3 },
	{ "thermal", "throttle_factor", F_DBL, M(throttle_factor), 1, 100, 1, 0, 3 },
	{ "compression", "enabled", F_BOOL, M(compression), 0, 0, 0, 0, 0 },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static const char *const sections[] = {
	"nand", "controller", "speed_MBps", "slc_cache", "gc", "trim", "map_cache", "noise",
	"thermal", "compression",
};


/* "nand.erase_ms" or "name" for messages */
static const char *field_name(char *buf, size_t len, const char *section, const char *key)
{
	if (section) snprintf(buf, len, "%s.%s", section, key);
	else snprintf(buf, len, "%s", key);
	return buf;
}

static int set_field(struct slc_sim_model *m, const struct field *f, json_t *v, const char *origin,
		     char *err, size_t errlen)
{
	char *base = (char *)m + f->off, name[64];
	double d;

	field_name(name, sizeof(name), f->section, f->key);
	switch (f->type) {
	case F_STR: {
		size_t cap = f->off == M(name) ? sizeof(m->name) :
			     f->off == M(description) ? sizeof(m->description) : sizeof(m->interface);
		if (!json_is_string(v))
			return slc_errf(err, errlen, -EINVAL, "%s: %s must be a string", origin, name);
		if (strlen(json_string_value(v)) >= cap)
			return slc_errf(err, errlen, -EINVAL, "%s: %s is longer than %zu characters", origin, name, cap - 1);
		snprintf(base, cap, "%s", json_string_value(v));
		return 0;
	}
	case F_BOOL:
		if (!json_is_boolean(v))
			return slc_errf(err, errlen, -EINVAL, "%s: %s must be true or false", origin, name);
		*(int *)base = json_is_true(v);
		return 0;
	case F_WHENFULL:
		if (!json_is_string(v))
			return slc_errf(err, errlen, -EINVAL, "%s: %s must be \"direct\" or \"fold\"", origin, name);
		if (strcmp(json_string_value(v), "direct") == 0)
			*(enum slc_sim_when_full *)base = SLC_SIM_FULL_DIRECT;
		else if (strcmp(json_string_value(v), "fold") == 0)
			*(enum slc_sim_when_full *)base = SLC_SIM_FULL_FOLD;
		else
			return slc_errf(err, errlen, -EINVAL, "%s: %s must be \"direct\" or \"fold\", not \"%s\"",
				    origin, name, json_string_value(v));
		return 0;
	default:
		break;
	}
	if (!json_is_number(v))
		return slc_errf(err, errlen, -EINVAL, "%s: %s must be a number", origin, name);
	d = json_number_value(v);
	if (!isfinite(d) || d < f->min || d > f->max)
		return slc_errf(err, errlen, -EINVAL, "%s: %s = %g is out of range [%g, %g]", origin, name, d, f->min, f->max);
	if ((f->type == F_U64 || f->type == F_U32) && (!json_is_integer(v) || d != floor(d)))
		return slc_errf(err, errlen, -EINVAL, "%s: %s must be a whole number", origin, name);
	if (f->type == F_U64)
		*(uint64_t *)base = (uint64_t)json_integer_value(v);
	else if (f->type == F_U32)
		*(uint32_t *)base = (uint32_t)json_integer_value(v);
	else
		*(double *)base = d * f->scale;
	return 0;
}

static void set_default(struct slc_sim_model *m, const struct field *f)
{
	char *base = (char *)m + f->off;

	if (f->type == F_U64) *(uint64_t *)base = (uint64_t)f->dflt;
	else if (f->type == F_U32) *(uint32_t *)base = (uint32_t)f->dflt;
	else if (f->type == F_DBL) *(double *)base = f->dflt < 0 ? -1 : f->dflt * f->scale;
}

static int known_key(const char *section, const char *key)
{
	for (size_t i = 0; i < NFIELDS; i++) {
		if (strcmp(fields[i].key, key) != 0) continue;
		if (!section ? !fields[i].section : fields[i].section && strcmp(fields[i].section, section) == 0)
			return 1;
	}
	return 0;
}

static int check_unknown(json_t *root, const char *origin, char *err, size_t errlen)
{
	const char *key;
	json_t *v;

	json_object_foreach(root, key, v) {
		size_t i;
		if (strcmp(key, "schema") == 0 || known_key(NULL, key))
			continue;
		for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
			if (strcmp(key, sections[i]) == 0) break;
		if (i == sizeof(sections) / sizeof(sections[0]))
			return slc_errf(err, errlen, -EINVAL, "%s: unknown field '%s'", origin, key);
		if (!json_is_object(v))
			return slc_errf(err, errlen, -EINVAL, "%s: '%s' must be an object", origin, key);
		{
			const char *k2;
			json_t *v2;
			json_object_foreach(v, k2, v2) {
				if (!known_key(key, k2))
					return slc_errf(err, errlen, -EINVAL, "%s: unknown field '%s.%s'", origin, key, k2);
			}
		}
	}
	return 0;
}

/* Relations between fields that single-field ranges cannot express. */
static int check_model(struct slc_sim_model *m, const char *origin, char *err, size_t errlen)
{
	uint64_t u = m->unit_bytes;

	if (u & (u - 1))
		return slc_errf(err, errlen, -EINVAL, "%s: mapping_unit_bytes must be a power of two", origin);
	if (m->capacity_bytes % u)
		return slc_errf(err, errlen, -EINVAL, "%s: capacity_bytes must be a multiple of mapping_unit_bytes", origin);
	if (m->block_bytes % (u * m->bits_per_cell))
		return slc_errf(err, errlen, -EINVAL, "%s: nand.block_bytes must be a multiple of mapping_unit_bytes x bits_per_cell", origin);
	if (m->raw_bytes < m->capacity_bytes)
		return slc_errf(err, errlen, -EINVAL, "%s: nand.raw_bytes is smaller than capacity_bytes", origin);
	if (m->slc_static_bps < 0) m->slc_static_bps = m->native_bps;
	if (m->slc_dynamic_bps < 0) m->slc_dynamic_bps = m->slc_static_bps;
	if (m->fold_idle_bps < 0) m->fold_idle_bps = m->gc_copy_bps;
	if (m->idle_gc_bps < 0) m->idle_gc_bps = m->gc_copy_bps;
	if (m->page_bytes & (m->page_bytes - 1))
		return slc_errf(err, errlen, -EINVAL, "%s: nand.page_bytes must be a power of two", origin);
	/* a page smaller than the mapping unit: one unit is the smallest program */
	if (m->page_bytes < u) m->page_bytes = (uint32_t)u;
	if (m->read_native_ns < 0) {
		/* typical page reads by cell type (us): more levels to sense, longer */
		static const double tr_us[] = { 25, 50, 80, 120 };
		m->read_native_ns = tr_us[m->bits_per_cell - 1] * 1e3;
	}
	if (m->prog_native_ns < 0 || m->prog_slc_ns < 0) {
		/* typical page programs by cell type (us), shortened where the dies
		 * could not otherwise keep up with the model's program speeds: at
		 * those speeds the dies are then at most 80% busy */
		static const double tp_us[] = { 200, 900, 2000, 4000 };
		double dies = (double)m->channels * m->dies_per_channel, page = (double)m->page_bytes;
		double slc_bps = m->slc_static_bps > m->slc_dynamic_bps ? m->slc_static_bps : m->slc_dynamic_bps;
		double nat = 0.8e9 * dies * page / m->native_bps, slc = 0.8e9 * dies * page / slc_bps;
		if (m->prog_native_ns < 0)
			m->prog_native_ns = tp_us[m->bits_per_cell - 1] * 1e3 < nat ? tp_us[m->bits_per_cell - 1] * 1e3 : nat;
		if (m->prog_slc_ns < 0)
			m->prog_slc_ns = 300e3 < slc ? 300e3 : slc;
	}
	if (m->slc_dynamic_max_bytes && m->slc_dynamic_free_ratio <= 0)
		return slc_errf(err, errlen, -EINVAL, "%s: slc_cache.dynamic_free_ratio must be > 0 with a dynamic cache", origin);
	/* static SLC blocks come out of the over-provisioning */
	if ((double)m->slc_static_bytes * m->bits_per_cell > (double)(m->raw_bytes - m->capacity_bytes) * 0.9)
		return slc_errf(err, errlen, -EINVAL, "%s: slc_cache.static_bytes x bits_per_cell exceeds 90%% of the spare flash", origin);
	return 0;
}

int slc_sim_model_parse(struct slc_sim_model *out, const char *json, const char *origin,
			char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root, *schema;
	int rc;

	memset(out, 0, sizeof(*out));
	root = json_loads(json, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return slc_errf(err, errlen, -EINVAL, "%s: line %d: %s", origin, jerr.line, jerr.text);
	if (!json_is_object(root)) {
		rc = slc_errf(err, errlen, -EINVAL, "%s: a model is a JSON object", origin);
		goto out;
	}
	schema = json_object_get(root, "schema");
	if (!json_is_string(schema) || strcmp(json_string_value(schema), SLC_SIM_MODEL_SCHEMA) != 0) {
		rc = slc_errf(err, errlen, -EINVAL, "%s: \"schema\" must be \"%s\"", origin, SLC_SIM_MODEL_SCHEMA);
		goto out;
	}
	if ((rc = check_unknown(root, origin, err, errlen)))
		goto out;
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct field *f = &fields[i];
		json_t *sec = f->section ? json_object_get(root, f->section) : root;
		json_t *v = sec ? json_object_get(sec, f->key) : NULL;
		char name[64];

		if (!v) {
			if (f->required) {
				rc = slc_errf(err, errlen, -EINVAL, "%s: missing field '%s'", origin,
					  field_name(name, sizeof(name), f->section, f->key));
				goto out;
			}
			set_default(out, f);
			continue;
		}
		if ((rc = set_field(out, f, v, origin, err, errlen)))
			goto out;
	}
	rc = check_model(out, origin, err, errlen);
out:
	json_decref(root);
	return rc;
}

int slc_sim_model_load(struct slc_sim_model *out, const char *spec, char *err, size_t errlen)
{
	size_t n, len;
	const struct slc_sim_preset *p;

	if (spec && strncmp(spec, "sim:", 4) == 0)
		spec += 4;
	if (!spec || !*spec)
		spec = SLC_SIM_DEFAULT_PRESET;
	len = strlen(spec);
	if (strchr(spec, '/') || (len > 5 && strcmp(spec + len - 5, ".json") == 0)) {
		char text[1 << 20];
		size_t got;
		struct stat st;
		FILE *f;
		/* a regular file: a FIFO would block the open (hence O_NONBLOCK)
		 * and then the read, a device never end */
		int fd = open(spec, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e = errno;

		if (fd < 0)
			return snprintf(err, errlen, "%s: cannot open the model file: %s", spec, strerror(e)), -e;
		if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			close(fd);
			return slc_errf(err, errlen, -EINVAL, "%s: %s, not a model file", spec,
					S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		}
		if (!(f = fdopen(fd, "r"))) {
			e = errno;
			close(fd);
			return slc_errf(err, errlen, -e, "%s: cannot open the model file: %s", spec, strerror(e));
		}
		got = fread(text, 1, sizeof(text) - 1, f);
		if (ferror(f) || got == sizeof(text) - 1) {
			fclose(f);
			return slc_errf(err, errlen, -EINVAL, "%s: unreadable or larger than 1 MiB", spec);
		}
		fclose(f);
		text[got] = '\0';
		if (strlen(text) != got)
			return slc_errf(err, errlen, -EINVAL, "%s: not a text file (NUL byte)", spec);
		return slc_sim_model_parse(out, text, spec, err, errlen);
	}
	p = slc_sim_presets(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(p[i].name, spec) == 0)
			return slc_sim_model_parse(out, p[i].json, p[i].name, err, errlen);
	snprintf(err, errlen, "no simulated drive preset '%s' ('slcscope sim list' shows them)", spec);
	return -ENOENT;
}

// SPDX-License-Identifier: MIT
/*
 * Import options by their command-line names (slc_import_opts_set()), so
 * that every command taking inputs shares one table of them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../private.h"
#include "import_csv.h"
#include "slcscope/trace.h"

/* "NAME[:UNIT]" into @c, the unit's scale from @kind: 't' time, 'r' rate, 'b' size or %. */
static int set_col(struct slc_import_col *c, const char *key, const char *v, int kind, char *err, size_t errlen)
{
	const char *colon = strrchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	char probe[48];

	if (n == 0 || n >= sizeof(c->name))
		return slc_errf(err, errlen, -EINVAL, "--%s: give NAME%s (the column's header name)", key,
				kind == 't' ? "[:UNIT]" : ":UNIT");
	memcpy(c->name, v, n);
	c->name[n] = 0;
	c->unit[0] = 0;
	c->scale = 0;
	if (!colon)
		return 0;
	if (strlen(colon + 1) >= sizeof(c->unit))
		return slc_errf(err, errlen, -EINVAL, "--%s: unit '%s' is too long", key, colon + 1);
	strcpy(c->unit, colon + 1);
	snprintf(probe, sizeof(probe), "time_%s", c->unit);
	c->scale = kind == 't' ? slc__unit_time(probe) : kind == 'r' ? slc__unit_rate(c->unit) : slc__unit_size(c->unit);
	if (c->scale == 0 || (kind != 'b' && c->scale < 0))
		return slc_errf(err, errlen, -EINVAL, "--%s: unknown unit '%s' (%s)", key, c->unit,
				kind == 't' ? "s, ms, us, ns, min, h"
				: kind == 'r' ? "B/s, kB/s, KiB/s, MB/s, MiB/s, GB/s, GiB/s; bits are refused"
					      : "B, kB, KiB, MB, MiB, GB, GiB, TB, TiB, sectors or %");
	return 0;
}

int slc_import_opts_set(struct slc_import_opts *o, const char *key, const char *value, char *err, size_t errlen)
{
	uint64_t v;
	char why[160];

	if (strncmp(key, "--", 2) == 0)
		key += 2;
	if (strcmp(key, "time-col") == 0)
		return set_col(&o->time_col, key, value, 't', err, errlen);
	if (strcmp(key, "rate-col") == 0)
		return set_col(&o->rate_col, key, value, 'r', err, errlen);
	if (strcmp(key, "bytes-col") == 0)
		return set_col(&o->bytes_col, key, value, 'b', err, errlen);
	if (strcmp(key, "ddir-col") == 0 || strcmp(key, "device") == 0) {
		char *dst = key[0] == 'd' && key[1] == 'd' ? o->ddir_col : o->device;
		size_t cap = dst == o->device ? sizeof(o->device) : sizeof(o->ddir_col);

		if (!value[0] || strlen(value) >= cap)
			return slc_errf(err, errlen, -EINVAL, "--%s: give a name of 1 to %zu characters", key, cap - 1);
		strcpy(dst, value);
		return 0;
	}
	if (strcmp(key, "bin") == 0) {
		if (slc_parse_duration_ns(&v, value, why, sizeof(why)))
			return slc_errf(err, errlen, -EINVAL, "--bin: %s", why);
		if (v < 1000000 || v > 86400000000000ull)
			return slc_errf(err, errlen, -EINVAL, "--bin must be between 1ms and 1d");
		o->bin_s = (double)v / 1e9;
		return 0;
	}
	if (strcmp(key, "bs") == 0 || strcmp(key, "capacity") == 0) {
		if (slc_parse_bytes(&v, value, why, sizeof(why)))
			return slc_errf(err, errlen, -EINVAL, "--%s: %s", key, why);
		if (v == 0 || (key[0] == 'b' && v > (1u << 30)))
			return slc_errf(err, errlen, -EINVAL, "--%s: must be above 0%s", key,
					key[0] == 'b' ? " and at most 1GiB" : "");
		/* the range a trace holds (docs/trace-format.md): an import the
		 * reader would refuse is refused here */
		if (key[0] == 'c' && (v < (1u << 20) || v > (1ull << 53)))
			return slc_errf(err, errlen, -EINVAL, "--capacity: '%s' is outside 1 MiB to 2^53 bytes", value);
		if (key[0] == 'b')
			o->block_bytes = (uint32_t)v;
		else
			o->capacity_bytes = v;
		return 0;
	}
	if (strcmp(key, "cell") == 0) {
		static const char *const cells[] = { "slc", "mlc", "tlc", "qlc" };

		for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++)
			if (strcasecmp(value, cells[i]) == 0) {
				strcpy(o->cell, cells[i]);
				return 0;
			}
		return slc_errf(err, errlen, -EINVAL, "--cell: '%s' is not slc, mlc, tlc or qlc", value);
	}
	return slc_errf(err, errlen, -ENOENT, "unknown import option '%s'", key);
}

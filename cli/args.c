// SPDX-License-Identifier: MIT
/*
 * Option values shared by the commands; each returns 0, or prints the usage
 * error and returns CLI_USAGE.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"
#include "cli.h"

int cli_parse_uint(const char *cmd, const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || *end || !*arg || arg[0] == '-' || arg[0] == '+' || v < min || v > max)
		return cli_usage(cmd, "%s: '%s' is not a whole number from %llu to %llu", opt, arg,
				 (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

int cli_parse_block(const char *cmd, const char *opt, const char *arg, uint32_t *out)
{
	char err[128];
	uint64_t v;

	if (slc_parse_bytes(&v, arg, err, sizeof(err)))
		return cli_usage(cmd, "%s: %s", opt, err);
	if (v == 0 || v % 512 || v > (64u << 20))
		return cli_usage(cmd, "%s: must be a multiple of 512 bytes, at most 64MiB", opt);
	*out = (uint32_t)v;
	return 0;
}

int cli_parse_duration(const char *cmd, const char *opt, const char *arg, uint64_t *out_ns)
{
	char err[128];

	if (slc_parse_duration_ns(out_ns, arg, err, sizeof(err)))
		return cli_usage(cmd, "%s: %s", opt, err);
	return 0;
}

int cli_parse_interval(const char *cmd, const char *arg, uint64_t *out_ns)
{
	int rc = cli_parse_duration(cmd, "--interval", arg, out_ns);

	if (!rc && (*out_ns < SLC_PLAN_MIN_INTERVAL_NS || *out_ns > SLC_PLAN_MAX_INTERVAL_NS))
		return cli_usage(cmd, "--interval: from 10ms to 1h, not '%s'", arg);
	return rc;
}

int cli_load(struct slc_session *x, const char *cmd, const char *const *paths, size_t n,
	     const struct slc_import_opts *io, long only, const struct slc_cpd_opts *opts)
{
	char err[512];

	if (slc_session_load_many(x, paths, n, io, only, opts, err, sizeof(err)))
		return cli_fail(cmd, "%s", err);
	if (x->in->import_warnings)
		fprintf(stderr, "slcscope %s: warning: %s\n", cmd, x->in->import_warnings);
	return CLI_OK;
}

const struct slc_help_opt cli_import_opts[] = {
	{ "time-col", 0, "NAME[:UNIT]", CLI_OPT_IMPORT, "CSV column of the time (s, ms)", "@none" },
	{ "rate-col", 0, "NAME:UNIT", CLI_OPT_IMPORT, "CSV column of the speed (MB/s, KiB/s, MiB/s)", "@none" },
	{ "bytes-col", 0, "NAME:UNIT", CLI_OPT_IMPORT, "CSV column of the data written (MiB, GB, %)", "@none" },
	{ "ddir-col", 0, "NAME", CLI_OPT_IMPORT, "CSV column of the direction (writes only where it says so)", "@none" },
	{ "bs", 0, "SIZE", CLI_OPT_IMPORT, "block size of an averaged fio IOPS log alone", "@none" },
	{ "device", 0, "NAME", CLI_OPT_IMPORT, "the device in iostat or diskstats records", "@none" },
	{ "capacity", 0, "SIZE", CLI_OPT_IMPORT, "the drive's size (for % positions), kept for analyze", "@none" },
	{ NULL, 0, NULL, 0, NULL, NULL },
};

int cli_import_opt(const char *cmd, struct slc_import_opts *io, const char *name, const char *arg)
{
	char err[256];

	return slc_import_opts_set(io, name, arg, err, sizeof(err)) ? cli_usage(cmd, "%s", err) : CLI_OK;
}

void cli_command_line(char *buf, size_t len, int argc, char **argv)
{
	buf[0] = '\0';
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s", i ? " " : "slcscope ", argv[i]);
	}
}

int cli_parse_u32(const char *cmd, const char *opt, const char *arg, uint64_t min, uint64_t max, uint32_t *out)
{
	uint64_t v;
	int rc = cli_parse_uint(cmd, opt, arg, min, max, &v);

	if (!rc)
		*out = (uint32_t)v;
	return rc;
}

int cli_parse_size(const char *cmd, const char *opt, const char *arg, struct slc_size *out)
{
	char err[256];

	if (slc_parse_size(out, arg, err, sizeof(err)))
		return cli_usage(cmd, "%s: %s", opt, err);
	return CLI_OK;
}

int cli_bad_option(const char *cmd, const struct option *lo, const char *arg)
{
	char names[256] = "";
	size_t len, n = 0, exact = 0, hit = 0;

	if (strncmp(arg, "--", 2) != 0) {
		/* a short option: getopt left the letter in optopt */
		for (size_t i = 0; optopt && lo[i].name; i++)
			if (lo[i].val == optopt && lo[i].has_arg == required_argument)
				return cli_usage(cmd, "option '-%c' needs a value", optopt);
		return cli_usage(cmd, "unknown option '-%c'", optopt ? optopt : arg[1]);
	}
	len = strcspn(arg + 2, "=");
	for (size_t i = 0; lo[i].name; i++) {
		if (strncmp(lo[i].name, arg + 2, len)) continue;
		if (strlen(lo[i].name) == len) exact = i + 1;
		hit = i;
		n++;
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s--%s", n > 1 ? ", " : "", lo[i].name);
	}
	if (exact) hit = exact - 1;
	if (!exact && n > 1) return cli_usage(cmd, "option '%.*s' is ambiguous: %s", (int)len + 2, arg, names);
	if (n == 0) return cli_usage(cmd, "unknown option '%.*s'", (int)len + 2, arg);
	if (lo[hit].has_arg == no_argument && arg[2 + len] == '=')
		return cli_usage(cmd, "option '--%s' takes no value", lo[hit].name);
	return cli_usage(cmd, "option '--%s' needs a value", lo[hit].name);
}

int cli_operand(const char *cmd, struct cli_inputs *in, int opt, const char *arg)
{
	if (opt == 'l' && in->nl < CLI_MAX_INPUTS) {
		in->label[in->nl] = arg;
		in->at[in->nl++] = in->n;
		return CLI_OK;
	}
	if (opt == 'l')
		return cli_usage(cmd, "more than %d names (-l)", CLI_MAX_INPUTS);
	if (opt != 1)
		return -1;
	if (in->n == CLI_MAX_INPUTS)
		return cli_usage(cmd, "more than %d INPUTs", CLI_MAX_INPUTS);
	in->path[in->n++] = arg;
	return CLI_OK;
}

int cli_operands_end(const char *cmd, const struct cli_inputs *in, struct slc_figure_opts *co)
{
	size_t trailing = 0;

	for (size_t i = 0; i < in->nl; i++) trailing += in->at[i] == in->n;
	if (trailing && trailing < in->nl)
		return cli_usage(cmd, "give each -l before its INPUT, or all of them after the INPUTs");
	if (trailing > in->n)
		return cli_usage(cmd, "%zu names (-l) for %zu INPUT%s", trailing, in->n, in->n == 1 ? "" : "s");
	for (size_t i = 0; i < in->nl; i++) {
		size_t k = trailing ? i : in->at[i];
		if (k >= SLC_FIG_MAX_MULTIPLES) continue;
		if (co->labels[k])
			return cli_usage(cmd, "two names (-l) for one INPUT: '%s' and '%s'", co->labels[k], in->label[i]);
		co->labels[k] = in->label[i];
	}
	co->n_labels = in->nl ? (in->n < SLC_FIG_MAX_MULTIPLES ? in->n : SLC_FIG_MAX_MULTIPLES) : 0;
	return CLI_OK;
}

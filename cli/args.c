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
	uint64_t v = 0;
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
	char why[320];

	slc_help_bad_option(why, sizeof(why), lo, arg, optopt);
	return cli_usage(cmd, "%s", why);
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

int cli_operands_end(const char *cmd, struct cli_inputs *in, struct slc_figure_opts *co, int argc, char **argv)
{
	char err[320];
	int rc;

	for (; optind < argc; optind++)
		if ((rc = cli_operand(cmd, in, 1, argv[optind]))) return rc;

	if (slc_figure_opts_labels(co, in->label, in->at, in->nl, in->n, err, sizeof(err)))
		return cli_usage(cmd, "%s", err);
	return CLI_OK;
}

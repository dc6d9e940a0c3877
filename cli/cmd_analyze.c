// SPDX-License-Identifier: MIT
/*
 * slcscope analyze: the phase breakdown of a trace, fio log or CSV.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"
#include "cli.h"

static void analyze_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope analyze [options] INPUT\n"
		"\n"
		"Find the phases of each write curve in INPUT by change-point analysis: the SLC\n"
		"cache (host-visible size and speed, tiers), direct-to-TLC, erase-bound, stalls\n"
		"and throttling, SNIA PTS steady state, and for later bursts how much cache came\n"
		"back.  INPUT is a slcscope trace (.h5), a fio write_bw_log / write_iops_log\n"
		"(NAME_bw.N.log, its sibling jobs are merged), or a CSV with a time and a\n"
		"throughput column named with units (second,write_MiB_s; time_s,bytes_per_s; ...).\n"
		"Method: docs/analysis.md.  JSON keys: docs/phases-json.md.\n"
		"\n"
		"Options:\n"
		"  -j, --json            print the slcscope.phases/1 JSON document\n"
		"  -o, --output FILE     write the output to FILE instead of stdout\n"
		"      --store           also store the JSON in the trace (/analysis/phases)\n"
		"  -s, --segment N       analyse trace segment N only (see 'slcscope export')\n"
		"      --penalty P       mbic (default), bic, aic, or a number (cost units)\n"
		"      --binary          print GiB and MiB/s instead of GB and MB/s\n");
}

static const char *kind_label(const struct slc_phase *p, char *buf, size_t len)
{
	if (p->kind == SLC_PHASE_SLC_CACHE && p->tier)
		snprintf(buf, len, "slc_cache tier %u", p->tier);
	else
		snprintf(buf, len, "%s", slc_phase_kind_name(p->kind));
	return buf;
}

static void print_table(FILE *f, const struct slc_session *x, enum slc_unit_system u)
{
	char a[32], b[32], c[32], d[32], e[32], g[32], k[32];

	fprintf(f, "%s", x->in->source);
	if (x->in->meta.target && x->in->meta.target[0])
		fprintf(f, " (target %s)", x->in->meta.target);
	fprintf(f, "\n");
	for (size_t i = 0; i < x->n; i++) {
		const struct slc_input_segment *s = &x->in->segments[x->seg[i]];
		const struct slc_analysis *an = &x->a[i];

		fprintf(f, "\nsegment %zu: %s", x->seg[i], s->params.step && s->params.step[0] ? s->params.step : "write curve");
		if (s->params.block_bytes)
			fprintf(f, " (%s, %s QD%u)", s->params.workload,
				slc_format_bytes(a, sizeof(a), s->params.block_bytes, SLC_UNITS_BINARY), s->params.queue_depth);
		if (s->params.idle_before_s > 0)
			fprintf(f, ", after %s idle", slc_format_duration(b, sizeof(b), (uint64_t)(s->params.idle_before_s * 1e9)));
		fprintf(f, "\n");
		if (an->has_cache)
			fprintf(f, "  SLC cache: %s at %s, used up at %.1f s\n",
				slc_format_bytes(a, sizeof(a), an->cache_bytes, u),
				slc_format_rate(b, sizeof(b), an->cache_bps, u), an->cache_end_s);
		else
			fprintf(f, "  SLC cache: none seen\n");
		if (isfinite(an->erase_bound_start_s))
			fprintf(f, "  erase-bound from %.1f s, %s written\n", an->erase_bound_start_s,
				slc_format_bytes(a, sizeof(a), an->erase_bound_start_bytes, u));
		{
			const struct slc_session_drive *dr = &x->drive[i];
			if (isfinite(dr->wa))
				fprintf(f, "  drive counters: %s host, %s NAND: write amplification %.2f\n",
					slc_format_bytes(a, sizeof(a), dr->host_bytes, u),
					slc_format_bytes(b, sizeof(b), dr->nand_bytes, u), dr->wa);
			if (isfinite(dr->slc_flash_bytes))
				fprintf(f, "  flash used in SLC mode: about %s (cache x its write amplification %.2f)\n",
					slc_format_bytes(a, sizeof(a), dr->slc_flash_bytes, u), dr->cache_wa);
			if (dr->n_temp)
				fprintf(f, "  temperature: up to %.1f C in %zu readings%s%s%s\n", dr->max_temp_c, dr->n_temp,
					isfinite(dr->warn_c) ? (snprintf(c, sizeof(c), ", warning at %.0f C", dr->warn_c), c) : "",
					dr->relabelled ? "; throttling told from stalls by it" : "", "");
		}
		if (i > 0) {
			struct slc_recovery r;
			if (slc_recovery(&r, &x->a[0], an) == 0)
				fprintf(f, "  recovery: burst %s, cache %s%s%s\n", slc_format_rate(a, sizeof(a), r.burst_bps, u),
					slc_format_bytes(b, sizeof(b), r.cache_bytes, u),
					isfinite(r.cache_frac) ? " = " : "",
					isfinite(r.cache_frac) ? (snprintf(c, sizeof(c), "%.0f%% of the first", r.cache_frac * 100), c) : "");
		}
		fprintf(f, "  %-18s %9s %9s %10s %10s %12s %12s %12s %12s %6s %10s\n", "phase", "start s", "end s",
			"start", "end", "mean", "median", "p5", "p95", "CoV", "IOPS");
		for (size_t p = 0; p < an->n_phases; p++) {
			const struct slc_phase *ph = &an->phases[p];
			char io[32] = "-";
			if (isfinite(ph->iops_mean))
				slc_format_iops(io, sizeof(io), ph->iops_mean);
			if (strlen(io) > 5 && strcmp(io + strlen(io) - 5, " IOPS") == 0)
				io[strlen(io) - 5] = '\0';
			fprintf(f, "  %-18s %9.1f %9.1f %10s %10s %12s %12s %12s %12s %6.3f %10s\n",
				kind_label(ph, k, sizeof(k)), ph->start_s, ph->end_s,
				slc_format_bytes(a, sizeof(a), ph->start_bytes, u), slc_format_bytes(b, sizeof(b), ph->end_bytes, u),
				slc_format_rate(c, sizeof(c), ph->mean_bps, u), slc_format_rate(d, sizeof(d), ph->median_bps, u),
				slc_format_rate(e, sizeof(e), ph->p5_bps, u), slc_format_rate(g, sizeof(g), ph->p95_bps, u),
				ph->cov, io);
		}
		if (an->steady.reached)
			fprintf(f, "  SNIA steady state: reached, %.0f-%.0f s at %s\n", an->steady.start_s, an->steady.end_s,
				slc_format_rate(a, sizeof(a), an->steady.avg_bps, u));
		else
			fprintf(f, "  SNIA steady state: not reached\n");
	}
	slc_session_print_experiments(f, x, u);
}

static int parse_penalty(struct slc_cpd_opts *o, const char *arg)
{
	char *end;

	if (strcmp(arg, "mbic") == 0) o->penalty = SLC_PENALTY_MBIC;
	else if (strcmp(arg, "bic") == 0) o->penalty = SLC_PENALTY_BIC;
	else if (strcmp(arg, "aic") == 0) o->penalty = SLC_PENALTY_AIC;
	else {
		o->penalty_value = strtod(arg, &end);
		if (*end || !*arg || !(o->penalty_value > 0) || !isfinite(o->penalty_value))
			return -EINVAL;
		o->penalty = SLC_PENALTY_MANUAL;
	}
	return 0;
}

static int cmd_analyze(int argc, char **argv)
{
	enum { O_STORE = 256, O_PENALTY, O_BINARY };
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' }, { "output", required_argument, NULL, 'o' },
		{ "store", no_argument, NULL, O_STORE }, { "segment", required_argument, NULL, 's' },
		{ "penalty", required_argument, NULL, O_PENALTY }, { "binary", no_argument, NULL, O_BINARY },
		{ NULL, 0, NULL, 0 },
	};
	struct slc_cpd_opts co;
	struct slc_session x = { 0 };
	const char *out = NULL;
	long only = -1;
	int opt, json = 0, store = 0, rc = CLI_OK;
	enum slc_unit_system u = SLC_UNITS_DECIMAL;
	char *text = NULL, err[512];
	FILE *f = stdout;

	slc_cpd_opts_init(&co);
	while ((opt = getopt_long(argc, argv, "jo:s:", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'o': out = optarg; break;
		case O_STORE: store = 1; break;
		case 's': {
			uint64_t v;
			if ((rc = cli_parse_uint("analyze", "--segment", optarg, 0, 1000000, &v)))
				return rc;
			only = (long)v;
			break;
		}
		case O_PENALTY:
			if (parse_penalty(&co, optarg))
				return cli_usage("analyze", "--penalty: '%s' is not mbic, bic, aic or a positive number", optarg);
			break;
		case O_BINARY: u = SLC_UNITS_BINARY; break;
		default:
			return cli_usage("analyze", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage("analyze", optind >= argc ? "needs an INPUT (trace, fio log or CSV)" : "takes one INPUT");
	x.allow_no_curve = 1;
	if ((rc = cli_load(&x, "analyze", argv[optind], only, &co)))
		return rc;
	if ((json || store) && (rc = slc_session_json(&text, &x))) {
		slc_session_free(&x);
		return cli_fail("analyze", "cannot build the JSON: %s", strerror(-rc));
	}
	if (out && !(f = fopen(out, "we"))) {
		rc = cli_fail("analyze", "cannot write '%s': %s", out, strerror(errno));
		goto done;
	}
	if (json)
		fprintf(f, "%s\n", text);
	else
		print_table(f, &x, u);
	if (f != stdout && fclose(f)) {
		rc = cli_fail("analyze", "writing '%s' failed", out);
		goto done;
	}
	if (fflush(stdout)) {
		rc = cli_fail("analyze", "writing the output failed");
		goto done;
	}
	rc = CLI_OK;
	if (store) {
		if (x.in->format != SLC_INPUT_TRACE)
			rc = cli_fail("analyze", "--store needs a slcscope trace; import %s first", argv[optind]);
		else if (slc_trace_store_json(argv[optind], "phases", text, err, sizeof(err)))
			rc = cli_fail("analyze", "%s", err);
	}
done:
	free(text);
	slc_session_free(&x);
	return rc;
}

const struct cli_cmd cli_cmd_analyze = {
	.name = "analyze",
	.summary = "phase breakdown (cache size, speeds, erase-bound) of a trace, fio log or CSV",
	.run = cmd_analyze,
	.help = analyze_help,
};

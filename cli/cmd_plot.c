// SPDX-License-Identifier: MIT
/*
 * slcscope plot: graphs (PNG, SVG, PDF).  The figure options are parsed by
 * the session library (slc_figure_opts_set), the figures drawn by it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"
#include "cli.h"

/* The kinds (--kind) by the library's names. */
static const char *const kind_help[SLC_FIG__COUNT] = {
	[SLC_FIG_CURVE] = "the write curve                       [one INPUT; the default]",
	[SLC_FIG_COMPARE] = "2-8 drives' curves, legend outside    [the default for several]",
	[SLC_FIG_MULTIPLES] = "one panel per drive, shared axes (1-12 drives)",
	[SLC_FIG_BARS] = "cache, cache speed, native and erase-bound speed, GB in 2 h",
	[SLC_FIG_LATENCY] = "latency percentile bands against time",
	[SLC_FIG_LATENCY_CDF] = "each phase's per-interval p99 latency, sorted",
	[SLC_FIG_RECOVERY] = "cache and burst speed: fresh, after idle, after TRIM",
	[SLC_FIG_IDLE] = "cache recovered against idle time (--plan idle-sweep)",
	[SLC_FIG_TEMPERATURE] = "temperature over the curve, throttling marked",
	[SLC_FIG_TRIM_RESPONSE] = "read speed and latency right after a TRIM (--plan trim-response)",
	[SLC_FIG_HIR] = "host idle recovery, IOPS per wait state (--plan hir)",
	[SLC_FIG_FILL_LEVELS] = "cache and burst speed against fill (--plan fill-levels)",
	[SLC_FIG_COMPRESS] = "incompressible against repeating data (--plan compress)",
	[SLC_FIG_SWEEP_QD] = "4 KiB random IOPS against queue depth, reads and writes (--plan\n"
			     "qd-sweep or basic; up to 8 drives on one graph)",
	[SLC_FIG_SWEEP_BS] = "throughput against block size, log2 axis (--plan bs-sweep; 1-8 drives)",
	[SLC_FIG_MIXED] = "throughput against the share of reads (--plan mixed; 1-8 drives)",
};

static size_t kinds(struct slc_help_opt *e, size_t max)
{
	size_t n = 0;

	for (; n < SLC_FIG__COUNT && n < max; n++)
		e[n] = (struct slc_help_opt){ .lng = slc_figure_kind_name(n), .help = kind_help[n] ? kind_help[n] : "" };
	return n;
}

static const struct slc_help_cmd plot_doc = {
	.name = "plot",
	.summary = "draw write curves, comparisons and the experiments' figures (PNG, SVG, PDF)",
	.usage = "plot INPUT... -o FILE.{png,svg,pdf} [--kind KIND] [options]",
	.sect = (const struct slc_help_sect[]){
		{ .text = "Draw INPUT (a trace, fio log or CSV).  The write curve: every sample a dot, a\n"
			  "centred moving average over the x axis (over data written: the bytes written\n"
			  "in 30 s at the median speed), the phases as labelled bands with a legend, a\n"
			  "zoomed panel when the cache is under 5% of the axis.  With 2-8 INPUTs: the\n"
			  "drives compared (docs/figures.md).\n" },
		{ .title = "Kinds (--kind)", .list = 1, .more = kinds },
		{ .title = "Options", .opt = (const struct slc_help_opt[]){
			{ "output", 'o', "FILE", 'o', ".png, .svg or .pdf", NULL },
			{ "force", 0, NULL, 'F', "replace FILE even when it is not a graph", NULL },
			{ "kind", 'k', "KIND", 'k', "one of the kinds above", "@kinds" },
			{ "x", 0, "bytes|time|fraction", 0, "x: data written (default), time, or data written\n"
			  "as a fraction of the drive's capacity", "bytes time fraction" },
			{ "y", 0, "bps|iops|log|linear", 0, "y: MB/s (default) or IOPS; log or linear scale", "bps iops log linear" },
			{ "segment", 's', "N|ROLE", 's', "a trace segment, or the first of a role (fill, curve,\n"
			  "idle_burst, trim_burst, ...); default: the random\ncurve after TRIM, else the first write curve", "@none" },
			{ "label", 'l', "TEXT", 'l', "the name in legends of the INPUT after it, or, all given\n"
			  "after the INPUTs, of each in order (default: model and\n"
			  "capacity); once per INPUT", "@none" },
			{ "title", 't', "TEXT", 't', "the title (default: the drive's model and capacity)", "@none" },
			{ "binary", 0, NULL, 0, "GiB and MiB/s instead of GB and MB/s", NULL },
			{ "theme", 0, "NAME", 0, "colours: default (colour-blind safe) or print (grays)", "default print" },
			{ "width", 0, "N", 0, "width in pixels (PNG) or points (SVG, PDF); default 1200", "@none" },
			{ "height", 0, "N", 0, "height, the same way; default 700", "@none" },
			{ "layout-json", 0, "FILE", 0, "where the drawing put its areas, legend and labels", NULL },
			{ NULL, 0, NULL, 0, NULL, NULL } } },
		{ 0 },
	},
};

static int cmd_plot(int argc, char **argv)
{
	struct slc_output_opts oo = { .kind = SLC_OUTPUT_GRAPH };
	struct slc_figure_opts co = { 0 };
	struct slc_session *xs = NULL;
	const char *out = NULL, *ext;
	long seg = -1;
	int kind = -1, opt, idx, rc;
	size_t n, k = 0;
	char err[512], *end;
	const char *letters;
	const struct option *opts = cli_getopt(&plot_doc, &letters);

	struct cli_inputs in = { 0 };
	char order[160];

	snprintf(order, sizeof(order), "-%s", letters);
	while ((opt = getopt_long(argc, argv, order, opts, &idx)) != -1) {
		if ((rc = cli_operand("plot", &in, opt, optarg)) >= 0) {
			if (rc) return rc;
		} else if (opt == 'o' || opt == 'F') {
			out = opt == 'o' ? optarg : out;
			oo.force |= opt == 'F';
		} else if (opt == 'k') {
			if ((kind = slc_figure_kind_from_name(optarg)) < 0)
				return cli_usage("plot", "--kind: '%s' is not a kind of graph (see slcscope help plot)", optarg);
		} else if (opt == 's' && (seg = strtol(optarg, &end, 10)) >= 0 && !*end && *optarg) {
			continue;
		} else if (opt == '?') {
			return cli_bad_option("plot", opts, argv[optind - 1]);
		} else {
			const char *name = opt == 's' ? "segment" : opt == 'l' ? "label" : opt == 't' ? "title" : opts[idx].name;
			seg = opt == 's' ? -1 : seg;
			if (slc_figure_opts_set(&co, name, optarg ? optarg : "", err, sizeof(err)))
				return cli_usage("plot", "%s", err);
		}
	}
	if ((rc = cli_operands_end("plot", &in, &co, argc, argv))) return rc;
	n = in.n;
	if (!n || !out)
		return cli_usage("plot", !n ? "needs an INPUT" : "needs -o FILE.png, .svg or .pdf");
	if (!(ext = strrchr(out, '.')) || (strcmp(ext, ".png") && strcmp(ext, ".svg") && strcmp(ext, ".pdf")))
		return cli_usage("plot", "-o: the file name must end in .png, .svg or .pdf");
	if (kind < 0)
		kind = n > 1 ? SLC_FIG_COMPARE : SLC_FIG_CURVE;
	if (n > (size_t)slc_figure_kind_inputs(kind))
		return cli_usage("plot", "--kind %s takes %s%d INPUT%s", slc_figure_kind_name(kind), slc_figure_kind_inputs(kind) > 1 ?
				 "at most " : "", slc_figure_kind_inputs(kind), slc_figure_kind_inputs(kind) > 1 ? "s" : "");
	if (n > 1 && seg >= 0)
		return cli_usage("plot", "--segment N goes with one INPUT; give a role (fill, curve, ...) for several");
	oo.inputs = in.path;
	oo.n_inputs = n;
	if (slc_output_check(out, &oo, err, sizeof(err)))
		return cli_fail("plot", "%s", err);
	if (!(xs = calloc(n, sizeof(*xs))))
		return cli_fail("plot", "out of memory");
	for (k = 0; k < n; k++) {
		/* a sweep alone has no write curve, and needs none */
		xs[k].allow_no_curve = kind == SLC_FIG_SWEEP_QD || kind == SLC_FIG_SWEEP_BS || kind == SLC_FIG_MIXED;
		if ((rc = cli_load(&xs[k], "plot", &in.path[k], 1, NULL, seg, NULL)))
			goto out;
	}
	rc = slc_figure_write(out, &oo, kind, xs, n, &co, err, sizeof(err)) ? cli_fail("plot", "%s", err) : CLI_OK;
out:
	for (size_t i = 0; i < k; i++)
		slc_session_free(&xs[i]);
	free(xs);
	return rc;
}

const struct cli_cmd cli_cmd_plot = {
	.doc = &plot_doc,
	.run = cmd_plot,
};

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

static void plot_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope plot INPUT... -o FILE.{png,svg,pdf} [--kind KIND] [options]\n"
		"\n"
		"Draw INPUT (a trace, fio log or CSV).  The write curve: every sample a dot, a\n"
		"centred moving average over the x axis (over data written: the bytes written\n"
		"in 30 s at the median speed), the phases as labelled bands with a legend, a\n"
		"zoomed panel when the cache is under 5%% of the axis.  With 2-8 INPUTs: the\n"
		"drives compared (docs/figures.md).\n"
		"\n"
		"Kinds (--kind):\n"
		"  curve          the write curve                       [one INPUT; the default]\n"
		"  compare        2-8 drives' curves, legend outside    [the default for several]\n"
		"  multiples      one panel per drive, shared axes (1-12 drives)\n"
		"  bars           cache, cache speed, native and erase-bound speed, GB in 2 h\n"
		"  latency        latency percentile bands against time\n"
		"  latency-cdf    each phase's per-interval p99 latency, sorted\n"
		"  recovery       cache and burst speed: fresh, after idle, after TRIM\n"
		"  idle           cache recovered against idle time (--plan idle-sweep)\n"
		"  temperature    temperature over the curve, throttling marked\n"
		"  trim-response  read speed and latency right after a TRIM (--plan trim-response)\n"
		"  hir            host idle recovery, IOPS per wait state (--plan hir)\n"
		"  fill-levels    cache and burst speed against fill (--plan fill-levels)\n"
		"  compress       incompressible against repeating data (--plan compress)\n"
		"  qd-sweep       4 KiB random IOPS against queue depth, reads and writes (--plan\n"
		"                 qd-sweep or basic; up to 8 drives on one graph)\n"
		"  bs-sweep       throughput against block size, log2 axis (--plan bs-sweep; 1-8 drives)\n"
		"  mixed          throughput against the share of reads (--plan mixed; 1-8 drives)\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE        .png, .svg or .pdf\n"
		"      --force              replace FILE even when it is not a graph\n"
		"  -k, --kind KIND          one of the kinds above\n"
		"      --x bytes|time|fraction  x: data written (default), time, or data written\n"
		"                           as a fraction of the drive's capacity\n"
		"      --y bps|iops|log|linear  y: MB/s (default) or IOPS; log or linear scale\n"
		"  -s, --segment N|ROLE     a trace segment, or the first of a role (fill, curve,\n"
		"                           idle_burst, trim_burst, ...); default: the random\n"
		"                           curve after TRIM, else the first write curve\n"
		"  -l, --label TEXT         the next INPUT's name in legends (default: model and\n"
		"                           capacity); once per INPUT\n"
		"  -t, --title TEXT         the title (default: the drive's model and capacity)\n"
		"      --binary             GiB and MiB/s instead of GB and MB/s\n"
		"      --theme NAME         colours: default (colour-blind safe) or print (grays)\n"
		"      --width N, --height N  size in pixels (PNG) or points (SVG, PDF); 1200x700\n"
		"      --layout-json FILE   where the drawing put its areas, legend and labels\n");
}

static int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "kind", required_argument, NULL, 'k' },
		{ "segment", required_argument, NULL, 's' }, { "x", required_argument, NULL, 0 },
		{ "y", required_argument, NULL, 0 }, { "label", required_argument, NULL, 'l' },
		{ "title", required_argument, NULL, 't' }, { "binary", no_argument, NULL, 0 },
		{ "width", required_argument, NULL, 0 }, { "height", required_argument, NULL, 0 },
		{ "layout-json", required_argument, NULL, 0 }, { "force", no_argument, NULL, 'F' },
		{ "theme", required_argument, NULL, 0 }, { NULL, 0, NULL, 0 },
	};
	struct slc_output_opts oo = { .kind = SLC_OUTPUT_GRAPH };
	struct slc_figure_opts co = { 0 };
	struct slc_session *xs = NULL;
	const char *out = NULL, *ext;
	long seg = -1;
	int kind = -1, opt, idx, rc;
	size_t n, k = 0;
	char err[512], *end;

	while ((opt = getopt_long(argc, argv, "o:k:s:l:t:", opts, &idx)) != -1) {
		if (opt == 'o' || opt == 'F') {
			out = opt == 'o' ? optarg : out;
			oo.force |= opt == 'F';
		} else if (opt == 'k') {
			if ((kind = slc_figure_kind_from_name(optarg)) < 0)
				return cli_usage("plot", "--kind: '%s' is not a kind of graph (see slcscope help plot)", optarg);
		} else if (opt == 's' && (seg = strtol(optarg, &end, 10)) >= 0 && !*end && *optarg) {
			continue;
		} else if (opt == '?') {
			return cli_usage("plot", "unknown option '%s'", argv[optind - 1]);
		} else {
			const char *name = opt == 's' ? "segment" : opt == 'l' ? "label" : opt == 't' ? "title" : opts[idx].name;
			seg = opt == 's' ? -1 : seg;
			if (slc_figure_opts_set(&co, name, optarg ? optarg : "", err, sizeof(err)))
				return cli_usage("plot", "%s", err);
		}
	}
	n = optind < argc ? (size_t)(argc - optind) : 0;
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
	oo.inputs = (const char *const *)argv + optind;
	oo.n_inputs = n;
	if (slc_output_check(out, &oo, err, sizeof(err)))
		return cli_fail("plot", "%s", err);
	if (!(xs = calloc(n, sizeof(*xs))))
		return cli_fail("plot", "out of memory");
	for (k = 0; k < n; k++) {
		/* a sweep alone has no write curve, and needs none */
		xs[k].allow_no_curve = kind == SLC_FIG_SWEEP_QD || kind == SLC_FIG_SWEEP_BS || kind == SLC_FIG_MIXED;
		if ((rc = cli_load(&xs[k], "plot", (const char *const *)&argv[optind + (int)k], 1, NULL, seg, NULL)))
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
	.name = "plot",
	.summary = "draw write curves, comparisons and the experiments' figures (PNG, SVG, PDF)",
	.run = cmd_plot,
	.help = plot_help,
};

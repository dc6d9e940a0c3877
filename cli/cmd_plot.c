// SPDX-License-Identifier: MIT
/*
 * slcscope plot: write-curve graphs (PNG, SVG, PDF).
 */
#include <errno.h>
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
		"Draw the write curve of INPUT (a trace, fio log or CSV): every sample as a dot,\n"
		"the 30 s moving average as a line, the phases found by 'slcscope analyze' as\n"
		"shaded bands with their figures.  With several INPUTs, their first write curves\n"
		"on one chart with a legend (a drive comparison).\n"
		"\n"
		"Kinds (--kind):\n"
		"  curve     the write curve against data written or time   [one INPUT]\n"
		"  latency   p50, p99, p99.9 and max latency per interval, against time\n"
		"  recovery  cache found and burst speed: fresh, after idle, after TRIM (lab plan)\n"
		"  idle      cache recovered against idle time (run --plan idle-sweep)\n"
		"  compare   several INPUTs' first write curves on one chart   [several INPUTs]\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE        .png, .svg or .pdf\n"
		"  -k, --kind KIND          curve, latency, recovery, idle or compare\n"
		"      --x bytes|time       x axis: data written (default) or time\n"
		"      --y bps|iops         y axis: MB/s (default) or IOPS (fixed block size)\n"
		"  -s, --segment N          which trace segment (default: the first write curve)\n"
		"      --binary             GiB and MiB/s instead of GB and MB/s\n"
		"      --width N, --height N  size in pixels (PNG) or points (SVG, PDF); 1200x700\n");
}

static int parse_dim(const char *opt, int *out, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (*end || !*arg || v < 200 || v > 20000)
		return cli_usage("plot", "%s: '%s' is not a size from 200 to 20000", opt, arg);
	*out = (int)v;
	return 0;
}

static int cmd_plot(int argc, char **argv)
{
	enum { O_X = 256, O_Y, O_BINARY, O_W, O_H };
	enum { K_DEFAULT, K_CURVE, K_LATENCY, K_RECOVERY, K_COMPARE, K_IDLE } kind = K_DEFAULT;
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "x", required_argument, NULL, O_X },
		{ "y", required_argument, NULL, O_Y }, { "segment", required_argument, NULL, 's' },
		{ "binary", no_argument, NULL, O_BINARY }, { "width", required_argument, NULL, O_W },
		{ "height", required_argument, NULL, O_H }, { "kind", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	struct slc_figure_opts co = { 0 };
	struct slc_session *xs = NULL;
	const char *out = NULL;
	long seg = -1;
	size_t n = 0, k = 0;
	char err[512];
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "o:s:k:", opts, NULL)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 'k':
			if (strcmp(optarg, "curve") == 0) kind = K_CURVE;
			else if (strcmp(optarg, "latency") == 0) kind = K_LATENCY;
			else if (strcmp(optarg, "recovery") == 0) kind = K_RECOVERY;
			else if (strcmp(optarg, "compare") == 0) kind = K_COMPARE;
			else if (strcmp(optarg, "idle") == 0) kind = K_IDLE;
			else return cli_usage("plot", "--kind: '%s' is not curve, latency, recovery, idle or compare", optarg);
			break;
		case O_X:
			if (strcmp(optarg, "bytes") && strcmp(optarg, "time"))
				return cli_usage("plot", "--x: '%s' is not bytes or time", optarg);
			co.x_time = optarg[0] == 't';
			break;
		case O_Y:
			if (strcmp(optarg, "bps") && strcmp(optarg, "iops"))
				return cli_usage("plot", "--y: '%s' is not bps or iops", optarg);
			co.y_iops = optarg[0] == 'i';
			break;
		case 's': {
			uint64_t v;
			if ((rc = cli_parse_uint("plot", "--segment", optarg, 0, 1000000, &v)))
				return rc;
			seg = (long)v;
			break;
		}
		case O_BINARY: co.binary = 1; break;
		case O_W: if ((rc = parse_dim("--width", &co.width, optarg))) return rc; break;
		case O_H: if ((rc = parse_dim("--height", &co.height, optarg))) return rc; break;
		default: return cli_usage("plot", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_usage("plot", "needs an INPUT");
	if (!out)
		return cli_usage("plot", "needs -o FILE.png, .svg or .pdf");
	{
		const char *ext = strrchr(out, '.');
		if (!ext || (strcmp(ext, ".png") && strcmp(ext, ".svg") && strcmp(ext, ".pdf")))
			return cli_usage("plot", "-o: the file name must end in .png, .svg or .pdf");
	}
	n = (size_t)(argc - optind);
	if (kind == K_DEFAULT)
		kind = n > 1 ? K_COMPARE : K_CURVE;
	if (kind != K_COMPARE && n > 1)
		return cli_usage("plot", "--kind %s takes one INPUT", kind == K_CURVE ? "curve" : kind == K_LATENCY ? "latency" :
				 kind == K_IDLE ? "idle" : "recovery");
	if ((kind == K_RECOVERY || kind == K_IDLE) && seg >= 0)
		return cli_usage("plot", "--kind %s uses every segment; drop --segment", kind == K_IDLE ? "idle" : "recovery");
	if (n > 1 && seg >= 0)
		return cli_usage("plot", "--segment goes with one INPUT");
	if (n > 8)
		return cli_usage("plot", "at most 8 inputs on one chart");
	xs = calloc(n, sizeof(*xs));
	if (!xs)
		return cli_fail("plot", "out of memory");
	for (k = 0; k < n; k++)
		if ((rc = cli_load(&xs[k], "plot", (const char *const *)&argv[optind + (int)k], 1, NULL, seg, NULL)))
			goto out;
	if (kind == K_CURVE)
		rc = slc_figure_curve(out, &xs[0], 0, &co, err, sizeof(err));
	else if (kind == K_LATENCY)
		rc = slc_figure_latency(out, &xs[0], 0, &co, err, sizeof(err));
	else if (kind == K_RECOVERY)
		rc = slc_figure_recovery(out, &xs[0], &co, err, sizeof(err));
	else if (kind == K_IDLE)
		rc = slc_figure_idle_recovery(out, &xs[0], &co, err, sizeof(err));
	else
		rc = slc_figure_compare(out, xs, n, &co, err, sizeof(err));
	rc = rc ? cli_fail("plot", "%s", err) : CLI_OK;
out:
	for (size_t i = 0; i < k; i++)
		slc_session_free(&xs[i]);
	free(xs);
	return rc;
}

const struct cli_cmd cli_cmd_plot = {
	.name = "plot",
	.summary = "draw write curves with their phases (PNG, SVG, PDF)",
	.run = cmd_plot,
	.help = plot_help,
};

// SPDX-License-Identifier: MIT
/*
 * slcscope: entry point and command dispatch.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slcscope/session.h"
#include "cli.h"

/* Only commands that work are listed here. NULL-terminated. */
static const struct cli_cmd *const commands[] = {
	&cli_cmd_run,
	&cli_cmd_analyze,
	&cli_cmd_plot,
	&cli_cmd_report,
	&cli_cmd_lab,
	&cli_cmd_probe,
	&cli_cmd_sim,
	&cli_cmd_emulate,
	&cli_cmd_import,
	&cli_cmd_export,
	NULL,
};

static void vreport(const char *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "slcscope%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "Try 'slcscope help %s'.\n", cmd);
	else
		fprintf(stderr, "Try 'slcscope --help'.\n");
	return CLI_USAGE;
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
	return CLI_FAIL;
}

int cli_is_help(const char *arg)
{
	return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

static const struct cli_cmd *find_command(const char *name)
{
	for (size_t i = 0; commands[i]; i++)
		if (strcmp(commands[i]->doc->name, name) == 0)
			return commands[i];
	return NULL;
}

const struct option *cli_getopt(const struct slc_help_cmd *c, const char **letters)
{
	static struct option lo[128];
	static char so[128];

	if (slc_help_getopt(c, lo, sizeof(lo) / sizeof(lo[0]), so, sizeof(so)))
		abort();       /* the tables above are ours: too long a table is a bug */
	*letters = so;
	return lo;
}

static size_t command_list(struct slc_help_opt *e, size_t max)
{
	size_t n = 0;

	for (; commands[n] && n < max; n++)
		e[n] = (struct slc_help_opt){ .lng = commands[n]->doc->name, .help = commands[n]->doc->summary };
	return n;
}

static const struct slc_help_opt main_opts[] = {
	{ "help", 'h', NULL, 'h', "show this help (slcscope help CMD: a command's)", NULL },
	{ "version", 'V', NULL, 'V', "show the version", NULL },
	{ NULL, 0, NULL, 0, NULL, NULL },
};

static const struct slc_help_cmd main_doc = {
	.summary = "characterize an SSD's SLC cache and sustained write behaviour",
	.usage = "<command> [options]\nhelp <command>",
	.sect = (const struct slc_help_sect[]){
		{ .text = "Characterize how an SSD behaves under sustained writes: SLC cache size and\n"
			  "speed, direct-to-TLC speed, erase-bound (garbage collection) phase.\n" },
		{ .title = "Commands", .list = 1, .more = command_list },
		{ .title = "Options", .opt = main_opts },
		{ .text = "Sizes take k/M/G/T (binary, 4k = 4096), KiB/MiB/GiB/TiB (binary),\n"
			  "kB/MB/GB/TB (decimal, 1GB = 10^9 bytes) or Nx (N times the capacity).\n"
			  "Durations take ms, s, m, h (a bare number is seconds).\n"
			  "Exit status: 0 success, 1 failure, 2 usage error, 130/143 interrupted.\n" },
		{ 0 },
	},
};

/* What completes --plan and --kind, for the completion script. */
static const char *words(const char *name)
{
	static char w[1024];
	const char *v;
	size_t n = 0;

	for (size_t i = 0; n < sizeof(w) && !strcmp(name, "plans") && (v = slc_plan_name(i, NULL)); i++)
		n += (size_t)snprintf(w + n, sizeof(w) - n, "%s%s", n ? " " : "", v);
	for (int k = 0; n < sizeof(w) && !strcmp(name, "kinds") && (v = slc_figure_kind_name(k)); k++)
		n += (size_t)snprintf(w + n, sizeof(w) - n, "%s%s", n ? " " : "", v);
	return n ? w : NULL;
}

/* slcscope help [--man|--options] [CMD], help --completion (slc_help_main()). */
static int help(int argc, char **argv)
{
	const struct slc_help_cmd *docs[sizeof(commands) / sizeof(commands[0]) + 1] = { &main_doc };
	char why[256];
	int rc;

	for (size_t i = 0; commands[i]; i++)
		docs[i + 1] = commands[i]->doc;
	rc = slc_help_main(stdout, argc - 2, argv + 2, docs, words, SLCSCOPE_VERSION, why, sizeof(why));
	return rc == -ENOENT ? cli_usage(NULL, "%s", why) : rc ? cli_usage("help", "%s", why) : CLI_OK;
}

/* A full disk or a closed pipe on standard output is a failure too, said once. */
static int finish(const char *cmd, int rc)
{
	int e;

	fflush(stdout);
	e = slc_stream_error(stdout);
	if (e && rc == CLI_OK)
		rc = cli_fail(cmd, "standard output: %s", strerror(-e));
	return rc;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *cmd;

	if (argc < 2) {
		slc_help_text(stderr, &main_doc);
		return CLI_USAGE;
	}
	if (cli_is_help(argv[1])) {
		slc_help_text(stdout, &main_doc);
		return finish(NULL, CLI_OK);
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("slcscope %s\n", SLCSCOPE_VERSION);
		return finish(NULL, CLI_OK);
	}
	if (strcmp(argv[1], "help") == 0)
		return finish("help", help(argc, argv));
	if (argv[1][0] == '-')
		return cli_usage(NULL, "unknown option '%s'", argv[1]);
	cmd = find_command(argv[1]);
	if (!cmd)
		return cli_usage(NULL, "unknown command '%s'", argv[1]);
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (cli_is_help(argv[i])) {
			slc_help_text(stdout, cmd->doc);
			return finish(cmd->doc->name, CLI_OK);
		}
	}
	optind = 1;
	opterr = 0;        /* one line per error: cli_bad_option() says what was wrong */
	if (strcmp(cmd->doc->name, "emulate"))   /* libfuse handles a signal only where it finds none set */
		slc_output_signals();
	return finish(cmd->doc->name, cmd->run(argc - 1, argv + 1));
}

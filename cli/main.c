// SPDX-License-Identifier: MIT
/*
 * slcscope: entry point and command dispatch.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static void main_help(FILE *out)
{
	fprintf(out,
		"Usage: slcscope <command> [options]\n"
		"       slcscope help <command>\n"
		"\n"
		"Characterize how an SSD behaves under sustained writes: SLC cache size and\n"
		"speed, direct-to-TLC speed, erase-bound (garbage collection) phase.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; commands[i]; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out,
		"\n"
		"Options:\n"
		"  -h, --help     show this help\n"
		"  -V, --version  show the version\n"
		"\n"
		"Sizes take k/M/G/T (binary, 4k = 4096), KiB/MiB/GiB/TiB (binary),\n"
		"kB/MB/GB/TB (decimal, 1GB = 10^9 bytes) or Nx (N times the capacity).\n"
		"Durations take ms, s, m, h (a bare number is seconds).\n"
		"Exit status: 0 success, 1 failure, 2 usage error, 130/143 interrupted.\n");
}

int main(int argc, char **argv)
{
	const struct cli_cmd *cmd;

	if (argc < 2) {
		main_help(stderr);
		return CLI_USAGE;
	}
	if (cli_is_help(argv[1])) {
		main_help(stdout);
		return CLI_OK;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("slcscope %s\n", SLCSCOPE_VERSION);
		return CLI_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc > 3)
			return cli_usage("help", "takes one command name");
		if (argc == 3 && !(cmd = find_command(argv[2])))
			return cli_usage(NULL, "unknown command '%s'", argv[2]);
		if (argc == 3)
			cmd->help(stdout);
		else
			main_help(stdout);
		return CLI_OK;
	}
	if (argv[1][0] == '-')
		return cli_usage(NULL, "unknown option '%s'", argv[1]);
	cmd = find_command(argv[1]);
	if (!cmd)
		return cli_usage(NULL, "unknown command '%s'", argv[1]);
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (cli_is_help(argv[i])) {
			cmd->help(stdout);
			return CLI_OK;
		}
	}
	optind = 1;
	if (strcmp(cmd->name, "emulate"))   /* libfuse handles a signal only where it finds none set */
		slc_output_signals();
	return cmd->run(argc - 1, argv + 1);
}

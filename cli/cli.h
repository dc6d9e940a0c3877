/* SPDX-License-Identifier: MIT */
/*
 * The command-line layer: a table of commands, each a thin wrapper over the
 * libraries.  Exit codes: 0 success, 1 runtime failure, 2 usage error,
 * 130/143 interrupted by SIGINT/SIGTERM.
 */
#ifndef SLCSCOPE_CLI_H
#define SLCSCOPE_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "slcscope/helpgen.h"
#include "slcscope/output.h"

enum {
	CLI_OK = 0,
	CLI_FAIL = 1,
	CLI_USAGE = 2,
};

struct cli_cmd {
	const struct slc_help_cmd *doc;        /* name, --help, options, man page, completion */
	int (*run)(int argc, char **argv);     /* argv[0] is the command name */
};

/* Commands (one file each). */
extern const struct cli_cmd cli_cmd_sim;
extern const struct cli_cmd cli_cmd_run;
extern const struct cli_cmd cli_cmd_analyze;
extern const struct cli_cmd cli_cmd_plot;
extern const struct cli_cmd cli_cmd_report;
extern const struct cli_cmd cli_cmd_import;
extern const struct cli_cmd cli_cmd_export;
extern const struct cli_cmd cli_cmd_probe;
extern const struct cli_cmd cli_cmd_emulate;
extern const struct cli_cmd cli_cmd_lab;

/*
 * cli_usage() - print "slcscope CMD: <message>" and a pointer to the help to
 * stderr; returns CLI_USAGE for 'return cli_usage(...)'.
 */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cli_fail() - print "slcscope CMD: <message>" to stderr; returns CLI_FAIL. */
int cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Option values (cli/args.c): 0, or a printed usage error and CLI_USAGE. */
int cli_parse_uint(const char *cmd, const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out);
int cli_parse_u32(const char *cmd, const char *opt, const char *arg, uint64_t min, uint64_t max, uint32_t *out);
struct slc_size;
int cli_parse_size(const char *cmd, const char *opt, const char *arg, struct slc_size *out);
int cli_parse_block(const char *cmd, const char *opt, const char *arg, uint32_t *out);
int cli_parse_duration(const char *cmd, const char *opt, const char *arg, uint64_t *out_ns);
int cli_parse_interval(const char *cmd, const char *arg, uint64_t *out_ns);

/* cli_command_line() - "slcscope ARGV..." into @buf (cut to @len), for the trace. */
void cli_command_line(char *buf, size_t len, int argc, char **argv);

struct slc_session;
struct slc_cpd_opts;
struct slc_import_opts;

/*
 * cli_load() - slc_session_load_many() of @n inputs for command @cmd: 0,
 * or the reason printed as "slcscope CMD: reason" and CLI_FAIL.
 */
int cli_load(struct slc_session *x, const char *cmd, const char *const *paths, size_t n, const struct slc_import_opts *io,
	     long only, const struct slc_cpd_opts *opts);

/*
 * cli_getopt() - @c's getopt_long() table and letters, made from its
 * description (static storage: one command per process).
 */
const struct option *cli_getopt(const struct slc_help_cmd *c, const char **letters);

/* The import options of import, analyze and export, all handled by cli_import_opt() by their name. */
#define CLI_OPT_IMPORT 0x1000
extern const struct slc_help_opt cli_import_opts[];
int cli_import_opt(const char *cmd, struct slc_import_opts *io, const char *name, const char *arg);

/*
 * cli_is_help() - true when @arg is -h or --help; every command checks its
 * arguments with it before anything else.
 */
int cli_is_help(const char *arg);

/*
 * cli_bad_option() - the one-line usage error for the option @arg that
 * getopt_long() (with opterr 0) returned '?' for, given the command's
 * table @lo: unknown, ambiguous (its candidates), a value missing or one
 * given to a flag.  Returns CLI_USAGE.
 */
struct option;
int cli_bad_option(const char *cmd, const struct option *lo, const char *arg);

/*
 * The INPUTs of report and plot in the order given, and their -l names:
 * each -l names the INPUT after it, or, all given after the last INPUT, the
 * INPUTs in order.  getopt_long() with a '-' in front of its letters returns
 * each operand as option 1, in place.
 */
#define CLI_MAX_INPUTS 64
struct cli_inputs {
	const char *path[CLI_MAX_INPUTS];
	const char *label[CLI_MAX_INPUTS];
	size_t at[CLI_MAX_INPUTS];    /* how many INPUTs came before each label */
	size_t n, nl;
};
struct slc_figure_opts;
/* Option 1 (an INPUT) or 'l' (a name) into @in: 0, a usage error, or -1 for any other option. */
int cli_operand(const char *cmd, struct cli_inputs *in, int opt, const char *arg);
/* The INPUTs after "--", then the names into @co, each to its INPUT; a usage error when they do not fit. */
int cli_operands_end(const char *cmd, struct cli_inputs *in, struct slc_figure_opts *co, int argc, char **argv);

#endif

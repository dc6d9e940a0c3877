/* SPDX-License-Identifier: MIT */
/* The report directory: phases.json, phases.csv, samples.csv, graphs, summary.md, index.html. */
#ifndef SLCSCOPE_CLI_REPORT_H
#define SLCSCOPE_CLI_REPORT_H

#include "analyze_input.h"

/*
 * report_write() - write the report of @x into directory @dir (created if
 * missing).  Prints one line per file written unless @quiet.
 * Returns 0 or prints "slcscope CMD: reason" and returns CLI_FAIL.
 */
int report_write(const char *cmd, const char *dir, const struct analyzed *x, int binary, int quiet);

#endif

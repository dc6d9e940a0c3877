/* SPDX-License-Identifier: MIT */
/*
 * slcscope core library (public header): units, the simulated drive,
 * targets and the write engine, run plans, the trace store, the emulated
 * drive's counters file.
 */
#ifndef SLCSCOPE_CORE_H
#define SLCSCOPE_CORE_H

#include "slcscope/units.h"
#include "slcscope/sample.h"
#include "slcscope/vocab.h"
#include "slcscope/sim.h"
#include "slcscope/engine.h"
#include "slcscope/trace.h"
#include "slcscope/emu_stats.h"
#include "slcscope/output.h"
#include "slcscope/version.h"

#endif

#!/usr/bin/env bash
# The main job on the embedded default: installs what is missing and builds
# (scripts/setup.sh), then runs the lab plan on the default simulated drive
# into DIR (default demo/): the trace, the phase breakdown, graphs and a report.
# Usage: ./scripts/demo.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-demo}
./scripts/setup.sh
./build/slcscope run sim: -o "$dir/trace.h5" --report "$dir"

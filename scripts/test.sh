#!/usr/bin/env bash
# The tests: installs what is missing and builds (scripts/setup.sh), then runs
# the whole suite, two tests at once.  SLCSCOPE_CMAKE_ARGS passes CMake
# options to the set-up (CI: -DSLCSCOPE_WERROR=ON).  Usage: ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
ctest --test-dir "${SLCSCOPE_BUILD_DIR:-build}" --output-on-failure -j2

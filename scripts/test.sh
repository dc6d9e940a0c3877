#!/usr/bin/env bash
# The tests: installs what is missing and builds (scripts/setup.sh), then runs
# the whole suite, two tests at once.  SLCSCOPE_CMAKE_ARGS passes CMake
# options to the set-up (CI: -DSLCSCOPE_WERROR=ON).
# Usage: ./scripts/test.sh [--quick]   --quick: the quick suite (ctest -L quick,
# about a minute: no slow, root, browser or guest tests), after each change
set -euo pipefail
cd "$(dirname "$0")/.."
label=()
case "${1:-}" in
--quick) label=(-L quick) ;;
"") ;;
*) echo "test.sh: unknown option '$1' (--quick or nothing)" >&2; exit 2 ;;
esac
./scripts/setup.sh
ctest --test-dir "${SLCSCOPE_BUILD_DIR:-build}" --output-on-failure -j2 "${label[@]}"

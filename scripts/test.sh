#!/usr/bin/env bash
# The tests: installs what is missing and builds (scripts/setup.sh), then runs
# the whole suite, two tests at once.  SLCSCOPE_CMAKE_ARGS passes CMake
# options to the set-up (CI: -DSLCSCOPE_WERROR=ON).
# Usage: ./scripts/test.sh [--quick]   --quick: the quick suite (ctest -L quick,
# about a minute: no slow, root, browser or guest tests), after each change
set -euo pipefail
cd "$(dirname "$0")/.."
label=()
for a in "$@"; do
	case "$a" in
	--quick) label=(-L quick) ;;
	-h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "test.sh: unknown option '$a' (--quick, --help)" >&2; exit 2 ;;
	esac
done
./scripts/setup.sh
ctest --test-dir "${SLCSCOPE_BUILD_DIR:-build}" --output-on-failure -j2 "${label[@]}"

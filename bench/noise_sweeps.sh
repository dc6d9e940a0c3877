#!/bin/sh
# SPDX-License-Identifier: MIT
# The golden test's robustness sweeps: the synthetic golden traces
# regenerated with other noise seeds (testdata/analysis/gen_synthetic.py,
# SLC_GEN_SEED_OFFSET=k), and the golden test, compiled against each set,
# run on them.  Prints one line per sweep and a count; exits non-zero when a
# sweep fails.  Not part of ctest (the committed traces are sweep 0).
#
#   bench/noise_sweeps.sh [BUILD_DIR] [FIRST LAST]     (defaults: build/ 1 12)
set -u

case "${1:-}" in
-h | --help)
	sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
first=${2:-1}
last=${3:-12}
lib="$build/analysis/libslcscope_analysis.a"
if [ ! -f "$lib" ]; then
	echo "noise_sweeps: $lib not found: build the project first (cmake --build $build)" >&2
	exit 2
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pass=0
total=0
k=$first
while [ "$k" -le "$last" ]; do
	dir="$tmp/s$k"
	mkdir -p "$dir/analysis"
	cp -r "$src/testdata/analysis/realdata" "$dir/analysis/"
	# the committed cases gen_synthetic.py does not make (decay_fine, from
	# bench/curves/generate.py) as they are; it overwrites its own below
	cp "$src"/testdata/analysis/*.csv "$src"/testdata/analysis/*.expected "$dir/analysis/" || exit 2
	if ! SLC_GEN_SEED_OFFSET=$k SLC_GEN_OUT="$dir/analysis" python3 "$src/testdata/analysis/gen_synthetic.py" \
		>/dev/null; then
		echo "noise_sweeps: generating sweep $k failed" >&2
		exit 2
	fi
	bin="$tmp/golden$k"
	if ! cc -std=c11 -O2 -D_GNU_SOURCE -DTESTDATA_DIR="\"$dir\"" -I"$src/analysis/include" \
		"$src/tests/unit/test_analysis_golden.c" "$src/tests/unit/golden_io.c" -o "$bin" \
		"$lib" -ljansson -lcairo -lcmocka -lm; then
		echo "noise_sweeps: compiling the golden test failed" >&2
		exit 2
	fi
	total=$((total + 1))
	if "$bin" >"$tmp/out$k" 2>&1; then
		pass=$((pass + 1))
		echo "sweep $k: pass"
	else
		echo "sweep $k: FAIL"
		grep -E "^\[  ERROR|^ERROR|^\[  FAILED  \] [a-z]" "$tmp/out$k" | sed "s/^/    /" | head -6
	fi
	k=$((k + 1))
done
echo "$pass of $total sweeps pass"
[ "$pass" -eq "$total" ]

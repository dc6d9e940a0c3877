#!/usr/bin/env bash
# The curve binned to 1 s reads an erase-bound onset; the phase model scores
# it among its own readings.  bench/curves' comb-11 (a DRAM-less drive's
# comb at 0.25 s: hundreds of levels, among which the model's own candidate
# onsets miss the step at 223 GB) is read with the onset by the model
# itself: its first reading has it, and no pass after the model adds it.
#   test_binned_onset.sh SLCSCOPE SOURCE_DIR
set -u
bin=$1 src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-bon.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$src/bench/curves/generate.py" --family comb --seeds 11 --out "$tmp" >/dev/null ||
	{ echo "FAIL: bench/curves/generate.py"; exit 1; }
"$bin" analyze --explain --state trimmed --capacity 256000000000 --cell tlc "$tmp/comb-11.csv" >"$tmp/out" ||
	{ echo "FAIL: analyze comb-11"; exit 1; }
first=$(grep -m 1 '^    reading:' "$tmp/out")
fails=0
case $first in
*"erase-bound from 223 GB"*) echo "ok: the model's reading: $first" ;;
*) echo "FAIL: the model's reading: $first"; fails=1 ;;
esac
if grep -q "(before: no such phase)" "$tmp/out"; then
	echo "FAIL: a pass after the model added a phase: $(grep '(before: no such phase)' "$tmp/out")"; fails=1
fi
grep -q "erase-bound from 3041.2 s, 225 GB written" "$tmp/out" && echo "ok: the onset at 225 GB" ||
	{ echo "FAIL: onset: $(grep -m 1 'erase-bound from' "$tmp/out")"; fails=1; }
exit $fails

#!/usr/bin/env bash
# The main job as the README's ./scripts/demo.sh runs it (its 'slcscope run'
# line, with its default DIR demo), in a scratch directory: it must leave the
# trace, the phase breakdown and the graphs, and find the default preset's
# 2.3 GB cache.
set -u
src=$1 build=$2
grep -q '^\./scripts/demo\.sh' "$src/README.md" || { echo "FAIL: the README's first commands do not run ./scripts/demo.sh"; exit 1; }
cmd=$(grep -m1 'slcscope run' "$src/scripts/demo.sh" | sed 's/ *#.*$//')
[ -n "$cmd" ] || { echo "FAIL: no 'slcscope run' line in scripts/demo.sh"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-main.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build" && ln -s "$build/slcscope" "$tmp/build/slcscope"
echo "running: $cmd"
(cd "$tmp" && dir=demo && eval "$cmd --quiet") || { echo "FAIL: the main job exited $?"; exit 1; }
fails=0
for f in demo/trace.h5 demo/phases.json demo/phases.csv demo/summary.md demo/index.html \
	demo/curve-1-seq_fill.png demo/curve-3-rand_curve.png demo/curve-3-rand_curve.svg; do
	[ -s "$tmp/$f" ] && echo "ok: $f" || { echo "FAIL: $f missing"; fails=$((fails+1)); }
done
size=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cache']['size_bytes'])" "$tmp/demo/phases.json")
/usr/bin/python3 -c "import sys; v=float(sys.argv[1]); sys.exit(0 if abs(v-2.30e9)/2.30e9 < 0.02 else 1)" "$size" \
	&& echo "ok: cache $size bytes (model: 2.30 GB)" || { echo "FAIL: cache $size, model 2.30 GB"; fails=$((fails+1)); }
echo "$(( fails == 0 ? 1 : 0 )) passed, $fails failed"
[ $fails = 0 ]

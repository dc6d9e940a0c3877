#!/usr/bin/env bash
# The screenshots of docs/img as scripts/screenshots.sh makes them: the main
# job's report and an eight-drive comparison report, each rendered by
# headless Chromium.  Each picture must be 1280 px wide, small enough to
# commit, and not blank: many colours, much of it not white, and the graphs'
# coloured lines and dots present.  Skips (77) without chromium or PIL.
set -u
bin=$1 src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-screens.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
SLCSCOPE=$bin bash "$src/scripts/screenshots.sh" "$tmp" >"$tmp/log" 2>&1
rc=$?
[ $rc = 77 ] && { echo "SKIP: $(cat "$tmp/log")"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: scripts/screenshots.sh exited $rc"; tail -20 "$tmp/log"; exit 1; }
/usr/bin/python3 - "$tmp/report.png" "$tmp/compare-8.png" <<'PY'
import os, sys
from PIL import Image
fails = 0
for path in sys.argv[1:]:
    name = os.path.basename(path)
    im = Image.open(path).convert("RGB")
    w, h = im.size
    px = im.load()
    sample = [px[x, y] for x in range(0, w, 4) for y in range(0, h, 4)]
    colours = len(set(sample))
    nonwhite = sum(1 for c in sample if c != (255, 255, 255)) / len(sample)
    # the graphs: coloured pixels (the palette's lines, markers and dots; not the pale phase shades)
    vivid = sum(1 for c in sample if max(c) - min(c) > 50)
    kb = os.path.getsize(path) / 1024
    ok = w == 1280 and colours > 50 and nonwhite > 0.05 and vivid > 200 and kb < 400
    print(("ok: " if ok else "FAIL: ") + f"{name}: {w}x{h}, {colours} colours, {nonwhite:.1%} not white, "
          f"{vivid} vivid sample points, {kb:.0f} KB")
    fails += not ok
print(f"{2 - fails} passed, {fails} failed")
sys.exit(1 if fails else 0)
PY

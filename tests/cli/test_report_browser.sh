#!/usr/bin/env bash
# The report page in a real browser: headless Chromium loads index.html and
# takes a screenshot; the screenshot must show the page (not blank, the
# graphs drawn).  Skips (77) where Debian's chromium is not installed.
set -u
bin=$1
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || { echo "SKIP: chromium not installed (Debian package chromium)"; exit 77; }
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import PIL' 2>/dev/null || { echo "SKIP: python3-pil missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-browser.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$bin" run sim:tiny-tlc --trim-wait 0 --rand-time 60s --idle 20s --burst 5s --interval 100ms \
	-o "$tmp/t.h5" --report "$tmp/rep" --quiet || { echo "FAIL: run --report"; exit 1; }
# flags as this workplace's machines need them: no sandbox as root, no network
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$tmp/profile" --window-size=1280,3000 --screenshot="$tmp/shot.png" \
	"file://$tmp/rep/index.html" >"$tmp/chromium.log" 2>&1
[ -s "$tmp/shot.png" ] || { echo "FAIL: no screenshot"; tail -5 "$tmp/chromium.log"; exit 1; }
/usr/bin/python3 - "$tmp/shot.png" <<'PY'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
w, h = im.size
px = im.load()
sample = [px[x, y] for x in range(0, w, 5) for y in range(0, h, 5)]
colours = len(set(sample))
nonwhite = sum(1 for c in sample if c != (255, 255, 255)) / len(sample)
# the graphs' dots are Okabe-Ito blue (0, 114, 178) drawn translucent
blueish = sum(1 for (r, g, b) in sample if b > 150 and r < 160 and b - r > 60)
print(f"screenshot {w}x{h}: {colours} colours, {nonwhite:.1%} not white, {blueish} blue sample points")
ok = colours > 50 and nonwhite > 0.05 and blueish > 20
print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
sys.exit(0 if ok else 1)
PY

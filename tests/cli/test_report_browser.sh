#!/usr/bin/env bash
# The report page in a real browser: headless Chromium renders index.html at
# 1280 px and at a phone's 390 px.  A probe copy of the page adds a script
# that measures the page in the browser and paints its verdict as a marker
# square (green: no horizontal scroll, every graph drawn with its texts and
# every image loaded; red: not), and the screenshot must show the marker green
# and the graphs drawn.  Skips (77) where Debian's chromium is not installed.
set -u
bin=$1
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || { echo "SKIP: chromium not installed (Debian package chromium)"; exit 77; }
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import PIL' 2>/dev/null || { echo "SKIP: python3-pil missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-browser.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$bin" run sim:tiny-tlc --trim-wait 0 --rand-time 60s --idle 20s --burst 5s --interval 100ms \
	-o "$tmp/t.h5" --report "$tmp/rep" --quiet || { echo "FAIL: run --report"; exit 1; }
probe='<script>(function () {
  var de = document.documentElement, ok = de.scrollWidth <= de.clientWidth, n = 0;
  document.querySelectorAll("svg").forEach(function (s) {
    n++; if (!(s.getBoundingClientRect().width > 0 && s.querySelectorAll("text").length > 0)) ok = false; });
  Array.prototype.forEach.call(document.images, function (i) { if (!(i.complete && i.naturalWidth > 0)) ok = false; });
  if (n < 3) ok = false;
  var m = document.createElement("div");
  m.style.cssText = "position:absolute;left:0;top:0;width:24px;height:24px;z-index:99;background:" + (ok ? "#00ff00" : "#ff0000");
  document.body.appendChild(m);
})();</script>'
/usr/bin/python3 - "$tmp/rep/index.html" "$tmp/rep/probe.html" "$probe" <<'PY'
import sys
page = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(page.replace("</body>", sys.argv[3] + "</body>"))
PY
fails=0
for w in 1280 390; do
	# flags as this workplace's machines need them: no sandbox as root, no network
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/profile$w" --window-size=$w,$([ $w = 390 ] && echo 9000 || echo 3000) --screenshot="$tmp/shot$w.png" \
		"file://$tmp/rep/probe.html" >"$tmp/chromium$w.log" 2>&1
	[ -s "$tmp/shot$w.png" ] || { echo "FAIL: no screenshot at $w px"; tail -5 "$tmp/chromium$w.log"; fails=$((fails+1)); continue; }
	/usr/bin/python3 - "$tmp/shot$w.png" "$w" <<'PY' || fails=$((fails+1))
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
w, h = im.size
px = im.load()
marker = px[8, 8]
sample = [px[x, y] for x in range(0, w, 5) for y in range(0, h, 5)]
colours = len(set(sample))
nonwhite = sum(1 for c in sample if c != (255, 255, 255)) / len(sample)
# the graphs' dots are Okabe-Ito blue (0, 114, 178) drawn translucent
blueish = sum(1 for (r, g, b) in sample if b > 150 and r < 160 and b - r > 60)
print(f"{sys.argv[2]} px: screenshot {w}x{h}, marker {marker}, {colours} colours, {nonwhite:.1%} not white, "
      f"{blueish} blue sample points")
ok = w == int(sys.argv[2]) and marker[1] > 200 and marker[0] < 60 and colours > 50 and nonwhite > 0.05 and blueish > 20
print(("ok: " if ok else "FAIL: ") + f"the page at {sys.argv[2]} px: no horizontal scroll, every graph and image drawn")
sys.exit(0 if ok else 1)
PY
done
echo "$(( 2 - fails )) passed, $fails failed"
[ $fails = 0 ]

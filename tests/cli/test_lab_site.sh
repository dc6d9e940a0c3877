#!/bin/bash
# slcscope lab site, in a real browser: the six traces of lab_traces in a
# lab, its site written, then headless Chromium loads the index, a drive's
# page and that drive's report.  A probe script placed first in each page
# records every script error and console error; on the index it also clicks
# the "SLC cache" heading and reads the order of the drives.  Chromium
# prints the page as it ends (--dump-dom) and the verdict is read from it:
# no errors, the table sorted by the cache, largest first, then smallest
# first on a second click, every ranking chart drawn.  Skips (77) without
# Debian's chromium.
#   test_lab_site.sh SLCSCOPE TRACES_DIR
set -u
SLC=$1
T=$2
fail() { echo "FAIL: $*"; exit 1; }
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || { echo "SKIP: chromium not installed (Debian package chromium)"; exit 77; }
for f in main tiny-tlc tiny-qlc2 tiny-mlc tiny-dramless thermal-nvme; do
	[ -s "$T/$f.h5" ] || fail "no trace $T/$f.h5 (the lab_traces test makes them)"
done
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

"$SLC" lab --db "$D/lab.db" add --quiet "$T"/main.h5 "$T"/tiny-*.h5 "$T"/thermal-nvme.h5 || fail "lab add"
"$SLC" lab --db "$D/lab.db" site "$D/site" --quiet || fail "lab site"
for f in index.html rank-cache.svg rank-cache.png; do [ -s "$D/site/$f" ] || fail "no $f in the site"; done
drive=$(grep -o 'href="drive-[0-9]*.html">Simulated 240 GB' "$D/site/index.html" | grep -o 'drive-[0-9]*.html')
[ -n "$drive" ] || fail "the index links no page of the main job's drive"
report=$(grep -o 'href="run-[0-9]*/index.html"' "$D/site/$drive" | grep -o 'run-[0-9]*/index.html')
[ -n "$report" ] && [ -s "$D/site/$report" ] || fail "$drive links no report"

# the probe: first in <head>, so that it sees every error the page's own scripts make
probe='<script>window.__errs = [];
window.addEventListener("error", function (e) { window.__errs.push("error: " + e.message); });
(function () { var ce = console.error; console.error = function () {
  window.__errs.push("console.error: " + Array.prototype.join.call(arguments, " ")); ce.apply(console, arguments); }; })();
window.addEventListener("load", function () {
  var out = {errors: window.__errs, svgs: document.querySelectorAll("svg").length};
  var t = document.getElementById("drives");
  if (t) {
    var names = function () { return Array.prototype.map.call(t.tBodies[0].rows, function (r) { return r.cells[0].textContent; }); };
    var th = Array.prototype.filter.call(t.tHead.rows[0].cells, function (c) { return c.textContent === "SLC cache"; })[0];
    th.click(); out.down = names(); th.click(); out.up = names();
  }
  var p = document.createElement("pre"); p.id = "verdict"; p.textContent = JSON.stringify(out);
  document.body.appendChild(p);
});</script>'
/usr/bin/python3 - "$probe" "$D/site/index.html" "$D/site/$drive" "$D/site/$report" <<'PY'
import sys
for page in sys.argv[2:]:
    text = open(page).read()
    open(page.replace(".html", ".probe.html"), "w").write(text.replace("<head>", "<head>" + sys.argv[1], 1))
PY
for page in index "${drive%.html}" "${report%.html}"; do
	out=$D/$(echo "$page" | tr / _).dom
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$D/profile" --enable-logging=stderr --v=0 --virtual-time-budget=5000 \
		--dump-dom "file://$D/site/$page.probe.html" >"$out" 2>"$out.log"
	grep -q 'id="verdict"' "$out" || fail "$page: no verdict from the page ($(tail -3 "$out.log"))"
	! grep -E 'CONSOLE.*(Uncaught|Error)' "$out.log" || fail "$page: console errors in Chromium's log"
	/usr/bin/python3 - "$out" "$page" <<'PY' || fail "$page: see above"
import html, json, re, sys
dom = open(sys.argv[1]).read()
v = json.loads(html.unescape(re.search(r'<pre id="verdict">(.*?)</pre>', dom, re.S).group(1)))
print(sys.argv[2], v)
assert not v["errors"], v["errors"]
if sys.argv[2] == "index":
    assert v["svgs"] >= 6, "a ranking chart per figure expected"
    down = [re.search(r"\(([a-z0-9-]+)\)$", n).group(1) for n in v["down"]]
    up = [re.search(r"\(([a-z0-9-]+)\)$", n).group(1) for n in v["up"]]
    assert down[0] == "sata240-tlc" and down[-1] == "tiny-mlc", down
    assert up[0] == "tiny-mlc" and up[-1] == "sata240-tlc", up
else:
    assert v["svgs"] >= (3 if "run-" in sys.argv[2] else 0)
PY
done
echo "lab site: ok"

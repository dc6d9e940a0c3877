#!/usr/bin/env bash
# Screenshots of the reports as a browser shows them: the main job's report
# (scripts/demo.sh's 'slcscope run') and a comparison report of eight
# simulated drives, each rendered by headless Chromium at 1280 px (the top
# of the page, down to the first graphs) into OUTDIR/report.png and OUTDIR/compare-8.png.  The PNGs
# are cut to a 256-colour palette so they stay small enough to commit.
# tests/cli/test_report_screens.sh runs this script, so the committed
# pictures and the tested ones come from the same commands.
# Usage: scripts/screenshots.sh [OUTDIR]   (default docs/img; SLCSCOPE=path
# to the binary, default build/slcscope)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/img}
slc=${SLCSCOPE:-$root/build/slcscope}
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || { echo "screenshots.sh: chromium not installed (Debian package chromium)" >&2; exit 77; }
/usr/bin/python3 -c 'import PIL' 2>/dev/null || { echo "screenshots.sh: python3-pil missing" >&2; exit 77; }
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-shots.XXXXXX")
trap 'rm -rf "$work"' EXIT

# the main job, as scripts/demo.sh runs it (relative paths, as the page shows them)
(cd "$work" && "$slc" run sim: -o demo/trace.h5 --report demo --quiet)

# eight drives: the small test presets and two review-sized ones, random writes after a TRIM
labels=()
i=0
for spec in tiny-tlc:120s tiny-mlc:120s tiny-qlc2:120s tiny-dramless:120s thermal-nvme:120s \
	sata240-tlc:600s sata480-dramless:300s tiny-tlc:90s; do
	i=$((i + 1))
	"$slc" run "sim:${spec%%:*}" --plan rand --trim-wait 0 --rand-time "${spec##*:}" --seed "$i" \
		-o "$work/d$i.h5" --quiet
	labels+=(--label "drive $i: ${spec%%:*}")
done
(cd "$work" && "$slc" report d{1..8}.h5 "${labels[@]}" --title "Eight drives compared" -o compare --quiet)

shot() {  # shot PAGE PNG HEIGHT
	# flags as headless machines need them: no sandbox as root, no network
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
		--user-data-dir="$work/profile" --window-size=1280,$3 --screenshot="$work/shot.png" \
		"file://$1" >"$work/chromium.log" 2>&1 || true
	[ -s "$work/shot.png" ] || { echo "screenshots.sh: chromium wrote no screenshot of $1" >&2; tail -5 "$work/chromium.log" >&2; exit 1; }
	/usr/bin/python3 - "$work/shot.png" "$2" <<'PY'
import sys
from PIL import Image
Image.open(sys.argv[1]).convert("RGB").quantize(256).save(sys.argv[2], optimize=True)
PY
	rm -f "$work/shot.png"
}
# the single drive's page: down to its first graph, the write curve of the sequential fill
shot "$work/demo/index.html" "$out/report.png" 2500
shot "$work/compare/index.html" "$out/compare-8.png" 1700
echo "wrote $out/report.png $out/compare-8.png"

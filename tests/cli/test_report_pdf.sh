#!/usr/bin/env bash
# report --pdf: report.pdf beside the HTML, for one drive and for a
# comparison.  poppler's tools must accept it; the page is A4 (595 x 842
# pt) by default and Letter (612 x 792 pt) with --paper letter; no raster
# image anywhere (every graph drawn as vectors); its text carries the
# headline SLC cache exactly as summary.md prints it; --theme print draws
# in grays only (the default theme in colour, so the check can tell).
#   test_report_pdf.sh SLCSCOPE
set -u
bin=$1
for t in pdfinfo pdfimages pdftotext; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not found (apt-get install poppler-utils)"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-rpdf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# two small simulated drives; 100 ms samples measure the first one's cache
"$bin" run sim:tiny-tlc --plan seq --interval 100ms -o "$tmp/a.h5" --quiet || { echo "FAIL: run a"; exit 1; }
"$bin" run sim:tiny-qlc2 --plan seq --interval 1s -o "$tmp/b.h5" --quiet || { echo "FAIL: run b"; exit 1; }

# the page size pdfinfo reports, rounded to whole points: "595x842"
page_size() {
	pdfinfo "$1" | awk '/^Page size:/ { printf "%.0fx%.0f\n", $3, $5 }'
}

# the colours the PDF's content streams set (r g b rg / RG), one "r g b" a line
colours() {
	python3 - "$1" <<'EOF'
import re, sys, zlib
data = open(sys.argv[1], "rb").read()
seen = set()
for m in re.finditer(rb"stream\r?\n", data):
    end = data.find(b"endstream", m.end())
    try:
        s = zlib.decompress(data[m.end():end])
    except zlib.error:
        continue
    for c in re.finditer(rb"(?<![\w.])([-\d.]+) ([-\d.]+) ([-\d.]+) (?:rg|RG)\b", s):
        seen.add(" ".join("%.3f" % float(v) for v in c.groups()))
print("\n".join(sorted(seen)))
EOF
}

# the words pdftotext finds outside the margins (40 pt at the sides and top, 20 at the foot), one a line
outside() {
	pdftotext -bbox "$1" "$tmp/bbox.html" && python3 - "$tmp/bbox.html" <<'EOF'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
for page in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', s, re.S):
    w, h = float(page.group(1)), float(page.group(2))
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>',
                         page.group(3)):
        x0, y0, x1, y1 = map(float, m.groups()[:4])
        if x0 < 40 or x1 > w - 40 or y0 < 40 or y1 > h - 20:
            print("%s at %.0f,%.0f-%.0f,%.0f" % (m.group(5), x0, y0, x1, y1))
EOF
}

# check_pdf NAME DIR SIZE: report.pdf in DIR is a PDF of SIZE ("595x842"), vector only
check_pdf() {
	local name=$1 pdf=$2/report.pdf size=$3 images
	[ -f "$pdf" ] || { bad "$name: no report.pdf in $(ls "$2" | tr '\n' ' ')"; return 1; }
	pdfinfo "$pdf" >"$tmp/info" 2>&1 && ok "$name: pdfinfo reads it" || { bad "$name: pdfinfo: $(cat "$tmp/info")"; return 1; }
	[ "$(page_size "$pdf")" = "$size" ] && ok "$name: page $size pt" ||
		bad "$name: page $(page_size "$pdf"), not $size"
	# every page the same size
	pdfinfo -f 1 -l 999 "$pdf" | awk '/^Page +[0-9]+ size:/ { s[$4 "x" $6] = 1 } END { exit length(s) != 1 }' &&
		ok "$name: every page that size" || bad "$name: pages of different sizes"
	images=$(pdfimages -list "$pdf" | tail -n +3)
	[ -z "$images" ] && ok "$name: no raster images" || bad "$name: raster images in the PDF: $images"
	pdftotext "$pdf" "$tmp/text" && ok "$name: pdftotext reads it" || bad "$name: pdftotext fails"
	if command -v python3 >/dev/null; then
		out=$(outside "$pdf")
		[ -z "$out" ] && ok "$name: all text inside the margins" || bad "$name: text outside the margins: $(echo "$out" | head -n 3)"
	fi
}

"$bin" report "$tmp/a.h5" -o "$tmp/r" --pdf --quiet || { echo "FAIL: report --pdf"; exit 1; }
check_pdf "A4 (the default)" "$tmp/r" 595x842
pdfinfo "$tmp/r/report.pdf" | grep -q '^Page size:.*(A4)' && ok "pdfinfo names it A4" || bad "pdfinfo does not name the page A4"
pages=$(pdfinfo "$tmp/r/report.pdf" | awk '/^Pages:/ { print $2 }')
[ "${pages:-0}" -ge 2 ] && ok "$pages pages" || bad "only ${pages:-0} page(s): the graphs are missing"
# the headline SLC cache as summary.md prints it: "| SLC cache (host data written at cache speed) | 268 MB |"
cache=$(awk -F ' \\| ' '/^\| SLC cache \(host data written/ { sub(/ \|$/, "", $2); print $2 }' "$tmp/r/summary.md")
[ -n "$cache" ] || bad "summary.md has no headline SLC cache"
[ -n "$cache" ] && grep -qF -- "$cache" "$tmp/text" && ok "the headline cache '$cache' in the PDF's text" ||
	bad "the headline cache '$cache' not in the PDF's text: $(grep -n 'SLC cache' "$tmp/text" | head -n 3)"
# the model's sentence and the drive's name, as the page has them
grep -qF 'The model is ' "$tmp/text" && ok "the model's sentence" || bad "no 'The model is' in the PDF's text"
title=$(head -n 1 "$tmp/r/summary.md" | sed 's/^# //')
grep -qF -- "$title" "$tmp/text" && ok "the title '$title'" || bad "the title '$title' not in the PDF"
# written through the report's staging, listed in its marker like every other file
grep -qx 'report.pdf' "$tmp/r/.slcscope-report" && ok "report.pdf listed in the report's marker" ||
	bad "report.pdf not in .slcscope-report"
ls -a "$tmp" | grep -q 'slcscope-' && bad "a staging directory left: $(ls -a "$tmp")" || ok "no staging directory left"
if command -v python3 >/dev/null; then
	colours "$tmp/r/report.pdf" | awk '$1 != $2 || $2 != $3 { found = 1 } END { exit !found }' &&
		ok "the default theme draws in colour" || bad "the default theme's PDF has no colour: is the check blind?"
fi

# a report without --pdf: no report.pdf; with it again: the earlier one replaced
"$bin" report "$tmp/a.h5" -o "$tmp/r" --quiet || bad "report again without --pdf"
[ ! -e "$tmp/r/report.pdf" ] && ok "without --pdf the earlier report.pdf goes" || bad "a stale report.pdf stays"

"$bin" report "$tmp/a.h5" -o "$tmp/l" --pdf --paper letter --quiet || bad "report --pdf --paper letter"
check_pdf "Letter" "$tmp/l" 612x792
pdfinfo "$tmp/l/report.pdf" | grep -qi '^Page size:.*(letter)' && ok "pdfinfo names it Letter" || bad "pdfinfo does not name the page Letter"

"$bin" report "$tmp/a.h5" -o "$tmp/p" --pdf --theme print --quiet || bad "report --pdf --theme print"
check_pdf "--theme print" "$tmp/p" 595x842
if command -v python3 >/dev/null; then
	colour=$(colours "$tmp/p/report.pdf" | awk '$1 != $2 || $2 != $3')
	[ -z "$colour" ] && ok "--theme print: grays only" || bad "--theme print: colours in the PDF: $colour"
fi

"$bin" report "$tmp/a.h5" "$tmp/b.h5" -o "$tmp/c" --pdf --quiet || bad "comparison report --pdf"
check_pdf "comparison" "$tmp/c" 595x842
grep -qF 'Drives compared' "$tmp/text" && grep -qF 'tiny-qlc2' "$tmp/text" && ok "comparison: its title and both drives" ||
	bad "comparison: title or drive missing from the text"
cache=$(awk -F ' \\| ' '/tiny-tlc/ && /^\| / { print $3; exit }' "$tmp/c/summary.md")
[ -n "$cache" ] && grep -qF -- "$cache" "$tmp/text" && ok "comparison: the first drive's cache '$cache'" ||
	bad "comparison: the first drive's cache '$cache' not in the PDF's text"

# --paper is the PDF's: alone it is a usage error, as is an unknown paper
"$bin" report "$tmp/a.h5" -o "$tmp/x" --paper letter 2>"$tmp/err"
[ $? = 2 ] && grep -q -- '--paper' "$tmp/err" && ok "--paper without --pdf refused" || bad "--paper alone: $(cat "$tmp/err")"
"$bin" report "$tmp/a.h5" -o "$tmp/x" --pdf --paper a3 2>"$tmp/err"
[ $? = 2 ] && grep -q "not a4 or letter" "$tmp/err" && ok "--paper a3 refused" || bad "--paper a3: $(cat "$tmp/err")"
"$bin" report --help | grep -q -- '--paper' && ok "--help documents --paper" || bad "--help has no --paper"

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all passed"

#!/usr/bin/env bash
# report --capacity/--cell/--state: what a lab knows about the drive of a
# log reaches the model (phases.json's model.evidence), bad values and a
# comparison of several drives are refused with a one-line reason.
#   test_report_evidence.sh SLCSCOPE CSV
set -u
bin=$1 csv=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-rev.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
py=/usr/bin/python3
[ -x "$py" ] || py=python3

"$bin" report "$csv" -o "$tmp/r" --quiet --capacity 1TB --cell qlc --state trimmed ||
	{ echo "FAIL: report with the drive's evidence"; exit 1; }
got=$("$py" -c 'import json,sys; e=json.load(open(sys.argv[1]))["model"]["evidence"]; print(e["capacity_bytes"], e["cell"], e["state"])' "$tmp/r/phases.json")
[ "$got" = "1000000000000.0 qlc trimmed" ] && ok "evidence in phases.json" || bad "evidence: '$got'"

"$bin" report "$csv" -o "$tmp/r0" --quiet || { echo "FAIL: report without evidence"; exit 1; }
got=$("$py" -c 'import json,sys; e=json.load(open(sys.argv[1]))["model"]["evidence"]; print(e["capacity_bytes"], e["cell"], e["state"])' "$tmp/r0/phases.json")
[ "$got" = "None unknown unknown" ] && ok "no evidence without the options" || bad "evidence without options: '$got'"

refuse() {
	local what=$1; shift
	"$bin" report "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(grep -c 'slcscope report:' "$tmp/err")" -eq 1 ]; then ok "$what refused"
	else bad "$what: exit $rc, $(head -n 2 "$tmp/err")"; fi
}
refuse "a cell type that is none" "$csv" -o "$tmp/x" --cell xlc
refuse "a state that is none" "$csv" -o "$tmp/x" --state new
refuse "a capacity that is no size" "$csv" -o "$tmp/x" --capacity 2x
refuse "one drive's evidence for two INPUTs" "$csv" "$csv" -o "$tmp/x" --cell tlc
[ ! -e "$tmp/x" ] && ok "nothing written when refused" || bad "a refused report wrote $tmp/x"
exit $((fails > 0))

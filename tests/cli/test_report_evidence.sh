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
# A cache inside the first 1 s sample is a bound in the report as in the
# text, never "no cache"; a stall after it that recurs leaves only the
# flash in SLC mode above it.
for comb in 1 0; do
	"$py" -c 'import sys
comb = sys.argv[2] == "1"
with open(sys.argv[1], "w") as f:
    f.write("t_s,bps\n")
    for i in range(200):
        v = 164e6 if i == 0 else 0 if i == 1 else ((60e6, 2e6, 45e6, 75e6)[i % 4] if comb else 45e6 + (i % 5) * 1e6)
        f.write("%d,%.0f\n" % (i + 1, v))' "$tmp/short.csv" "$comb"
	"$bin" report "$tmp/short.csv" -o "$tmp/s$comb" --quiet --capacity 4GiB --cell tlc --state trimmed ||
		bad "report of a short cache"
	want="ended inside the first" head="too short for this interval"
	[ "$comb" = 1 ] && want="at most 1.83 GB (the flash in SLC mode)" head="its end hidden by a stall"
	if grep -qF "$head" "$tmp/s$comb/summary.md" && grep -qF "$want" "$tmp/s$comb/summary.md" &&
		! grep -q "No SLC cache seen" "$tmp/s$comb/summary.md"; then ok "short cache (stalls: $comb) is a bound in the report"
	else bad "short cache (stalls: $comb): $(grep -i -m 3 'cache' "$tmp/s$comb/summary.md" | tr '\n' ' ')"; fi
done

refuse "a cell type that is none" "$csv" -o "$tmp/x" --cell xlc
refuse "a state that is none" "$csv" -o "$tmp/x" --state new
refuse "a capacity that is no size" "$csv" -o "$tmp/x" --capacity 2x
refuse "one drive's evidence for two INPUTs" "$csv" "$csv" -o "$tmp/x" --cell tlc
[ ! -e "$tmp/x" ] && ok "nothing written when refused" || bad "a refused report wrote $tmp/x"
exit $((fails > 0))

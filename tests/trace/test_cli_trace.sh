#!/usr/bin/env bash
# slcscope import / export: golden results for testdata/import, the bad
# inputs (one line, exit 1, nothing written), usage errors, help.
set -u
bin=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Golden: import to a trace, export the trace, compare with INPUT.expected.csv beside the input.
# The samples written by hand for the CSV forms no Debian tool makes: chunk
# files (bytes axis), Excel's BOM, quoted fields, semicolons with decimal
# commas, CR-only lines, positions in percent of the capacity.
opts_for() { case "$1" in position_pct.csv) echo "--capacity 100GB" ;; esac; }
for input in avg_bw.1.log raw_bw.1.log t_ms_MBps.csv time_s_bytes_per_s.csv direction.csv \
	realdata/biwin_x570_1tb_fresh_200g_seqwrite_1s.csv \
	realdata/biwin_x570_1tb_mixed5050_nocliff_1s.csv \
	realdata/biwin_x570_1tb_postprecond_200g_seqwrite_1s.csv \
	chunks.csv bom.csv quoted.csv semicolon_comma.csv cr_only.csv position_pct.csv; do
	name=$(basename "$input")
	# shellcheck disable=SC2046
	if ! "$bin" import "$data/import/$input" $(opts_for "$name") -o "$tmp/$name.h5" >"$tmp/out" 2>"$tmp/err"; then
		bad "import $input: $(cat "$tmp/err")"; continue
	fi
	grep -qE "samples, .* written in .*, mean .*/s" "$tmp/out" || bad "import $input: no summary with units"
	# the direct export of the input and the export of the trace must both match
	"$bin" export "$tmp/$name.h5" --csv | tail -n +2 >"$tmp/trace.csv"
	# shellcheck disable=SC2046
	"$bin" export "$data/import/$input" $(opts_for "$name") --csv | tail -n +2 >"$tmp/direct.csv"
	cp "$tmp/trace.csv" "$tmp/$name.h5.csv"
	if diff -q "$data/import/$input.expected.csv" "$tmp/trace.csv" >/dev/null &&
		diff -q "$data/import/$input.expected.csv" "$tmp/direct.csv" >/dev/null; then
		ok "golden $input"
	else
		bad "golden $input differs:"; diff "$data/import/$input.expected.csv" "$tmp/trace.csv" | head -5
	fi
done

# The hand-written samples: bytes and mean speed as worked out from the file itself.
python3 - "$tmp" "$data/import" <<'PY' || bad "bytes or mean speed of the hand-written samples"
import csv, io, sys
tmp, d = sys.argv[1], sys.argv[2]
MiB = 1 << 20
def rows(name, **kw):
    text = open(f"{d}/{name}", encoding="utf-8-sig", newline="").read()
    return list(csv.reader(io.StringIO(text.replace("\r\n", "\n").replace("\r", "\n")), **kw))[1:]
def tsv(name, step=1.0):  # (time, MB/s-ish speed) rows: bytes = sum(speed x interval), mean = bytes / time
    return sum(v * step for v in name), len(name) * step
want = {}
r = rows("chunks.csv"); n = len(r)
want["chunks.csv"] = (n * 76 * MiB, n * 76 * MiB / sum(76 * MiB / (float(x[4]) * MiB) for x in r))
for name, unit in (("bom.csv", MiB), ("cr_only.csv", MiB), ("quoted.csv", 1e6)):
    r = rows(name); b = sum(float(x[1]) * unit for x in r)
    want[name] = (b, b / float(r[-1][0]))
r = rows("semicolon_comma.csv", delimiter=";")
b = sum(float(x[1].replace(",", ".")) * 1e6 * 0.5 for x in r); want["semicolon_comma.csv"] = (b, b / 8.0)
r = rows("position_pct.csv"); cap = 100e9
want["position_pct.csv"] = (cap, cap / sum(cap / 100 / (float(x[1]) * 1e6) for x in r))
bad = 0
for name, (b, mean) in want.items():
    last = [l for l in open(f"{tmp}/{name}.h5.csv") if l[0].isdigit()][-1].split(",")
    gb, gt = int(last[3]), float(last[1])
    ok = abs(gb - b) <= 1 + 1e-9 * b and abs(gb / gt - mean) <= 1e-6 * mean
    print(("ok" if ok else "FAIL") + f": {name}: {gb} bytes (want {b:.0f}), mean {gb / gt:.6g} B/s (want {mean:.6g})")
    bad += not ok
sys.exit(bad)
PY

# JSON export parses and carries the parameters.
"$bin" export "$tmp/t_ms_MBps.csv.h5" --json -o "$tmp/x.json" || bad "export --json -o"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["segments"][0]; assert s["params"]["step"]=="import"; assert s["samples"]["bytes_total"][-1]==300000000; assert s["samples"]["lat_p99_us"][0] is None' "$tmp/x.json"; then
	ok "export --json"
else
	bad "export --json content"
fi

# What the user knows of the drive is kept in the trace and read back by the
# analysis: --capacity and --cell on import.
if "$bin" import "$data/import/t_ms_MBps.csv" -o "$tmp/drive.h5" --capacity 240GB --cell tlc >/dev/null &&
	"$bin" export "$tmp/drive.h5" --json -o "$tmp/drive.json" &&
	python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["meta"]; assert m["capacity_bytes"]==240000000000 and m["cell_type"]=="tlc", m' "$tmp/drive.json" &&
	"$bin" analyze "$tmp/drive.h5" --json | python3 -c 'import json,sys; e=json.load(sys.stdin)["segments"][0]["model"]["evidence"]; assert e["capacity_bytes"]==240e9 and e["cell"]=="tlc", e'; then
	ok "import --capacity --cell kept for the analysis"
else
	bad "import --capacity --cell not kept in the trace"
fi
python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["meta"]; assert m["cell_type"] is None' "$tmp/x.json" ||
	bad "a trace imported without --cell has a cell type"
"$bin" import "$data/import/t_ms_MBps.csv" -o "$tmp/y.h5" --cell plc >/dev/null 2>&1; [ $? = 2 ] || bad "import --cell plc"
[ -e "$tmp/y.h5" ] && bad "import --cell plc left a trace"

# Bad inputs: exit 1, exactly one line on stderr, no output and no temporary file left.
for input in "$data"/import/bad/* "$tmp/missing.csv"; do
	rm -f "$tmp/bad.h5"
	"$bin" import "$input" -o "$tmp/bad.h5" >/dev/null 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" = 1 ] && [ "$lines" = 1 ] && [ ! -e "$tmp/bad.h5" ] && ! ls "$tmp" | grep -q '\.tmp\.'; then
		ok "refused $(basename "$input"): $(cat "$tmp/err")"
	else
		bad "import $(basename "$input"): rc $rc, $lines stderr lines, output left: $(ls "$tmp" | grep bad)"
	fi
	"$bin" export "$input" --csv >/dev/null 2>"$tmp/err"
	[ $? = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] || bad "export $(basename "$input") not refused in one line"
done

# Foreign, truncated and garbage HDF5-like files.
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
open(f"{d}/garbage.h5", "wb").write(b"\x89HDF\r\n\x1a\n" + bytes(range(256)) * 4)
good = open(f"{d}/t_ms_MBps.csv.h5", "rb").read()
open(f"{d}/truncated.h5", "wb").write(good[: len(good) // 2])
PY
for f in garbage.h5 truncated.h5; do
	"$bin" export "$tmp/$f" --csv >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ]; then ok "refused $f: $(cat "$tmp/err")"; else bad "$f: rc $rc: $(cat "$tmp/err")"; fi
done

# Usage errors exit 2; --help exits 0 and names the units.
"$bin" import >/dev/null 2>&1; [ $? = 2 ] || bad "import without arguments"
"$bin" import "$data/import/t_ms_MBps.csv" >/dev/null 2>&1; [ $? = 2 ] || bad "import without -o"
"$bin" import "$data/import/t_ms_MBps.csv" -o "$tmp/y.h5" --bin 0 >/dev/null 2>&1; [ $? = 2 ] || bad "import --bin 0"
"$bin" export "$tmp/t_ms_MBps.csv.h5" >/dev/null 2>&1; [ $? = 2 ] || bad "export without format"
"$bin" export "$tmp/t_ms_MBps.csv.h5" --csv --json >/dev/null 2>&1; [ $? = 2 ] || bad "export --csv --json"
"$bin" import --help | grep -q "KiB/s" || bad "import --help lacks units"
for f in "fio log" "fio JSON" "CSV, time" "CSV, bytes" "iostat  " "diskstats" "dd  " "trace  "; do
	"$bin" help import | grep -q "^  $f" || bad "help import does not list '$f'"
done
"$bin" export --help | grep -q "bytes/s" || bad "export --help lacks units"
"$bin" --help | grep -q "^  import" || bad "import not listed in slcscope --help"

echo "$fails failure(s)"
[ "$fails" = 0 ]

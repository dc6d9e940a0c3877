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

# a capacity no trace can hold is refused where it is given, not by the next reader
for cmd in import analyze; do
	"$bin" $cmd "$data/import/t_ms_MBps.csv" --capacity 1000k -o "$tmp/cap.h5" >/dev/null 2>"$tmp/err"; rc=$?
	[ "$cmd" = analyze ] && { "$bin" analyze "$data/import/t_ms_MBps.csv" --capacity 1000k >/dev/null 2>"$tmp/err"; rc=$?; }
	[ $rc = 2 ] && grep -q "outside 1 MiB to 2^53 bytes" "$tmp/err" && [ ! -e "$tmp/cap.h5" ] &&
		ok "$cmd --capacity 1000k refused" || bad "$cmd --capacity 1000k: exit $rc $(cat "$tmp/err")"
done
# a size or duration that is none: the message names its option
for a in "analyze --capacity 12Q" "import --bs 4x" "import --bin 3x"; do
	set -- $a
	"$bin" "$1" "$data/import/t_ms_MBps.csv" "$2" "$3" -o "$tmp/opt.h5" >/dev/null 2>"$tmp/err"; rc=$?
	[ "$1" = analyze ] && { "$bin" analyze "$data/import/t_ms_MBps.csv" "$2" "$3" >/dev/null 2>"$tmp/err"; rc=$?; }
	[ $rc = 2 ] && grep -q "^slcscope $1: $2: unknown" "$tmp/err" && [ ! -e "$tmp/opt.h5" ] &&
		ok "$a: the message names $2" || bad "$a: exit $rc $(cat "$tmp/err")"
done
# a trace is copied with its own records: what --capacity or --cell would
# say of its drive is refused, not dropped without a word
for a in "--capacity 512GB" "--cell qlc"; do
	"$bin" import "$tmp/drive.h5" $a -o "$tmp/copy.h5" >/dev/null 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "drive.h5 is a slcscope trace, copied with its own records" "$tmp/err" &&
		[ ! -e "$tmp/copy.h5" ] && ok "import TRACE $a refused" || bad "import TRACE $a: exit $rc $(cat "$tmp/err")"
done

# a file name that is not UTF-8 (any bytes are), and a trace's text that is
# not: JSON and graphs take UTF-8, so those bytes are shown escaped or replaced
cp "$data/import/t_ms_MBps.csv" "$tmp/"$'\xe9t\xe9.csv'
"$bin" export --json "$tmp/"$'\xe9t\xe9.csv' 2>"$tmp/err" | grep -q '"source": ".*\\\\xe9t\\\\xe9.csv"' &&
	ok "export --json of a non-UTF-8 file name" || bad "non-UTF-8 name: $(cat "$tmp/err")"
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
	cp "$tmp/t_ms_MBps.csv.h5" "$tmp/u.h5"
	/usr/bin/python3 -c 'import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r+"); f.attrs["command_line"] = np.bytes_(b"run \xff\xfe"); f.close()' "$tmp/u.h5"
	"$bin" export --json "$tmp/u.h5" >/dev/null 2>"$tmp/err" && "$bin" plot "$tmp/u.h5" -o "$tmp/u.svg" 2>>"$tmp/err" &&
		ok "a trace's non-UTF-8 attribute: export and plot" || bad "non-UTF-8 attribute: $(cat "$tmp/err")"
fi

# inputs summed must be distinct: one fio run's two logs (each brings in the
# other) or one file twice would count the writes twice
# (the second spelt with its directory another way: the directory itself decides)
if "$bin" analyze "$data/import/avg_bw.1.log" "$data/import/./avg_bw.2.log" >/dev/null 2>"$tmp/err"; then
	bad "two logs of one fio run summed"
else
	grep -q "are logs of one fio run" "$tmp/err" && ok "two logs of one fio run refused" || bad "fio family: $(cat "$tmp/err")"
fi
if "$bin" import "$data/import/t_ms_MBps.csv" "$data/import/t_ms_MBps.csv" -o "$tmp/twice.h5" >/dev/null 2>"$tmp/err" ||
   [ -e "$tmp/twice.h5" ]; then
	bad "one file given twice was summed"
else
	grep -q "are the same file: give each input once" "$tmp/err" && ok "one file twice refused" || bad "twice: $(cat "$tmp/err")"
fi

# a count column stored as a signed or floating-point number: a negative or
# NaN value is refused by name (HDF5 alone would read -5 as 0)
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
	for v in -5 nan; do
		cp "$tmp/t_ms_MBps.csv.h5" "$tmp/neg.h5"
		/usr/bin/python3 - "$tmp/neg.h5" "$v" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r+") as f:
    seg = f["segments"][sorted(f["segments"])[0]]
    old = seg["bytes_total"][()].astype("f8")
    old[0] = float(sys.argv[2])
    del seg["bytes_total"]
    seg.create_dataset("bytes_total", data=old if sys.argv[2] == "nan" else old.astype("i8"))
PY
		if "$bin" analyze "$tmp/neg.h5" >/dev/null 2>"$tmp/err"; then
			bad "bytes_total $v accepted"
		elif [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "bytes_total at sample 0 is $v: a count is a whole number from 0" "$tmp/err"; then
			ok "bytes_total $v refused by name"
		else
			bad "bytes_total $v: $(cat "$tmp/err")"
		fi
	done
fi

# a run's newest segment, half made when read (its events' times missing):
# while the run is still writing the trace (run_status "running") the
# segments before it are read, with a note; in a finished trace it is damage
if /usr/bin/python3 -c 'import h5py' 2>/dev/null &&
	"$bin" run sim:tiny-tlc --plan rand --rand-time 5s --trim-wait 1s --quiet -o "$tmp/half.h5"; then
	for st in running complete; do
		cp "$tmp/half.h5" "$tmp/half-$st.h5"
		/usr/bin/python3 - "$tmp/half-$st.h5" "$st" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    f.attrs["run_status"] = sys.argv[2]
    del f["segments"][sorted(f["segments"])[-1]]["events"]["t_s"]
PY
	done
	if "$bin" export "$tmp/half-running.h5" --csv >"$tmp/half.csv" 2>"$tmp/err" &&
		grep -q "^# notes: segment 0001 left out: the run was writing it (segment 0001: events/t_s missing" \
			"$tmp/half.csv" && [ "$(grep -c '^# segment ' "$tmp/half.csv")" = 1 ]; then
		ok "a running trace's half-made newest segment: left out with a note, the one before read"
	else
		bad "running trace, half-made newest segment: $(cat "$tmp/err") $(grep '^#' "$tmp/half.csv" | head -3)"
	fi
	"$bin" export "$tmp/half-complete.h5" --csv >/dev/null 2>"$tmp/err" && bad "a finished trace's damaged segment read" ||
		{ grep -q "segment 0001: events/t_s missing" "$tmp/err" && ok "a finished trace's damaged segment: refused"; } ||
		bad "finished trace, damaged segment: $(cat "$tmp/err")"
fi

echo "$fails failure(s)"
[ "$fails" = 0 ]

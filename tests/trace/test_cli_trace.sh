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
for input in avg_bw.1.log raw_bw.1.log t_ms_MBps.csv time_s_bytes_per_s.csv direction.csv \
	realdata/biwin_x570_1tb_fresh_200g_seqwrite_1s.csv \
	realdata/biwin_x570_1tb_mixed5050_nocliff_1s.csv \
	realdata/biwin_x570_1tb_postprecond_200g_seqwrite_1s.csv; do
	name=$(basename "$input")
	if ! "$bin" import "$data/import/$input" -o "$tmp/$name.h5" >"$tmp/out" 2>"$tmp/err"; then
		bad "import $input: $(cat "$tmp/err")"; continue
	fi
	grep -qE "samples, .* written in .*, mean .*/s" "$tmp/out" || bad "import $input: no summary with units"
	# the direct export of the input and the export of the trace must both match
	"$bin" export "$tmp/$name.h5" --csv | tail -n +2 >"$tmp/trace.csv"
	"$bin" export "$data/import/$input" --csv | tail -n +2 >"$tmp/direct.csv"
	if diff -q "$data/import/$input.expected.csv" "$tmp/trace.csv" >/dev/null &&
		diff -q "$data/import/$input.expected.csv" "$tmp/direct.csv" >/dev/null; then
		ok "golden $input"
	else
		bad "golden $input differs:"; diff "$data/import/$input.expected.csv" "$tmp/trace.csv" | head -5
	fi
done

# JSON export parses and carries the parameters.
"$bin" export "$tmp/t_ms_MBps.csv.h5" --json -o "$tmp/x.json" || bad "export --json -o"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["segments"][0]; assert s["params"]["step"]=="import"; assert s["samples"]["bytes_total"][-1]==300000000; assert s["samples"]["lat_p99_us"][0] is None' "$tmp/x.json"; then
	ok "export --json"
else
	bad "export --json content"
fi

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
"$bin" export --help | grep -q "bytes/s" || bad "export --help lacks units"
"$bin" --help | grep -q "^  import" || bad "import not listed in slcscope --help"

echo "$fails failure(s)"
[ "$fails" = 0 ]

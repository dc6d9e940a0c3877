#!/usr/bin/env bash
# Golden tests of the importers on what the real tools write, made here:
#  - fio on a file with each log option (write_bw_log / write_iops_log,
#    averaged and per-I/O, log_offset, the priority column, two jobs,
#    --status-interval JSON), checked against fio's own JSON summary;
#  - dd status=progress onto a loop device of our own while iostat (-d -k and
#    -x -d -y -t) and a /proc/diskstats sampler record it, checked against
#    dd's final line (and iostat's own column for the mean).
# Parts whose tool is missing are skipped; exit 77 when nothing could run.
set -u
bin=$1
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-imptools.XXXXXX")
loop="" pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fails=0 ran=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# check NAME TRACE_INPUT WANT_BYTES BYTES_TOL WANT_MEAN MEAN_TOL [import options...]
# Imports, exports, and compares the last bytes_total and bytes / time.
check() {
	local name=$1 input=$2 wb=$3 btol=$4 wm=$5 mtol=$6
	shift 6
	if ! "$bin" import "$input" "$@" -o "$tmp/$name.h5" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		bad "$name: import failed: $(cat "$tmp/$name.err")"; return
	fi
	"$bin" export "$tmp/$name.h5" --csv >"$tmp/$name.csv"
	if $py - "$tmp/$name.csv" "$wb" "$btol" "$wm" "$mtol" "$name" <<'PY'; then ran=$((ran + 1)); else fails=$((fails + 1)); fi
import sys
rows = [l.split(",") for l in open(sys.argv[1]) if l[0].isdigit()]
wb, btol, wm, mtol, name = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
b, t = float(rows[-1][3]), float(rows[-1][1])
eb, em = abs(b - wb) / wb, abs(b / t - wm) / wm
good = eb <= btol and em <= mtol
print("%s: %s: %.0f bytes (tool: %.0f, off %.2f%%, tolerance %.1f%%), mean %.4g B/s (tool: %.4g, off %.2f%%, tolerance %.1f%%)"
      % ("ok" if good else "FAIL", name, b, wb, eb * 100, btol * 100, b / t, wm, em * 100, mtol * 100))
sys.exit(0 if good else 1)
PY
	grep -q "^# import: {" "$tmp/$name.csv" || bad "$name: the export lacks the import record"
}

# fio_sum JSON: "bytes mean_bps runtime_s" of the writes of all jobs (the last report)
fio_sum() {
	$py - "$1" <<'PY'
import json, sys
t = sys.argv[1] and open(sys.argv[1]).read()
dec, i, last = json.JSONDecoder(), 0, None
while True:
    j = t.find("{", i)
    if j < 0: break
    last, i = dec.raw_decode(t, j)
b = sum(j["write"]["io_bytes"] for j in last["jobs"])
rt = max(j["job_runtime"] for j in last["jobs"]) / 1e3
print(b, b / rt, rt)
PY
}

# fio_avg_ref LOG KIND BLOCK RATE_BPS GRID_MS BYTES RUNTIME_S: "bytes bytes_tol mean mean_tol" for an
# averaged log (KIND bw: KiB/s, iops: I/Os per second of BLOCK bytes).  The reference is the log's
# own integral: each line's value over the time since the line before (the first line over one
# step: its window is not in the log, docs/import.md), up to the last line, whose time (rounded to
# the step) the import's last row states.  fio writes no line for the writes after its last one,
# and how much that tail holds depends on how its rate limiter caught up, which a loaded machine
# changes (one tail held 28% of the run): against fio's JSON total the log is only checked to claim
# no more than fio wrote and at least half of what its span could hold (a unit error fails both).
fio_avg_ref() {
	$py - "$@" <<'PY'
import sys
log, kind, block, rate, g, b, rt = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), \
    float(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
lines = [[float(x) for x in l.split(",")[:3]] for l in open(log) if l.strip()]
lines = [(t, v) for t, v, d in lines if d == 1]
unit = 1024.0 if kind == "bw" else block
prev, logged = None, 0.0
for t, v in lines:
    logged += v * unit * (g if prev is None else t - prev) / 1e3
    prev = t
t_n = lines[-1][0] / 1e3
row_t = round(lines[-1][0] / g) * g / 1e3
if not (0.5 * b * min(t_n / rt, 1) <= logged <= 1.005 * b):
    print("FAIL: %s: the log states %.0f bytes up to %.2f s; fio's JSON %.0f bytes in %.2f s" %
          (log, logged, t_n, b, rt), file=sys.stderr)
    sys.exit(1)
print(logged, 0.005, logged / row_t, abs(row_t - t_n) / row_t + 0.005)
PY
}

if command -v fio >/dev/null; then
	cd "$tmp" || exit 1
	# the block size, rate limit and averaging window, in bytes and ms, for the checks below too
	bs=131072 rate=$((64 << 20)) avg_ms=500
	base=(--filename="$tmp/fio.dat" --size=160M --bs=$bs --iodepth=4 --ioengine=libaio --direct=1 --rw=write
	      --rate=$rate --output-format=json)
	fio --name=avg "${base[@]}" --write_bw_log=avg --write_iops_log=avg --log_avg_msec=$avg_ms --output=avg.json >/dev/null 2>&1 &&
	fio --name=raw "${base[@]}" --write_bw_log=raw --log_offset=1 --output=raw.json >/dev/null 2>&1 &&
	fio --name=iops "${base[@]}" --write_iops_log=iops --output=iops.json >/dev/null 2>&1 &&
	fio --name=prio "${base[@]}" --write_bw_log=prio --log_prio=1 --cmdprio_percentage=50 --cmdprio_class=2 \
		--cmdprio=3 --output=prio.json >/dev/null 2>&1 &&
	fio --name=two "${base[@]}" --size=80M --numjobs=2 --offset_increment=80M --write_bw_log=two \
		--output=two.json >/dev/null 2>&1 &&
	fio --name=st "${base[@]}" --status-interval=1 --output=st.json >/dev/null 2>&1 || bad "fio runs failed"
	cd - >/dev/null || exit 1
	read -r b m rt <<<"$(fio_sum "$tmp/avg.json")"
	# log_avg_msec: fio writes no line for the last partial window
	if ref=$(fio_avg_ref "$tmp/avg_bw.1.log" bw $bs $rate $avg_ms "$b" "$rt"); then
		read -r wb btol wm mtol <<<"$ref"
		check fio_avg_bw "$tmp/avg_bw.1.log" "$wb" "$btol" "$wm" "$mtol"
	else bad "fio_avg_bw: fio's averaged log disagrees with its JSON"; fi
	cp "$tmp/avg_iops.1.log" "$tmp/alone_iops.1.log"
	if ref=$(fio_avg_ref "$tmp/alone_iops.1.log" iops $bs $rate $avg_ms "$b" "$rt"); then
		read -r wb btol wm mtol <<<"$ref"
		check fio_avg_iops_alone "$tmp/alone_iops.1.log" "$wb" "$btol" "$wm" "$mtol" --bs $bs
	else bad "fio_avg_iops_alone: fio's averaged log disagrees with its JSON"; fi
	read -r b m rt <<<"$(fio_sum "$tmp/raw.json")"
	# per-I/O: every byte; the last 100 ms bin ends up to 100 ms after the last I/O
	check fio_raw_offset "$tmp/raw_bw.1.log" "$b" 0 "$m" "$($py -c "print(0.1 / $rt + 0.01)")" --bin 100ms
	read -r b m rt <<<"$(fio_sum "$tmp/iops.json")"
	check fio_raw_iops "$tmp/iops_iops.1.log" "$b" 0 "$m" "$($py -c "print(0.1 / $rt + 0.01)")" --bin 100ms
	read -r b m rt <<<"$(fio_sum "$tmp/prio.json")"
	grep -q ", 0x" "$tmp/prio_bw.1.log" && ok "fio wrote a hex priority column" || echo "note: no hex prio column from this fio"
	check fio_prio "$tmp/prio_bw.1.log" "$b" 0 "$m" "$($py -c "print(0.1 / $rt + 0.01)")" --bin 100ms
	read -r b m rt <<<"$(fio_sum "$tmp/two.json")"
	check fio_two_jobs "$tmp/two_bw.1.log" "$b" 0 "$m" "$($py -c "print(0.1 / $rt + 0.01)")" --bin 100ms
	read -r b m rt <<<"$(fio_sum "$tmp/st.json")"
	check fio_json_status "$tmp/st.json" "$b" 0 "$m" 0.001
	# the per-job logs as separate inputs give the same sum as the siblings
	cp "$tmp/two_bw.1.log" "$tmp/0_log.log"; cp "$tmp/two_bw.2.log" "$tmp/1_log.log"
	read -r b m rt <<<"$(fio_sum "$tmp/two.json")"
	check fio_two_inputs "$tmp/0_log.log" "$b" 0 "$m" "$($py -c "print(0.1 / $rt + 0.02)")" "$tmp/1_log.log" --bin 100ms
else
	echo "skip: fio missing (Debian package fio)"
fi

# dd onto a loop device of our own, recorded by iostat and /proc/diskstats
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && truncate -s 2G "$tmp/loop.img" &&
	loop=$(losetup -f --show "$tmp/loop.img" 2>/dev/null); then
	dev=$(basename "$loop")
	have_iostat=0
	if command -v iostat >/dev/null; then
		have_iostat=1
		LC_ALL=C iostat -d -k 1 >"$tmp/io_d.txt" & pids+=($!)
		LC_ALL=C iostat -x -d -y -t 1 >"$tmp/io_x.txt" & pids+=($!)
	else
		echo "skip: iostat missing (Debian package sysstat)"
	fi
	(while :; do sed "s/^/$(date +%s.%N) /" /proc/diskstats; sleep 0.5; done) >"$tmp/ds.log" & pids+=($!)
	sleep 1.5
	LC_ALL=C dd if=/dev/zero of="$loop" bs=1M count=1536 oflag=direct status=progress 2>"$tmp/dd.txt"
	sleep 2.5
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	pids=()
	losetup -d "$loop" && loop=""
	read -r db dt dm <<<"$($py - "$tmp/dd.txt" <<'PY'
import re, sys
last = open(sys.argv[1]).read().replace("\r", "\n").strip().split("\n")[-1]
m = re.match(r"(\d+) bytes .* copied, ([0-9.]+) s, ([0-9.]+) (\w)B/s", last)
b, t = int(m[1]), float(m[2])
print(b, t, b / t)
PY
)"
	# the mean from dd's bytes and seconds: its printed speed has as few as
	# 2 digits ("1.1 GB/s"), 5% apart.  dd reports once a second, so a
	# device that takes the 1.5 GiB in under 2 s leaves too few reports
	if [ "$(tr '\r' '\n' < "$tmp/dd.txt" | grep -c ' copied, ')" -ge 3 ]; then
		check dd_progress "$tmp/dd.txt" "$db" 0 "$dm" 0.01
	else
		echo "skip: dd_progress: dd wrote 1.5 GiB in $dt s, too fast for two progress reports"
	fi
	# the snapshots' own mean: sectors written between the first and the last, over their time
	want=$($py - "$tmp/ds.log" "$dev" <<'PY'
import sys
s = [(float(t[0]), int(t[10])) for t in (l.split() for l in open(sys.argv[1])) if len(t) > 10 and t[3] == sys.argv[2]]
print((s[-1][1] - s[0][1]) * 512 / (s[-1][0] - s[0][0]))
PY
)
	check diskstats "$tmp/ds.log" "$db" 0.001 "$want" 0.001 --device "$dev"
	if [ $have_iostat = 1 ]; then
		for f in io_d io_x; do
			# iostat's own mean: its write column over the reports kept (from the first with writes)
			want=$($py - "$tmp/$f.txt" "$dev" <<'PY'
import sys
rows, col = [], None
for l in open(sys.argv[1]):
    t = l.split()
    if t and t[0].startswith("Device"):
        col = t.index("wkB/s") if "wkB/s" in t else t.index("kB_wrtn/s")
    elif t and t[0] == sys.argv[2]:
        rows.append(float(t[col]) * 1024)
if "kB_wrtn/s" in open(sys.argv[1]).read(): rows = rows[1:]     # -d without -y: the first is since boot
print(sum(rows) / len(rows))
PY
)
			check "iostat_$f" "$tmp/$f.txt" "$db" 0.02 "$want" 0.02 --device "$dev"
		done
	fi
else
	echo "skip: no loop device (needs root and losetup)"
fi

echo "$ran checks ran, $fails failure(s)"
[ "$fails" = 0 ] || exit 1
[ "$ran" -gt 0 ] || { echo "SKIP: neither fio nor a loop device here"; exit 77; }
exit 0

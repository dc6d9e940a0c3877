#!/usr/bin/env bash
# The fio round trip (docs/import.md): 'slcscope run --fio-job' writes the seq
# plan for a loop device, real fio runs the job, and the import and analyze
# commands that the job file's header gives read fio's averaged logs back.
# Checked: fio wrote the logs the header names; the import has one sample per
# interval of the fill's runtime (within 20%), its bytes are the fill's size
# (within 5%: fio writes no line for the last partial window) and it read the
# latency log too; analyze exits 0 and prints the fill's phases.
#
# The loop device is throttled to 64 MiB/s (blkio cgroup) for the fill only:
# unthrottled, it writes into the page cache and 256 MiB take two windows of
# 100 ms, so the last missing window would be most of the curve.  A real
# drive's fill spans hundreds of windows.
#
# Needs root, fio, a free loop device and the blkio throttle; exits 77
# (skipped) with the reason otherwise.
set -u
bin=$(realpath "$1")
RATE=$((64 << 20)) SIZE=$((256 << 20)) INTERVAL_MS=100

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for a loop device"; exit 77; }
command -v fio >/dev/null || { echo "SKIP: fio is not installed (apt-get install fio)"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: losetup missing (util-linux)"; exit 77; }
losetup --find >/dev/null 2>&1 || { echo "SKIP: no free loop device"; exit 77; }
blkio=/sys/fs/cgroup/blkio
if [ ! -w "$blkio/cgroup.procs" ] || [ ! -e "$blkio/blkio.throttle.write_bps_device" ]; then
	echo "SKIP: no blkio cgroup (v1) to throttle the loop device with"; exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-fio-roundtrip.XXXXXX")
loop="" cg="$blkio/slcscope-fio-roundtrip.$$"
cleanup() {
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ -d "$cg" ] && rmdir "$cg" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

truncate -s 1GiB "$tmp/disk.img"
loop=$(losetup --find --show "$tmp/disk.img") || { loop=""; echo "SKIP: losetup could not attach a loop device"; exit 77; }
if ! mkdir "$cg" || ! echo "$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ') $RATE" > "$cg/blkio.throttle.write_bps_device"; then
	echo "SKIP: cannot throttle $loop in $cg"; exit 77
fi
mkdir "$tmp/run" && cd "$tmp/run" || exit 1

# No wait after the TRIM: the job is the TRIM and the fill.
"$bin" run "$loop" --plan seq --seq-bytes 256MiB --interval ${INTERVAL_MS}ms --trim-wait 0 --fio-job job.fio \
	--destructive --quiet || fail "run --fio-job"
grep -qx "log_avg_msec=$INTERVAL_MS" job.fio || fail "no log_avg_msec=$INTERVAL_MS in the job"
imp=$(sed -n 's/^#     slcscope import //p' job.fio)
ana=$(sed -n 's/^#     slcscope analyze //p' job.fio)
if [ "$(printf '%s\n' "$imp" | wc -l)" != 1 ] || [ -z "$imp" ] || [ -z "$ana" ]; then
	fail "the header gives no single import and analyze command: $(head -20 job.fio)"
fi
log=${imp%% *}
echo "header: slcscope import $imp"

sh -c 'echo $$ > "$1/cgroup.procs" && exec fio --output-format=json job.fio' sh "$cg" > fio.json 2> fio.err ||
	fail "fio job.fio: $(head -3 fio.err)"
[ -s "$log" ] || fail "fio did not write $log: $(ls)"
for k in iops lat; do
	[ -s "${log/_bw./_$k.}" ] || fail "fio did not write ${log/_bw./_$k.}"
done
# the fill's bytes and runtime as fio counts them
read -r fio_bytes runtime_ms < <(python3 - fio.json <<'PY'
import json, sys
t = open(sys.argv[1]).read()
j = [x for x in json.loads(t[t.index("{"):])["jobs"] if x["jobname"].endswith("seq_fill")][0]
print(j["write"]["io_bytes"], j["job_runtime"])
PY
) || fail "fio's JSON"
[ "$fio_bytes" = "$SIZE" ] || fail "fio wrote $fio_bytes bytes, the job says $SIZE"

# shellcheck disable=SC2086
"$bin" import $imp > import.out 2>&1 || fail "slcscope import $imp: $(cat import.out)"
trace=${imp##* }
samples=$(sed -n 's/.* segment(s), \([0-9]*\) samples, .*/\1/p' import.out)
"$bin" export "$trace" --csv > trace.csv || fail "export $trace"
bytes=$(tail -1 trace.csv | cut -d, -f4)
grep -q '"lat_logs":1' trace.csv || fail "the import did not read the latency log: $(grep '^# import' trace.csv)"
python3 - "$samples" "$bytes" "$runtime_ms" "$INTERVAL_MS" "$SIZE" <<'PY' || fail "samples or bytes"
import sys
n, b, rt, iv, size = (float(x or 0) for x in sys.argv[1:])
want = rt / iv
print(f"fio ran the fill for {rt:.0f} ms: {want:.1f} intervals; imported {n:.0f} samples "
      f"({(n / want - 1) * 100:+.1f}%), {b:.0f} of {size:.0f} bytes ({(b / size - 1) * 100:+.2f}%)")
assert abs(n - want) <= 0.2 * want, "samples"
assert abs(b - size) <= 0.05 * size, "bytes"
PY

# shellcheck disable=SC2086
"$bin" analyze $ana > analyze.out 2>&1 || fail "slcscope analyze $ana: exit $?: $(head -5 analyze.out)"
phases=$(awk '/^ *phase +start/ { on = 1; next } on && NF > 5 && $2 ~ /^[0-9.]+$/ { print $1 } on && NF == 0 { on = 0 }' analyze.out)
[ -n "$phases" ] || fail "analyze printed no phases: $(cat analyze.out)"
echo "analyze: phases $(printf '%s ' "$phases" | tr '\n' ' ')"
# the trace the import wrote reads as the log does
"$bin" analyze "$trace" > analyze_trace.out 2>&1 || fail "slcscope analyze $trace: exit $?: $(head -5 analyze_trace.out)"
grep -q "^ *phase  *start" analyze_trace.out || fail "analyze $trace printed no phases: $(cat analyze_trace.out)"
echo "ok"

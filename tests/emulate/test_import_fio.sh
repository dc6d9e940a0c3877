#!/usr/bin/env bash
# The same fill recorded two ways analyses to the same phases: 'slcscope run'
# on a file, and fio (same block size and queue depth) on the same kind of
# file with its log imported.  The file is the emulated drive's DIR/drive.img
# (a fresh emulator for each run), so there is an SLC cache to find; a plain
# file on this machine's disk has none (docs/import.md, "Checked against
# slcscope run").  Cache size, cache speed and direct-to-TLC speed must agree
# within 2% with fio's per-I/O log.  An averaged log (log_avg_msec) is
# coarser: its window at the end of the cache mixes both speeds, and the
# figures it gives are printed as notes, not checked.  The per-I/O log is binned at 100 ms: its last
# bin runs to the next boundary after the last I/O, 100 ms of the 7 s after
# the cache at most.
# Needs root, /dev/fuse, fio; exits 77 with the reason otherwise.
bin=$1
source "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "SKIP: fio missing (Debian package fio)"; exit 77; }

model=$here/emu-tlc.json
T=1/8 S=1/2        # 134 MB cache at ~65 MB/s (2 s), then ~9.75 MB/s
size=192MiB        # the cache and ~67 MB direct to TLC (7 s)

emu_start viarun "$model" --time-scale $T --size-scale $S --quiet
"$bin" run "$mnt/drive.img" --plan seq --seq-bytes $size --trim-wait 0 --bs-seq 128k -q 32 --interval 250ms \
	--no-probe --quiet -o "$tmp/run.h5" 2>"$tmp/run.err" || bad "slcscope run on the emulated file: $(cat "$tmp/run.err")"
emu_stop "$emu_pid" "$mnt"

# fio_fill NAME [log options...]: fio's fill of a fresh emulated drive, its log as NAME_bw.1.log
fio_fill() {
	local name=$1; shift
	emu_start "fio$name" "$model" --time-scale $T --size-scale $S --quiet
	(cd "$tmp" && fio --name="$name" --filename="$mnt/drive.img" --size=$size --bs=128k --iodepth=32 \
		--ioengine=io_uring --direct=1 --rw=write --write_bw_log="$name" "$@" --output-format=json \
		--output="$name.json" >/dev/null 2>"$tmp/fio.err") || bad "fio on the emulated file: $(cat "$tmp/fio.err")"
	emu_stop "$emu_pid" "$mnt"
}
fio_fill fill
fio_fill avg --log_avg_msec=250

"$bin" analyze --json "$tmp/run.h5" >"$tmp/run.json" || bad "analyze run.h5"
"$bin" analyze --json --bin 100ms "$tmp/fill_bw.1.log" >"$tmp/fio.json" || bad "analyze the per-I/O fio log"
"$bin" analyze --json "$tmp/avg_bw.1.log" >"$tmp/avg.json" || bad "analyze the averaged fio log"

$py - "$tmp/run.json" "$tmp/fio.json" 0.02 "per-I/O log" "$tmp/avg.json" 0 "averaged log" <<'EOF'
import json, sys
def seg(path):
    d = json.load(open(path))
    return [s for s in d["segments"] if s.get("cache")][0]
def native(s):
    ph = [p for p in s["phases"] if p["kind"] != "slc_cache"]
    return (ph[-1]["end_bytes"] - ph[0]["start_bytes"]) / (ph[-1]["end_s"] - ph[0]["start_s"])
run = seg(sys.argv[1])
bad = 0
for path, tol, what in ((sys.argv[2], float(sys.argv[3]), sys.argv[4]), (sys.argv[5], float(sys.argv[6]), sys.argv[7])):
    fio = seg(path)
    for name, a, b in (("SLC cache size", run["cache"]["size_bytes"], fio["cache"]["size_bytes"]),
                       ("SLC cache speed", run["cache"]["speed_bps"], fio["cache"]["speed_bps"]),
                       ("direct-to-TLC speed", native(run), native(fio))):
        if not tol:
            # an averaged log may hold the cache in a sample or two: a
            # bound, no size (the note says so; only the per-I/O log is held
            # to a tolerance)
            if a is None or b is None:
                print("note: %s, fio %s: %s (slcscope run: %s)" % (name, what, b, a))
            else:
                print("note: %s, fio %s: %.4g (slcscope run: %.4g), off by %.1f%%"
                      % (name, what, b, a, abs(b - a) / a * 100))
            continue
        err = abs(b - a) / a
        print("%s: %s, fio %s: %.4g (slcscope run: %.4g), off by %.1f%% (tolerance %d%%)"
              % ("ok" if err <= tol else "FAIL", name, what, b, a, err * 100, tol * 100))
        bad += err > tol
sys.exit(1 if bad else 0)
EOF
[ $? = 0 ] && passes=$((passes+1)) || fails=$((fails+1))
finish

#!/usr/bin/env bash
# The lab plan, scaled, on a loop device over the emulated drive: the analysis
# must find the model's SLC cache size, cache speed and direct-to-TLC speed.
# The reference is the same scaled model run in virtual time (sim:), whose
# speeds are bytes per model second: the emulated ones, divided by the time
# scale, must match.  Tolerances and why: docs/emulate.md ("Accuracy").
# Needs root, /dev/fuse, losetup; exits 77 with the reason otherwise.
bin=$1
source "$(dirname "$0")/lib.sh"

model=$here/emu-tlc.json
T=1/8 S=1/2        # 134 MB cache at ~65 MB/s (2 s), then ~9.75 MB/s
seq=200MB          # the cache and ~66 MB direct to TLC (7 s)
start=$(date +%s)

emu_start lab "$model" --time-scale $T --size-scale $S; pid=$emu_pid lab=$mnt
loop_attach "$lab/drive.img"; dev=$loop
dio=$(cat "/sys/block/$(basename "$dev")/loop/dio")
[ "$dio" = 1 ] && ok "loop direct I/O is on" || bad "loop direct I/O is off (dio=$dio)"

if "$bin" run "$dev" --destructive -o "$tmp/lab.h5" --seq-bytes $seq --rand-time 4s --idle 2s --burst 2s \
	--trim-wait 0 --interval 100ms --quiet 2>"$tmp/run.err"; then
	n=$("$bin" export "$tmp/lab.h5" --csv | grep -c '^# segment ')
	[ "$n" = 8 ] && ok "lab plan on the emulated device: 8 segments" || bad "lab plan: $n segments"
else
	bad "lab plan on the emulated device failed: $(cat "$tmp/run.err")"
fi
"$bin" analyze --json "$tmp/lab.h5" >"$tmp/lab.json" || bad "analyze of the lab trace failed"
inf=$(stat_of "$lab" in_flight_max)
# QD32 must reach the model as many commands at once, not one by one
[ "$inf" -ge 16 ] && ok "up to $inf commands in flight in the model" || bad "only $inf commands in flight at QD32"
late=$(stat_of "$lab" late_replies) cmds=$(stat_of "$lab" commands)
echo "note: $late of $cmds replies more than 1 ms late"
loop_detach "$dev"
emu_stop "$pid" "$lab"

# the reference: the model scaled by the documented rule, in virtual time
scale_model() {  # scale_model FACTOR OUT: the documented size-scale rule, done independently
$py - "$model" "$2" "$1" <<'EOF'
import json, math, sys
from fractions import Fraction
m = json.load(open(sys.argv[1])); s = float(Fraction(sys.argv[3]))
grain = max(m.get("mapping_unit_bytes", 4096), 1 << 20)
spare = m["nand"]["raw_bytes"] / m["capacity_bytes"]
m["capacity_bytes"] = int(m["capacity_bytes"] * s) // grain * grain
blk = m["nand"]["block_bytes"]
m["nand"]["raw_bytes"] = math.ceil(m["capacity_bytes"] * spare / blk) * blk
m["slc_cache"]["static_bytes"] = int(m["slc_cache"]["static_bytes"] * s) // 4096 * 4096
json.dump(m, open(sys.argv[2], "w"))
EOF
}
scale_model $S "$tmp/scaled.json"
# same samples per model second as the emulated run (100 ms x 1/8)
"$bin" run "sim:$tmp/scaled.json" --plan seq --seq-bytes $seq --trim-wait 0 --interval 12.5ms -o "$tmp/sim.h5" --quiet \
	&& "$bin" analyze --json "$tmp/sim.h5" >"$tmp/sim.json" || bad "the reference run in virtual time failed"

# cache size within 10%, speeds (per model second) within 15%
$py - "$tmp/lab.json" "$tmp/sim.json" 0.125 <<'EOF'
import json, sys
emu, sim, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), float(sys.argv[3])
def native(seg):
    # everything after the cache: the analysis may cut it into several phases
    ph = [p for p in seg["phases"] if p["kind"] != "slc_cache"]
    a, b = ph[0], ph[-1]
    return (b["end_bytes"] - a["start_bytes"]) / (b["end_s"] - a["start_s"])
e, s = emu["segments"][0], sim["segments"][0]
checks = [
    ("SLC cache size", e["cache"]["size_bytes"], s["cache"]["size_bytes"], 0.10, "B"),
    ("SLC cache speed", e["cache"]["speed_bps"] / t, s["cache"]["speed_bps"], 0.15, "B/s"),
    ("direct-to-TLC speed", native(e) / t, native(s), 0.15, "B/s"),
]
bad = 0
for name, got, want, tol, unit in checks:
    err = abs(got - want) / want
    print("%s: %s %.4g %s (model, virtual time: %.4g), off by %.1f%% (tolerance %d%%)"
          % ("ok" if err <= tol else "FAIL", name, got, unit, want, err * 100, tol * 100))
    bad += err > tol
sys.exit(1 if bad else 0)
EOF
[ $? = 0 ] && passes=$((passes+1)) || fails=$((fails+1))

# --- erase-bound: a 268 MB drive (1/16) written at random until past the
# point where the model's free pool runs out (~306 MB); the model's own event
# says where that is, the same model in virtual time what speed follows.
# 16 KiB writes: 1.2k commands/s instead of 4.9k, so that the emulator
# keeps up with margin on a loaded machine under ASan (at 4 KiB it answered
# 2-10k replies more than 1 ms late per run, at 16 KiB about 300)
T=1/4 S=1/16
emu_start eb "$model" --time-scale $T --size-scale $S; pid=$emu_pid eb=$mnt
loop_attach "$eb/drive.img"; dev=$loop
"$bin" run "$dev" --destructive --plan rand --bs-rand 16k --rand-bytes 430MB --rand-time 90s --trim-wait 0 --interval 250ms \
	-o "$tmp/eb.h5" --quiet 2>"$tmp/run.err" || bad "random run on the emulated device failed: $(cat "$tmp/run.err")"
"$bin" analyze --json "$tmp/eb.h5" >"$tmp/eb.json" || bad "analyze of the random curve failed"
$py -c 'import json,sys
d=json.load(open(sys.argv[1]))
print(" ".join(str(e["host_bytes"]) for e in d["last_events"] if e["event"]=="free_pool_exhausted") or "none")' \
	"$eb/stats.json" >"$tmp/eb.event"
loop_detach "$dev"
emu_stop "$pid" "$eb"
scale_model $S "$tmp/scaled16.json"
"$bin" run "sim:$tmp/scaled16.json" --plan rand --bs-rand 16k --rand-bytes 430MB --trim-wait 0 --interval 62.5ms -o "$tmp/ebsim.h5" --quiet \
	&& "$bin" analyze --json "$tmp/ebsim.h5" >"$tmp/ebsim.json" || bad "the reference random run in virtual time failed"
# the onset within 10% of the model's event (the change-point sits within a
# few samples of it), the speed after it within 20% of the model's
$py - "$tmp/eb.json" "$tmp/ebsim.json" 0.25 "$(cat "$tmp/eb.event")" <<'EOF'
import json, sys
emu, sim, t, ev = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), float(sys.argv[3]), sys.argv[4]
if ev == "none":
    print("FAIL: the model's free pool never ran out"); sys.exit(1)
ev = float(ev.split()[0])
def slower(ph):
    # the first phase clearly slower than the first native one, and the mean
    # speed from its start to the end (the analysis may cut the rest again,
    # e.g. a short last phase as GC gets worse); a cache too short for the
    # interval (a bound, one sample) comes first and is no native writing
    while len(ph) > 1 and ph[0]["kind"] == "slc_cache":
        ph = ph[1:]
    for p in ph[1:]:
        if p["mean_bps"] < 0.8 * ph[0]["mean_bps"]:
            return p["start_bytes"], (ph[-1]["end_bytes"] - p["start_bytes"]) / (ph[-1]["end_s"] - p["start_s"])
    return None, None
e, s = slower(emu["segments"][0]["phases"]), slower(sim["segments"][0]["phases"])
if e[0] is None or s[0] is None:
    print("FAIL: no slower phase found (emulated %s, virtual time %s)" % (e, s)); sys.exit(1)
onset, speed, want = e[0], e[1] / t, s[1]
bad = 0
for name, got, ref, tol, unit in (("erase-bound onset", onset, ev, 0.10, "B written (model event at"),
                                  ("erase-bound speed", speed, want, 0.20, "B/s (model, virtual time:")):
    err = abs(got - ref) / ref
    print("%s: %s %.4g %s %.4g), off by %.1f%% (tolerance %d%%)" % ("ok" if err <= tol else "FAIL", name, got, unit, ref, err * 100, tol * 100))
    bad += err > tol
# the drive's counters, read through the probe during the run (stats.json
# every 5 s), give the erase-bound phase a write amplification: GC copies
# make it more than 1, and the model in virtual time (read every sample)
# agrees within 20%
def wa_after(doc, onset):
    # each analysis from its own onset: the two may differ by a fraction
    # of a percent in either direction
    ph = doc["segments"][0]["phases"]
    was = [p["write_amplification"] for p in ph if p["start_bytes"] >= onset and p["write_amplification"] is not None]
    return was[-1] if was else None
we, ws = wa_after(emu, e[0]), wa_after(sim, s[0])
ok = we is not None and ws is not None and we > 1.05 and abs(we - ws) / ws <= 0.20
print("%s: write amplification of the last phase from the drive's counters: %s (model, virtual time: %s)" % ("ok" if ok else "FAIL", we, ws))
bad += not ok
sys.exit(1 if bad else 0)
EOF
[ $? = 0 ] && passes=$((passes+1)) || fails=$((fails+1))
echo "note: took $(( $(date +%s) - start )) s"
finish

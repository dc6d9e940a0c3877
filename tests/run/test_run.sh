#!/usr/bin/env bash
# slcscope run on targets that need no privileges: simulated drives, null,
# regular files; dry runs, argument errors, Ctrl-C and SIGTERM mid-run, SIGSTOP.
set -u
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
ok() { passes=$((passes+1)); echo "ok: $*"; }
bad() { fails=$((fails+1)); echo "FAIL: $*"; }
segments() { "$bin" export "$1" --csv | grep -c '^# segment '; }
samples() { "$bin" export "$1" --csv | grep -vc '^#'; }

# the whole lab plan on a small simulated drive, scaled down
if "$bin" run sim:tiny-tlc -o "$tmp/lab.h5" --rand-time 120s --idle 30s --burst 5s --trim-wait 2s \
	--interval 100ms --quiet; then
	[ "$(segments "$tmp/lab.h5")" = 8 ] && ok "lab plan: 8 segments" || bad "lab plan: $(segments "$tmp/lab.h5") segments"
	"$bin" export "$tmp/lab.h5" --json >"$tmp/lab.json"
	grep -q '"cache_exhausted"' "$tmp/lab.json" && ok "ground-truth events stored" || bad "no cache_exhausted event in the trace"
	grep -q '"free_pool_exhausted"' "$tmp/lab.json" && ok "erase-bound onset stored" || bad "no free_pool_exhausted event"
else
	bad "lab plan on sim:tiny-tlc failed"
fi
# same seed, same samples
"$bin" run sim:tiny-tlc --plan rand --rand-time 20s --trim-wait 0 -o "$tmp/a.h5" --quiet --seed 4
"$bin" run sim:tiny-tlc --plan rand --rand-time 20s --trim-wait 0 -o "$tmp/b.h5" --quiet --seed 4
cmp -s <("$bin" export "$tmp/a.h5" --csv | grep -v '^#') <("$bin" export "$tmp/b.h5" --csv | grep -v '^#') \
	&& ok "same seed, same samples" || bad "same seed gave different samples"

# --until-steady ends the random curve once SNIA steady state holds after 2x
"$bin" run sim:tiny-tlc --plan rand --until-steady --trim-wait 0 -o "$tmp/ss.h5" 2>"$tmp/err"
last_t=$("$bin" export "$tmp/ss.h5" --csv | grep -v '^#' | tail -1 | cut -d, -f2)
grep -q 'SNIA steady state from .* stopping the curve' "$tmp/err" && awk -v t="$last_t" 'BEGIN{exit !(t < 7000)}' \
	&& ok "--until-steady stopped the curve at ${last_t} s" || bad "--until-steady: t=$last_t $(cat "$tmp/err")"

# idle sweep: cache recovered against idle time; tiny-tlc folds at 40 MB/s
"$bin" run sim:tiny-tlc --plan idle-sweep --idle-list 2s,4s,8s,30s --burst 5s --trim-wait 2s --interval 20ms \
	-o "$tmp/sweep.h5" --quiet
rate=$("$bin" analyze --json "$tmp/sweep.h5" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["idle_recovery"]["fold_bps"])')
awk -v r="$rate" 'BEGIN{exit !(r > 40e6*0.85 && r < 40e6*1.15)}' && ok "idle sweep: folding $rate B/s (model 40 MB/s, 15%)" \
	|| bad "idle sweep: folding $rate B/s, model 40 MB/s"
"$bin" plot "$tmp/sweep.h5" --kind idle -o "$tmp/idle.svg" && grep -q '>idle time (seconds)<' "$tmp/idle.svg" \
	&& ok "idle-recovery chart" || bad "idle-recovery chart"

# TRIM responsiveness: tiny-dramless stalls reads 400 ms after a TRIM, then
# serves them 2.5x slower while it processes the range at 1 GB/s
"$bin" run sim:tiny-dramless --plan trim-response --trim-bytes 1GiB --trim-wait 1s -o "$tmp/tr.h5" --quiet
"$bin" analyze --json "$tmp/tr.h5" | /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)["trim_response"][0]
ok = 0.3 <= r["stall_s"] <= 0.5 and 0.3 <= r["slow_frac"] <= 0.5 and 0.5 <= r["slow_s"] <= 0.9 and r["recovered"]
print(r); sys.exit(0 if ok else 1)' >"$tmp/tr.out" && ok "trim response: $(cat "$tmp/tr.out")" || bad "trim response: $(cat "$tmp/tr.out")"

# a small drive runs the plan with its defaults: the range is 32 GB or a
# quarter of the drive, whichever is less
"$bin" run sim:tiny-tlc --plan trim-response -o "$tmp/trs.h5" --quiet 2>"$tmp/trs.err" \
	&& "$bin" analyze --json "$tmp/trs.h5" | /usr/bin/python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["trim_response"] else 1)' \
	&& ok "trim-response on sim:tiny-tlc with the defaults" || bad "trim-response on sim:tiny-tlc: $(cat "$tmp/trs.err")"

# the experiments' figures reach the report too
"$bin" report "$tmp/tr.h5" -o "$tmp/trrep" --quiet && grep -q '^reads after the TRIM' "$tmp/trrep/summary.md" \
	&& grep -q 'reads after the TRIM' "$tmp/trrep/index.html" && grep -q '"trim_response"' "$tmp/trrep/phases.json" \
	&& ok "TRIM response in the report" || bad "TRIM response missing from the report"

# fill levels: tiny-qlc2's dynamic cache shrinks as the drive fills and comes back after a TRIM
"$bin" run sim:tiny-qlc2 --plan fill-levels --burst 10s --trim-wait 30s --interval 20ms -o "$tmp/fl.h5" --quiet
"$bin" analyze "$tmp/fl.h5" >"$tmp/fl.txt"
/usr/bin/python3 - "$tmp/fl.txt" <<'PY' && ok "fill levels: $(grep 'cache by fill level' "$tmp/fl.txt")" || bad "fill levels: $(grep 'cache by fill level' "$tmp/fl.txt")"
import re, sys
line = [l for l in open(sys.argv[1]) if l.startswith("cache by fill level")][0]
def mb(v):
    if v.strip() == "none": return 0.0
    n, u = v.split()
    return float(n) * {"kB": 1e-3, "MB": 1, "GB": 1e3}[u]
vals = dict((k.strip(), mb(v)) for k, v in re.findall(r"([^:;]+?) (?:at least )?([\d.]+ [kMG]B|none);", line.split(":", 1)[1]))
sys.exit(0 if vals["25%"] > vals["50%"] >= vals["75%"] >= vals["90%"] and vals["after TRIM"] > 2 * vals["50%"] else 1)
PY

# compressibility: the compressing preset writes repeating data about twice as fast
"$bin" run sim:sata120-sf --plan compress --burst 10s --trim-wait 1s -o "$tmp/cp.h5" --quiet
ratio=$("$bin" analyze "$tmp/cp.h5" | sed -n 's/^compressibility: .*: \([0-9.]*\)x$/\1/p')
awk -v r="$ratio" 'BEGIN{exit !(r >= 1.8 && r <= 2.3)}' && ok "compressibility ratio ${ratio}x" || bad "compressibility ratio '$ratio'"
jr=$("$bin" analyze --json "$tmp/cp.h5" | /usr/bin/python3 -c 'import json,sys; print(round(json.load(sys.stdin)["compressibility"]["ratio"], 2))')
[ "$jr" = "$ratio" ] && ok "compressibility in the JSON" || bad "JSON ratio $jr, text $ratio"
n=$("$bin" analyze --json "$tmp/fl.h5" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["fill_levels"]))')
[ "$n" = 5 ] && ok "fill levels in the JSON" || bad "fill levels in the JSON: $n"

# SNIA host idle recovery: five wait states, each its rounds in one segment;
# tiny-tlc folds its cache while it waits, so the write windows run faster
# than the saturated drive right after a saturating burst
"$bin" run sim:tiny-tlc --plan hir --hir-rounds 6 --burst 10s --trim-wait 1s --interval 100ms -o "$tmp/hir.h5" --quiet
"$bin" analyze --json "$tmp/hir.h5" | /usr/bin/python3 -c '
import json, sys
h = json.load(sys.stdin)["host_idle_recovery"]
print([(p["wait_s"], round(p["iops"])) for p in h])
sys.exit(0 if [p["wait_s"] for p in h] == [5, 10, 15, 25, 50] and all(p["iops"] > 15000 for p in h) else 1)' >"$tmp/hir.out" \
	&& ok "host idle recovery: $(cat "$tmp/hir.out")" || bad "host idle recovery: $(cat "$tmp/hir.out")"
[ "$("$bin" export "$tmp/hir.h5" --csv | grep -c '^# segment .*workload=rand_write_duty')" = 5 ] \
	&& ok "one segment per wait state" || bad "wait-state segments"

# null target: the engine alone
"$bin" run null:1GB --plan rand --rand-time 1s --trim-wait 0 -o "$tmp/null.h5" --quiet \
	&& [ "$(samples "$tmp/null.h5")" -ge 1 ] && ok "null target" || bad "null target"

# regular file, created with --size, O_DIRECT through io_uring
if "$bin" run "$tmp/f.img" --size 64MiB --plan seq --trim-wait 0 -o "$tmp/file.h5" --quiet; then
	last=$("$bin" export "$tmp/file.h5" --csv | grep -v '^#' | tail -1 | cut -d, -f4)
	[ "$last" = 67108864 ] && ok "file target: one capacity written" || bad "file target wrote $last bytes"
else
	bad "file target failed"
fi
"$bin" run "$tmp/missing.img" --plan seq -o "$tmp/x.h5" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "no such file (give --size" "$tmp/err" && ok "missing file refused" || bad "missing file: rc $rc $(cat "$tmp/err")"

# dry run: the plan and what would be destroyed, nothing written
"$bin" run sim:tiny-tlc -n >"$tmp/dry" && grep -q '^  4. rand_curve ' "$tmp/dry" && ok "dry run prints the plan" || bad "dry run"
"$bin" run "$tmp/new.img" --size 1GiB -n >"$tmp/dry" && grep -q '^creates: ' "$tmp/dry" && [ ! -e "$tmp/new.img" ] \
	&& ok "dry run creates nothing" || bad "dry run on a new file"

# usage errors: one line of reason, exit 2
"$bin" run sim:tiny-tlc 2>"$tmp/err"; [ $? = 2 ] && grep -q 'needs -o FILE.h5' "$tmp/err" && ok "missing -o" || bad "missing -o"
"$bin" run sim:tiny-tlc -o "$tmp/x.h5" --plan nope 2>"$tmp/err"; [ $? = 2 ] && grep -q "unknown plan 'nope'" "$tmp/err" && ok "bad plan" || bad "bad plan"
"$bin" run sim:tiny-tlc -o "$tmp/x.h5" --rand-time 2fortnights 2>"$tmp/err"; [ $? = 2 ] && grep -q 'unknown duration unit' "$tmp/err" && ok "bad duration" || bad "bad duration"
"$bin" run sim:tiny-tlc -o "$tmp/x.h5" --seq-bytes 1.5.5G 2>"$tmp/err"; [ $? = 2 ] && ok "bad size" || bad "bad size"
"$bin" run sim:tiny-tlc -o "$tmp/x.h5" --qd 16 --reap-batch 17 2>"$tmp/err"; [ $? = 2 ] && grep -q 'reap-batch 17 is over the 16 commands' "$tmp/err" && ok "reap batch over the queue" || bad "reap batch over the queue: $(cat "$tmp/err")"
"$bin" run sim:tiny-tlc -o "$tmp/x.h5" --reap-batch 0 2>"$tmp/err"; [ $? = 2 ] && ok "reap batch 0" || bad "reap batch 0"
"$bin" run sim:nosuch -o "$tmp/x.h5" 2>"$tmp/err"; [ $? = 1 ] && grep -q "no simulated drive preset 'nosuch'" "$tmp/err" && ok "unknown preset" || bad "unknown preset"
"$bin" run null:12 -o "$tmp/x.h5" 2>"$tmp/err"; [ $? = 2 ] && grep -q 'at least 4k' "$tmp/err" && ok "tiny null" || bad "tiny null: $(cat "$tmp/err")"

# Ctrl-C during a long TRIM wait (real clock): noticed within the wait's
# 200 ms slices, not when the minute is over
rm -f "$tmp/w.h5"
start=$(date +%s)
"$bin" run "$tmp/wait.img" --size 64MiB --plan seq --trim-wait 60s -o "$tmp/w.h5" --quiet --no-probe 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid; rc=$?
took=$(( $(date +%s) - start ))
[ $rc = 130 ] && [ $took -lt 15 ] && ok "Ctrl-C in a TRIM wait: exit 130 after ${took} s" \
	|| bad "Ctrl-C in a TRIM wait: exit $rc after ${took} s: $(cat "$tmp/err")"

# Ctrl-C and SIGTERM mid-run: exit 130 / 143, the trace keeps what was sampled
for sig in INT TERM; do
	rm -f "$tmp/int.h5"
	"$bin" run sim:sata240-tlc --plan rand --trim-wait 0 -o "$tmp/int.h5" --quiet 2>"$tmp/err" &
	pid=$!
	# wait until the run writes its trace, then let it sample a little
	for _ in $(seq 1 600); do [ -s "$tmp/int.h5" ] && break; sleep 0.1; done
	sleep 2
	kill -$sig $pid
	wait $pid; rc=$?
	want=$([ $sig = INT ] && echo 130 || echo 143)
	if [ $rc = "$want" ] && grep -q "interrupted by SIG$sig during step rand_curve" "$tmp/err"; then
		n=$(samples "$tmp/int.h5")
		[ "$n" -ge 10 ] && ok "SIG$sig: exit $rc, trace readable with $n samples" || bad "SIG$sig: only $n samples readable"
	else
		bad "SIG$sig: exit $rc, stderr: $(cat "$tmp/err")"
	fi
done

# with a writer thread per job the samples go on through a stop; the
# analysis leaves out those the recorded pause covers: no stall phase, and
# no phase with the stop's empty intervals in its speeds (p5 of 0).  (The
# null target's speed after the stop is the host's, and may differ.)
"$bin" run null:1GB --plan rand --rand-time 3s --trim-wait 0 --jobs 2 --interval 100ms -o "$tmp/jpause.h5" \
	2>"$tmp/jpause.err" &
pid=$!
for _ in $(seq 1 100); do grep -q "1/2 trim" "$tmp/jpause.err" 2>/dev/null && break; sleep 0.05; done
sleep 1
kill -STOP $pid; sleep 2; kill -CONT $pid
wait $pid; rc=$?
kinds=$("$bin" analyze --json "$tmp/jpause.h5" | /usr/bin/python3 -c '
import json, sys
print(" ".join("%s(p5 %s)" % (p["kind"], "0" if not p["p5_bps"] else ">0")
               for s in json.load(sys.stdin)["segments"] for p in s["phases"]))')
if [ $rc = 0 ] && [ -n "$kinds" ] && ! echo "$kinds" | grep -qE "stall|p5 0"; then
	ok "SIGSTOP with 2 jobs: the stop is no phase: $kinds"
else
	bad "SIGSTOP with 2 jobs: exit $rc, phases: $kinds $(cat "$tmp/jpause.err")"
fi

# a stopped process (SIGSTOP for 2 s) is the host's pause, not a drive stall:
# a host_pause event of about 2 s, no sample without I/O over it, the
# samples jumping over it, the random curve's 3 s extended by it.  On the
# null target: a file's writes on a disk other tests keep busy can take a
# whole sample after the stop, which is the disk's doing, not the pause's.
"$bin" run null:256MiB --plan rand --rand-time 3s --trim-wait 0 --interval 100ms --no-probe \
	-o "$tmp/pause.h5" 2>"$tmp/pause.err" &
pid=$!
for _ in $(seq 1 100); do grep -q "1/2 trim" "$tmp/pause.err" 2>/dev/null && break; sleep 0.05; done
sleep 1
kill -STOP $pid; sleep 2; kill -CONT $pid
wait $pid; rc=$?
"$bin" export "$tmp/pause.h5" --json >"$tmp/pause.json" 2>&1
if [ $rc = 0 ] && /usr/bin/python3 - "$tmp/pause.json" >"$tmp/pause.out" <<'PY'
import json, sys
seg = json.load(open(sys.argv[1]))["segments"][-1]
ev = [e for e in seg["events"] if e["kind"] == "host_pause"]
pauses = [e["value"] for e in ev]
s = seg["samples"]
gaps = [b - a for a, b in zip(s["t_s"], s["t_s"][1:])]
# no sample without I/O over the stop or next to it (a file system that
# stalls the first writes to a fresh file on a loaded disk is another matter)
near = [t for t, n in zip(s["t_s"], s["ios"]) if n == 0 and ev and
        ev[0]["t_s"] - 0.15 <= t <= ev[0]["t_s"] + ev[0]["value"] + 0.25]
print("pauses", pauses, "largest step between samples %.2f s" % max(gaps),
      "samples without I/O near the stop", len(near), "last t_s %.2f" % s["t_s"][-1])
sys.exit(not (len(pauses) == 1 and 1.8 < pauses[0] < 3 and 1.8 < max(gaps) < 3.1
              and not near and s["t_s"][-1] > 4.5))
PY
then
	ok "SIGSTOP: a host pause, not a stall: $(cat "$tmp/pause.out"); $(grep -o 'the process was stopped.*' "$tmp/pause.err")"
else
	bad "SIGSTOP: exit $rc: $(cat "$tmp/pause.out" "$tmp/pause.err")"
fi
# the analysis leaves the pause out of the speeds: the longest phase's mean
# (its bytes over its time) near its median sample, not 2 s of nothing lower
"$bin" analyze --json "$tmp/pause.h5" | /usr/bin/python3 -c '
import json, sys
seg = json.load(sys.stdin)["segments"][-1]
p = max(seg["phases"], key=lambda p: p["end_s"] - p["start_s"])
r = p["mean_bps"] / p["median_bps"]
print("phase %s %.1f-%.1f s: mean/median %.2f" % (p["label"], p["start_s"], p["end_s"], r))
sys.exit(not 0.75 < r < 1.33)' >"$tmp/pause.an" 2>&1 \
	&& ok "SIGSTOP: analysis: $(cat "$tmp/pause.an")" || bad "SIGSTOP: analysis: $(cat "$tmp/pause.an")"

echo "$passes passed, $fails failed"
[ $fails = 0 ]

#!/bin/bash
# The writer's CPU in the trace and host-bound phases: on the null target
# (no I/O: the writer thread is the limit) one job's curve is host-bound in
# phases.json, the console, the report and run's closing note, and the
# trace's writer_cpu is a share of one core; the note suggests as many
# jobs (a writer thread each) as the host has cores, and with that many
# says the host is the limit; a simulated drive's (virtual clock) is
# unknown and never host-bound; a trace without the columns (written
# before them) loads, unknown and not host-bound.
set -u
SLC=$1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
PY=/usr/bin/python3
fail() { echo "FAIL: $*"; exit 1; }

"$SLC" run null:2GiB --plan rand --rand-time 4s --interval 500ms --trim-wait 0 --jobs 1 \
	-o "$D/n.h5" -r "$D/rep" 2> "$D/n.err" || fail "null run: $(cat "$D/n.err")"
grep -q '^slcscope run: note: .*host-bound: the busiest writer thread used [0-9]*% of a core.*not the drive' \
	"$D/n.err" || fail "no host-bound note at the end of run: $(tail -3 "$D/n.err")"
cores=$(getconf _NPROCESSORS_ONLN)
want=$cores; [ "$want" -gt 64 ] && want=64
qd=""; [ $((want * 32)) -gt 256 ] && qd=" --qd $((256 / want))"   # 256 commands in flight at most
if [ "$cores" -gt 1 ]; then
	grep -q -- "; 1 writer thread on [0-9]* cores: try --jobs $want$qd (a thread per job)" "$D/n.err" ||
		fail "the note does not suggest --jobs $want$qd: $(tail -1 "$D/n.err")"
fi
# a queue deeper than 128 with one job: more threads, each a share of the commands
"$SLC" run null:1GiB --plan rand --rand-time 2s --trim-wait 0 --qd 200 -o "$D/q.h5" 2> "$D/q.err" ||
	fail "null run, --qd 200: $(cat "$D/q.err")"
if [ "$cores" -gt 1 ] && grep -q "host-bound" "$D/q.err"; then
	grep -q -- "try --jobs $want --qd $((256 / want)) (a thread per job)" "$D/q.err" ||
		fail "--qd 200: the note does not suggest --jobs $want --qd $((256 / want)): $(tail -1 "$D/q.err")"
fi
[ "$cores" -gt 8 ] && cores=8        # --qd 32: 8 jobs are the 256 commands in flight
# as many writer threads as cores: still host-bound, and the host is the limit
"$SLC" run null:2GiB --plan rand --rand-time 2s --interval 500ms --trim-wait 0 --jobs "$cores" \
	-o "$D/c.h5" 2> "$D/c.err" || fail "null run, $cores jobs: $(cat "$D/c.err")"
grep -q "host-bound: the busiest writer thread used .*; $cores writer threads\? on [0-9]* cores: the host is the limit" \
	"$D/c.err" || fail "with $cores jobs the note does not say the host is the limit: $(tail -1 "$D/c.err")"
"$SLC" analyze --json "$D/n.h5" > "$D/n.json" || fail "analyze --json"
"$SLC" export --json "$D/n.h5" > "$D/ne.json" || fail "export --json"
$PY - "$D/n.json" "$D/ne.json" "$D/rep/phases.json" <<'PYEOF' || fail "null target: trace or phases"
import json, math, sys
doc, exp, rep = (json.load(open(p)) for p in sys.argv[1:4])
curve = [s for s in exp["segments"] if s["params"]["step"] == "rand_curve"]
assert len(curve) == 1, [s["params"]["step"] for s in exp["segments"]]
cpu, wait = curve[0]["samples"]["writer_cpu"], curve[0]["samples"]["writer_wait"]
assert len(cpu) >= 6 and None not in cpu, cpu
# one thread's share of a core: never more than one core and a little clock skew
assert all(0 <= c <= 1.1 for c in cpu), cpu
# busy all the time: on a core, or waiting for one when the host is shared
busy = [c + (w if w is not None else 0) >= 0.9 for c, w in zip(cpu, wait)]
assert sum(busy) * 2 > len(busy), (cpu, wait)
for d in (doc, rep):
    ph = [p for s in d["segments"] if s["step"] == "rand_curve" for p in s["phases"]]
    assert ph and any(p["host_bound"] is True for p in ph), ph
    for p in ph:
        assert p["host_bound"] is False or 0.0 < p["writer_cpu"] <= 1.1, p
PYEOF
"$SLC" analyze "$D/n.h5" | grep -q '^  [a-z_ ]* [0-9.]*-[0-9.]* s: host-bound: the busiest writer thread used' ||
	fail "the console phase table does not say host-bound"
grep -q 'host-bound: the busiest writer thread used' "$D/rep/summary.md" || fail "the report does not say host-bound"

"$SLC" run sim:tiny-tlc --plan seq --seq-bytes 256MiB --interval 100ms --trim-wait 0 -o "$D/s.h5" 2> "$D/s.err" ||
	fail "sim run: $(cat "$D/s.err")"
grep -q 'host-bound' "$D/s.err" && fail "a simulated drive was called host-bound"
"$SLC" analyze --json "$D/s.h5" > "$D/s.json" || fail "analyze --json sim"
"$SLC" export --json "$D/s.h5" > "$D/se.json" || fail "export --json sim"
$PY - "$D/s.json" "$D/se.json" <<'PYEOF' || fail "simulated drive: CPU not unknown"
import json, sys
doc, exp = (json.load(open(p)) for p in sys.argv[1:3])
for s in exp["segments"]:
    assert all(c is None for c in s["samples"]["writer_cpu"] + s["samples"]["writer_wait"]), s["params"]
for s in doc["segments"]:
    for p in s["phases"]:
        assert p["host_bound"] is False and p["writer_cpu"] is None, p
PYEOF

# more writer threads than cores, sampled often: a thread's CPU and its wait
# for one are shares of the same interval, so never more than all of it
"$SLC" run null:1GB --plan rand --rand-time 2s --trim-wait 0 --jobs 8 --qd 8 --interval 10ms --quiet \
	-o "$D/w8.h5" 2>/dev/null || fail "run --jobs 8 on null:"
"$SLC" export --json "$D/w8.h5" > "$D/w8.json" || fail "export of the 8-job trace"
$PY - "$D/w8.json" <<'PYEOF' || fail "writer_cpu + writer_wait over 1"
import json, sys
s = json.load(open(sys.argv[1]))["segments"][-1]["samples"]
both = [c + w for c, w in zip(s["writer_cpu"], s["writer_wait"]) if c is not None and w is not None]
assert both and max(both) <= 1.0 + 1e-9 and min(both) >= 0, (max(both), len(both))
PYEOF

# a trace from before the columns: the null trace without them
cp "$D/n.h5" "$D/old.h5"
$PY - "$D/old.h5" <<'PYEOF' || fail "cannot remove the columns with h5py"
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    for g in f["segments"].values():
        for c in ("writer_cpu", "writer_wait"):
            if c in g:
                del g[c]
PYEOF
"$SLC" analyze --json "$D/old.h5" > "$D/o.json" || fail "a trace without the columns does not load"
"$SLC" export --csv "$D/old.h5" > "$D/o.csv" || fail "export --csv of a trace without the columns"
$PY - "$D/o.json" "$D/o.csv" <<'PYEOF' || fail "a trace without the columns"
import csv, json, sys
doc = json.load(open(sys.argv[1]))
ph = [p for s in doc["segments"] for p in s["phases"]]
assert ph and all(p["host_bound"] is False and p["writer_cpu"] is None for p in ph), ph
rows = list(csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")))
assert rows and all(r["writer_cpu"] == "" and r["writer_wait"] == "" for r in rows), rows[:2]
PYEOF
echo ok

#!/bin/bash
# Sweep plans on a small simulated drive: the trace's segments (roles,
# parameters, reads and writes apart), the analyze sweep table (text and
# JSON keys and units), a mix's read share, a trace written before the
# reads' columns still loading, and bad options refused in one line.
set -u
SLC=$1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
PY=/usr/bin/python3
fail() { echo "FAIL: $*"; exit 1; }

"$SLC" run sim:tiny-tlc --plan qd-sweep --step-time 200ms --trim-wait 1s -o "$D/q.h5" --quiet ||
	fail "qd-sweep run"
"$SLC" analyze "$D/q.h5" > "$D/q.txt" || fail "analyze"
grep -q '^sweep: 12 points (throughput in MB/s, IOPS in commands/s, latency in us)' "$D/q.txt" ||
	fail "no sweep table header: $(head -5 "$D/q.txt")"
grep -q 'rand_write_4k_qd32 *rand_write *4 KiB *32 ' "$D/q.txt" || fail "no QD32 write row"
grep -q '^  start: each point began after a TRIM of everything, its region written and 1 s idle$' "$D/q.txt" ||
	fail "the table does not say how the points began: $(head -3 "$D/q.txt")"
"$SLC" analyze --binary "$D/q.h5" | grep -q 'throughput in MiB/s' || fail "--binary table not in MiB/s"
"$SLC" analyze --json "$D/q.h5" > "$D/q.json" || fail "analyze --json"
"$SLC" export --json "$D/q.h5" > "$D/qe.json" || fail "export --json"
$PY - "$D/q.json" "$D/qe.json" <<'PYEOF' || fail "qd-sweep JSON"
import json, math, sys
doc = json.load(open(sys.argv[1]))
exp = json.load(open(sys.argv[2]))
sw = doc["sweep"]
keys = ["workload", "block_bytes", "qd", "jobs", "read_pct", "read_bps", "write_bps", "read_iops",
        "write_iops", "lat_mean_us", "lat_p99_us", "read_state", "duration_s", "read_ios", "write_ios"]
assert len(sw) == 12, len(sw)
for p in sw:
    for k in keys:
        assert k in p, (k, p)
got = sorted((p["workload"], p["qd"]) for p in sw)
want = sorted((w, q) for w in ("rand_read", "rand_write") for q in (1, 2, 4, 8, 16, 32))
assert got == want, got
for p in sw:
    assert p["block_bytes"] == 4096 and p["jobs"] == 1, p
    # each began from its own TRIM, region write and settle (the TRIM wait)
    assert p["start"] == "trim" and p["settle_s"] == 1, p
    d = p["duration_s"]
    assert 0.15 < d < 0.4, d
    # units: bytes/s and commands/s over the point's length
    assert abs(p["read_bps"] - p["read_bytes"] / d) <= 1e-6 * max(1, p["read_bps"]), p
    assert abs(p["write_iops"] - p["write_ios"] / d) <= 1e-6 * max(1, p["write_iops"]), p
    assert p["lat_mean_us"] > 0 and p["lat_p99_us"] > 0, p
    if p["workload"] == "rand_read":
        # reads apart from writes, and found in the region the plan wrote
        assert p["read_pct"] == 100 and p["write_bytes"] == 0 and p["write_ios"] == 0, p
        assert p["read_ios"] > 0 and p["read_bytes"] == 4096 * p["read_ios"], p
        assert p["read_state"] == "written", p
        assert p["write_lat_mean_us"] is None and p["read_lat_mean_us"] > 0, p
    else:
        assert p["read_pct"] == 0 and p["read_bytes"] == 0 and p["write_ios"] > 0, p
        assert p["read_lat_p99_us"] is None and p["write_lat_p99_us"] > 0, p
# sweep points and their preparation are not analysed as write curves
assert doc["segments"] == [], \
    [s["step"] for s in doc["segments"]]
roles = [s["params"]["role"] for s in exp["segments"]]
# each point from its own state: TRIM, the region written, the settle (as
# long as the TRIM wait, 1 s here)
assert roles == ["trim", "sweep_prep", "settle", "sweep"] * 12, roles
for s in exp["segments"]:
    if s["params"]["role"] == "sweep":
        assert s["params"]["idle_before_s"] == 1, s["params"]
for s in exp["segments"][3::4]:
    c = s["samples"]
    assert len(c["read_bytes_total"]) == s["n_samples"] > 0
    assert all(r <= b for r, b in zip(c["read_bytes_total"], c["bytes_total"]))
    assert s["params"]["queue_depth"] in (1, 2, 4, 8, 16, 32)
    # the exported speeds are each direction's alone
    rd = sum(x * t for x, t in zip(c["read_bytes_per_s"], c["interval_s"]))
    wr = sum(x * t for x, t in zip(c["write_bytes_per_s"], c["interval_s"]))
    assert abs(rd - c["read_bytes_total"][-1]) <= 1 + 1e-9 * rd, (rd, c["read_bytes_total"][-1])
    assert abs(rd + wr - c["bytes_total"][-1]) <= 1 + 1e-9 * (rd + wr), s["params"]["workload"]
    assert (wr == 0) == (s["params"]["workload"] == "rand_read"), (wr, s["params"]["workload"])
PYEOF
# ... and in the CSV: a read point's rows read, none written
"$SLC" export --csv "$D/q.h5" > "$D/q.csv" || fail "export --csv"
$PY - "$D/q.csv" <<'PYEOF' || fail "export --csv read columns"
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
seg = {}
for r in rows:
    seg.setdefault(r["segment"], []).append(r)
reads = [s for s in seg.values() if sum(float(r["read_bytes_per_s"]) for r in s) > 0]
assert len(reads) == 6, len(reads)
for s in reads:
    assert all(float(r["write_bytes_per_s"]) == 0 for r in s)
    assert int(s[-1]["read_bytes_total"]) == int(s[-1]["bytes_total"]) and int(s[-1]["read_ios"]) > 0
PYEOF

# A mix: the share of reads as the point asked, within a tolerance.
"$SLC" run sim:tiny-tlc --plan mixed --step-time 200ms --trim-wait 1s -o "$D/m.h5" --quiet || fail "mixed run"
"$SLC" analyze --json "$D/m.h5" > "$D/m.json" || fail "analyze mixed"
$PY - "$D/m.json" <<'PYEOF' || fail "mixed JSON"
import json, sys
sw = json.load(open(sys.argv[1]))["sweep"]
assert len(sw) == 12, len(sw)
assert sorted({p["workload"] for p in sw}) == ["rand_mixed", "seq_mixed"]
assert sorted(p["read_pct"] for p in sw) == sorted([0, 20, 40, 60, 80, 100] * 2)
checked = 0
for p in sw:
    n = p["read_ios"] + p["write_ios"]
    share = p["read_ios"] / n
    if p["read_pct"] in (0, 100):
        assert share == p["read_pct"] / 100, p
    elif p["workload"] == "rand_mixed":
        assert n > 2000, p
        assert abs(share - p["read_pct"] / 100) < 0.05, (share, p)
        assert p["read_bps"] > 0 and p["write_bps"] > 0, p
        checked += 1
assert checked == 4, checked
PYEOF

# The graphs: a line per kind with a point per depth, 1-8 drives, units on the axes.
"$SLC" plot "$D/q.h5" -o "$D/qd.svg" --kind qd-sweep --layout-json "$D/l.json" || fail "plot qd-sweep"
$PY -c 'import json,sys; l=json.load(open(sys.argv[1])); assert [s["points"] for s in l["series"]] == [6, 6], l["series"]' \
	"$D/l.json" || fail "qd-sweep graph: not two lines of six points"
grep -q 'queue depth (log2 axis)' "$D/qd.svg" && grep -q '>32<' "$D/qd.svg" || fail "qd-sweep graph axis"
"$SLC" plot "$D/q.h5" "$D/q.h5" --label A --label B -o "$D/qd2.png" --kind qd-sweep --layout-json "$D/l.json" ||
	fail "plot qd-sweep of two drives"
$PY -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["series"]) == 4' "$D/l.json" || fail "two drives: not 4 lines"
"$SLC" plot "$D/m.h5" -o "$D/mix.svg" --kind mixed --binary || fail "plot mixed"
grep -q 'throughput (MiB/s)' "$D/mix.svg" && grep -q 'reads (% of the commands)' "$D/mix.svg" || fail "mixed graph axes"
"$SLC" plot "$D/m.h5" -o "$D/x.png" --kind qd-sweep 2> "$D/err" && fail "a mix drawn as a queue depth sweep"
[ "$(wc -l < "$D/err")" -eq 1 ] && grep -q 'run --plan qd-sweep' "$D/err" || fail "no qd points: $(cat "$D/err")"

# The report of a sweep alone: its table, sweep.csv, its graph and no other.
"$SLC" report "$D/q.h5" -o "$D/rep" > /dev/null 2>&1 || fail "report of a sweep"
[ "$(wc -l < "$D/rep/sweep.csv")" -eq 13 ] && head -1 "$D/rep/sweep.csv" | grep -q '^segment,step,group,workload,block_bytes,qd' ||
	fail "sweep.csv: $(head -2 "$D/rep/sweep.csv")"
grep -q '^## Sweeps' "$D/rep/summary.md" && grep -q '| read MB/s | write MB/s | read IOPS |' "$D/rep/summary.md" ||
	fail "summary.md: no sweep table"
[ -s "$D/rep/qd-sweep.svg" ] && [ ! -e "$D/rep/bs-sweep.svg" ] && [ ! -e "$D/rep/mixed.svg" ] ||
	fail "report graphs: $(ls "$D/rep")"

# The other plans run and tabulate: every point a row, the short tests' sizes.
"$SLC" run sim:tiny-tlc --plan bs-sweep --step-time 100ms --trim-wait 1s -o "$D/b.h5" --quiet || fail "bs-sweep run"
"$SLC" analyze --json "$D/b.h5" | $PY -c '
import json, sys
sw = json.load(sys.stdin)["sweep"]
bs = sorted((p["workload"], p["block_bytes"]) for p in sw)
want = sorted([(w, 512 << k) for w in ("rand_read", "rand_write") for k in range(10)] +
              [(w, 512 << k) for w in ("seq_read", "seq_write") for k in range(13)])
assert bs == want, bs
assert all(p["qd"] == 4 for p in sw)' || fail "bs-sweep table"
"$SLC" plot "$D/b.h5" -o "$D/bs.svg" --kind bs-sweep || fail "plot bs-sweep"
grep -q '>2M<' "$D/bs.svg" && grep -q '>512<' "$D/bs.svg" || fail "bs-sweep graph: no 512 to 2M axis"
"$SLC" run sim:tiny-tlc --plan short --step-time 100ms -o "$D/s.h5" --quiet || fail "short run"
"$SLC" analyze "$D/s.h5" | grep -c '^  \(seq1m_q8t1\|seq128k_q32t1\|rnd4k_q32t1\|rnd4k_q1t1\)_\(read\|write\) ' |
	grep -qx 8 || fail "short: not 8 rows"
"$SLC" run sim:tiny-tlc --plan basic --step-time 100ms --trim-wait 1s -o "$D/ba.h5" --quiet || fail "basic run"
"$SLC" analyze --json "$D/ba.h5" | $PY -c '
import json, sys
sw = json.load(sys.stdin)["sweep"]
assert [(p["workload"], p["block_bytes"], p["qd"]) for p in sw] == [
    ("seq_read", 262144, 1), ("rand_read", 4096, 1), ("rand_read", 4096, 4),
    ("seq_write", 262144, 1), ("rand_write", 4096, 1), ("rand_write", 4096, 4)], sw' || fail "basic table"

# From the default state (a TRIM, the region written and a settle before
# every point) a deeper queue or a larger block writes no slower on the
# default simulated drive, whose 2.3 GB cache holds a point's 1 GiB: 4 KiB
# random writes over QD 1-32, sequential writes over 4 KiB-1 MiB, each point
# within 1% of the one before or above it (at the drive's limit the points
# differ by its noise only).  Run back to back, the cache runs out halfway
# through the sweep and this fails.
"$SLC" run sim: --plan qd-sweep --step-time 5s -o "$D/mq.h5" --quiet || fail "qd-sweep on sim:"
"$SLC" run sim: --plan bs-sweep --step-time 5s -o "$D/mb.h5" --quiet \
	--points seq_write_4k,seq_write_8k,seq_write_16k,seq_write_32k,seq_write_64k,seq_write_128k,seq_write_256k,seq_write_512k,seq_write_1m ||
	fail "bs-sweep on sim:"
for f in mq mb; do "$SLC" analyze --json "$D/$f.h5" > "$D/$f.json" || fail "analyze $f"; done
$PY - "$D/mq.json" "$D/mb.json" <<'PYEOF' || fail "sweeps from a defined state do not rise"
import json, sys
def rising(name, pts, key):
    v = [p[key] for p in pts]
    assert len(v) >= 6 and all(b >= a * 0.99 for a, b in zip(v, v[1:])), (name, v)
    assert v[-1] > 1.5 * v[0], (name, v)   # and it does rise
q = [p for p in json.load(open(sys.argv[1]))["sweep"] if p["workload"] == "rand_write"]
assert [p["qd"] for p in q] == [1, 2, 4, 8, 16, 32], q
rising("write IOPS by queue depth", q, "write_iops")
# the reads find the region written, and a deeper queue reads no slower
r = [p for p in json.load(open(sys.argv[1]))["sweep"] if p["workload"] == "rand_read"]
assert all(p["read_state"] == "written" for p in r), r
rising("read IOPS by queue depth", r, "read_iops")
b = json.load(open(sys.argv[2]))["sweep"]
assert [p["block_bytes"] for p in b] == [4096 << k for k in range(9)], b
rising("sequential write MB/s by block size", b, "write_bps")
PYEOF

# Every sweep plan lists its steps and its time without running.
for plan in qd-sweep bs-sweep mixed basic short; do
	"$SLC" run sim:tiny-tlc --plan $plan -n > "$D/n.txt" || fail "-n --plan $plan"
	grep -q '^time: ' "$D/n.txt" || fail "$plan: no time in the dry run"
done
"$SLC" run sim:tiny-tlc --plan bs-sweep -n | grep -q 'sequential read 2 MiB QD4, 30.0 s' || fail "bs-sweep: no 2 MiB read"
"$SLC" run sim:tiny-tlc --plan short -n | grep -q 'mostly measure the SLC cache' || fail "short: no SLC cache note"

# A trace from before the reads' columns: loads unchanged, no sweep table.
OLD=$(dirname "$0")/../../testdata/fuzz/trace/seed_run_seq_h5
"$SLC" export --json "$OLD" > "$D/old.json" || fail "old trace does not load"
$PY - "$D/old.json" <<'PYEOF' || fail "old trace read"
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["segments"]:
    assert s["params"]["read_pct"] == 0 and s["params"]["read_state"] == "", s["params"]
    assert all(v == 0 for v in s["samples"]["read_bytes_total"])
PYEOF
"$SLC" analyze --json "$OLD" | $PY -c 'import json,sys; d=json.load(sys.stdin); assert "sweep" not in d and d["segments"]' ||
	fail "old trace analysis"

# Bad options: exit 2, the reason in one line (and where the help is).
for bad in "--step-time 1ms" "--step-time x" "--region 0" "--plan nope" "--plan qd-sweep --points nope" \
	"--plan seq --points x"; do
	"$SLC" run sim:tiny-tlc $bad -n > /dev/null 2> "$D/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$bad: exit $rc"
	head -1 "$D/err" | grep -q '^slcscope run: --' || fail "$bad: $(cat "$D/err")"
	[ "$(grep -vc '^Try ' "$D/err")" -eq 1 ] || fail "$bad: $(cat "$D/err")"
done
# --points: only the points named run (and their fio job has only them, each
# after its own TRIM, region write and settle).
"$SLC" run sim:tiny-tlc --plan qd-sweep --points rand_read_4k_qd4,rand_write_4k_qd1 --step-time 50ms \
	--trim-wait 0 --region 64MiB -o "$D/pts.h5" --quiet || fail "--points run"
"$SLC" analyze --json "$D/pts.h5" | $PY -c 'import json,sys; sw=json.load(sys.stdin)["sweep"]; assert sorted(p["step"] for p in sw) == ["rand_read_4k_qd4", "rand_write_4k_qd1"], sw' ||
	fail "--points: not the two points"
truncate -s 96M "$D/fj.img"
"$SLC" run "$D/fj.img" --plan qd-sweep --points rand_read_4k_qd4 --region 32MiB --fio-job - 2>/dev/null |
	grep '^\[[0-9]' | sed 's/^\[[0-9]*-//; s/\]$//' | tr '\n' ' ' > "$D/sections"
grep -qx 'trim_rand_read_4k_qd4 trim_rand_read_4k_qd4-wait prep_rand_read_4k_qd4 settle_rand_read_4k_qd4 rand_read_4k_qd4 ' \
	"$D/sections" ||
	fail "--points: the fio job's sections: $(cat "$D/sections")"
"$SLC" run sim:tiny-tlc --plan qd-sweep --region 8GiB -n > /dev/null 2> "$D/err" && fail "a region past the target ran"
grep -q 'is larger than the target (4.29 GB): give a smaller --region' "$D/err" &&
	[ "$(grep -vc '^Try ' "$D/err")" -eq 1 ] || fail "region too large: $(cat "$D/err")"

# On a file (O_DIRECT in 4 KiB units): the block-size sweep leaves out its
# 512 B-2 KiB points and says so; the rest runs and is analysed.
truncate -s 96M "$D/f.img"
"$SLC" run "$D/f.img" --plan bs-sweep --region 32MiB --step-time 50ms --trim-wait 0 -o "$D/f.h5" --quiet \
	2> "$D/ferr" || fail "bs-sweep on a file: $(cat "$D/ferr")"
grep -q 'note: bs-sweep: 12 points of 512 B to 2 KiB left out: the target.s logical block is 4096 bytes' \
	"$D/ferr" || fail "no note of the points left out: $(cat "$D/ferr")"
"$SLC" analyze --json "$D/f.h5" | $PY -c 'import json,sys; sw=json.load(sys.stdin)["sweep"]; assert len(sw) == 34 and min(p["block_bytes"] for p in sw) == 4096, len(sw)' ||
	fail "bs-sweep on a file: not 34 points from 4 KiB"
# The paths that run nothing list what a run would: the dry run and the fio job
# leave the same points out, with the same note.
for how in "-n" "--fio-job -" "-n --size 96MiB" "--fio-job - --size 96MiB"; do
	case "$how" in *size*) tgt="$D/absent.img" ;; *) tgt="$D/f.img" ;; esac
	"$SLC" run "$tgt" --plan bs-sweep --region 32MiB $how > "$D/fout" 2> "$D/ferr" || fail "bs-sweep $how on a file"
	grep -q 'note: bs-sweep: 12 points of 512 B to 2 KiB left out' "$D/ferr" || fail "$how: no note: $(cat "$D/ferr")"
	! grep -Eq '^bs=(512|1024|2048)$|_(512|1k|2k)( |$|\])| 512 B | 1 KiB | 2 KiB ' "$D/fout" ||
		fail "$how on a file lists a point under 4 KiB: $(grep -E '512|1 KiB|2 KiB' "$D/fout" | head -3)"
done
"$SLC" run "$D/f.img" --plan basic -n > /dev/null 2> "$D/ferr" && fail "a 1 GiB region ran on a 96 MiB file"
grep -q 'give a smaller --region' "$D/ferr" || fail "region on a small file: $(cat "$D/ferr")"
# the point-state options from the command line: the steps they give, and a
# wrong word refused in one line before anything runs
"$SLC" run sim: --plan qd-sweep --sweep-state steady --precondition 1x -n > "$D/st" 2> "$D/ferr" || fail "--sweep-state steady -n"
grep -q 'precondition' "$D/st" && ! grep -q 'trim_rand_read_4k_qd2' "$D/st" || fail "steady: no preconditioning, or a TRIM per point"
"$SLC" run sim: --plan qd-sweep --settle 0 -n > "$D/st" 2> "$D/ferr" || fail "--settle 0 -n"
! grep -q 'settle_' "$D/st" && grep -q 'trim_rand_read_4k_qd2' "$D/st" || fail "--settle 0: settle steps left, or no TRIM per point"
"$SLC" run sim: --plan qd-sweep --sweep-state none -n > "$D/st" 2> "$D/ferr" || fail "--sweep-state none -n"
! grep -q 'trim_rand_read_4k_qd2' "$D/st" || fail "none: a TRIM per point"
"$SLC" run sim: --plan qd-sweep --sweep-state clean -o "$D/never.h5" 2> "$D/ferr"; rc=$?
[ $rc = 2 ] && [ ! -e "$D/never.h5" ] && grep -q -- '--sweep-state: trim, steady or none' "$D/ferr" ||
	fail "--sweep-state clean: rc $rc $(cat "$D/ferr")"
# a dry run of a file that does not exist, without --size, fails with its one line: no note first
"$SLC" run "$D/absent.img" --plan bs-sweep -n > /dev/null 2> "$D/ferr" && fail "a dry run of an absent file ran"
[ "$(wc -l < "$D/ferr")" -eq 1 ] && grep -q 'no such file (give --size' "$D/ferr" ||
	fail "absent file without --size: not one line: $(cat "$D/ferr")"
echo "ok"

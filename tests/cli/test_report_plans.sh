#!/usr/bin/env bash
# A report of a trace of every plan on a small simulated drive: each one
# written, with the drive, the test conditions and (for sweeps) the sweep
# table and its figure; a figure only where its experiment's data is (the
# recovery bars only with the lab's recovery bursts); each step named for
# what it did (a partial sequential write, reads); no latency plot for a
# log without latencies.
#   test_report_plans.sh SLCSCOPE SOURCE_DIR
set -u
bin=$1 src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-rplans.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
has() { grep -qF -- "$2" "$1"; }

fast=(--rand-time 60s --idle 20s --burst 5s --trim-wait 1s --interval 100ms --step-time 1s --region 64MiB
      --point-bytes 32MiB --idle-list 5s,30s --hir-rounds 3 --read-time 2s --quiet)
plans=$("$bin" run --help | awk '/^Plans/ { p = 1; next } p && /^  [a-z]/ { print $1 } p && /^$/ { exit }')
[ "$(echo "$plans" | wc -l)" -ge 13 ] || bad "fewer than 13 plans in run --help: $plans"
for p in $plans; do
	"$bin" run sim:tiny-tlc --plan "$p" -o "$tmp/$p.h5" "${fast[@]}" > "$tmp/$p.run" 2>&1 ||
		{ bad "$p: run: $(tail -2 "$tmp/$p.run")"; continue; }
	"$bin" report "$tmp/$p.h5" -o "$tmp/r-$p" > "$tmp/$p.rep" 2>&1 ||
		{ bad "$p: report: $(tail -2 "$tmp/$p.rep")"; continue; }
	md=$tmp/r-$p/summary.md
	for h in '## The drive' '## Test conditions' "Plan: $p."; do
		has "$md" "$h" || bad "$p: summary.md has no '$h'"
	done
	[ -s "$tmp/r-$p/index.html" ] || bad "$p: no index.html"
	case $p in
	qd-sweep | bs-sweep | mixed | basic | short)
		has "$md" '## Sweeps' || bad "$p: no sweep table"
		ls "$tmp/r-$p"/*.svg > /dev/null 2>&1 || bad "$p: no sweep figure"
		fig=$(ls "$tmp/r-$p"/*.png 2>/dev/null | head -1)
		[ -n "$fig" ] && has "$md" "]($(basename "$fig"))" || bad "$p: the sweep figure is not linked" ;;
	esac
	# the recovery bars set the lab's bursts after idle and after TRIM against the fresh drive
	if [ "$p" = lab ]; then
		[ -f "$tmp/r-$p/recovery.svg" ] || bad "lab: no recovery figure"
		has "$tmp/r-$p/recovery.svg" 'after idling without TRIM, after a TRIM of the whole drive' ||
			bad "lab: recovery subtitle"
	elif [ -e "$tmp/r-$p/recovery.svg" ] || has "$md" '](recovery.png)'; then
		bad "$p: a recovery figure without recovery bursts"
	fi
	ok "$p: report"
done

# trim-response writes twice the range it deletes, then reads
md=$tmp/r-trim-response/summary.md
if [ -f "$md" ]; then
	has "$md" 'Sequential fill of the whole drive' && bad "trim-response: its fill is called a whole-drive fill"
	has "$md" '| Sequential write of 2 GiB after a TRIM (128 KiB sequential writes, QD32) |' ||
		bad "trim-response: fill row: $(grep -n 'Sequential' "$md" | head -2)"
	has "$md" '| Reads before the TRIM (4 KiB random reads, QD32) |' || bad "trim-response: baseline read row"
	has "$md" '| Reads right after a TRIM (4 KiB random reads, QD32) |' || bad "trim-response: read row"
	has "$md" 'Write curve (4 KiB random reads' && bad "trim-response: reads called a write curve"
	ok "trim-response step words"
fi
md=$tmp/r-lab/summary.md
[ -f "$md" ] && { has "$md" '| Sequential fill of the whole drive (128 KiB sequential writes, QD32) |' ||
	bad "lab: the whole-drive fill row"; }
md=$tmp/r-fill-levels/summary.md
[ -f "$md" ] && { has "$md" '| Sequential fill to 25% full (128 KiB sequential writes, QD32) |' ||
	bad "fill-levels: fill row: $(grep -n '^| ' "$md" | sed -n 3p)"; }

# imported logs without latencies: no latency plot, none linked
for f in avg_bw.1.log t_ms_MBps.csv; do
	"$bin" report "$src/testdata/import/$f" -o "$tmp/i-$f" > "$tmp/i-$f.log" 2>&1 || { bad "$f: report"; continue; }
	ls "$tmp/i-$f" | grep -q '^curve-' || bad "$f: no curve figure"
	if ls "$tmp/i-$f" | grep -q latency || grep -qi 'latency' "$tmp/i-$f/summary.md" "$tmp/i-$f/index.html"; then
		bad "$f: a latency plot for a log without latencies"
	else
		ok "$f: no latency plot"
	fi
done

# a run stopped by Ctrl-C keeps its trace; the report says it was
# interrupted and how much of the plan ran, in the text, the page's title,
# the captions and the curves' subtitles
# (a 4 h random curve: about 10 s of the simulator's work, so that a loaded
# machine's polling still stops the run inside it; 30 min took under 2 s)
"$bin" run sim:tiny-tlc --plan lab -o "$tmp/int.h5" --idle 20s --burst 5s --trim-wait 1s --interval 100ms \
	--rand-time 4h --quiet 2> "$tmp/int.err" &
pid=$!
segs() { "$bin" export "$tmp/int.h5" --json 2>/dev/null |
	python3 -c 'import json, sys; print(len(json.load(sys.stdin)["segments"]))' 2>/dev/null || echo 0; }
for _ in $(seq 100); do [ "$(segs)" -ge 3 ] && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
st=$?
if [ "$st" != 130 ]; then
	bad "interrupted run: exit $st, not 130: $(tail -2 "$tmp/int.err")"
elif ! "$bin" report "$tmp/int.h5" -o "$tmp/r-int" > "$tmp/int.rep" 2>&1; then
	bad "report of an interrupted run: $(tail -2 "$tmp/int.rep")"
else
	n=$(segs)
	md=$tmp/r-int/summary.md
	has "$md" '## Run not complete' || bad "interrupted: no section in summary.md"
	has "$md" "The run was interrupted (Ctrl-C or SIGTERM): $n of 8 steps of its plan ran" ||
		bad "interrupted: no steps done/planned in summary.md: $(grep -n 'interrupted' "$md" | head -2)"
	has "$tmp/r-int/index.html" "The run was interrupted" || bad "interrupted: not in index.html"
	has "$tmp/r-int/index.html" "<title>Simulated 4 GiB TLC (tiny-tlc) (run interrupted: $n of 8 steps)</title>" ||
		bad "interrupted: page title: $(grep -o '<title>[^<]*' "$tmp/r-int/index.html" | head -1)"
	has "$md" ": write speed against data written (run interrupted: $n of 8 steps)*" ||
		bad "interrupted: no note in the curve's caption"
	has "$tmp/r-int/curve-1-seq_fill.svg" "run interrupted: $n of 8 steps" || bad "interrupted: no note in the subtitle"
	"$bin" export "$tmp/int.h5" --json | python3 -c '
import json, sys
m = json.load(sys.stdin)["meta"]
sys.exit(not (m["run_status"] == "interrupted" and m["planned_steps"] == 8))' || bad "interrupted: export --json meta"
	ok "interrupted run flagged ($n of 8 steps)"
fi
# a whole run says nothing of the sort
[ -f "$tmp/r-lab/summary.md" ] && has "$tmp/r-lab/summary.md" 'Run not complete' && bad "a complete run flagged"

# a stopped process (SIGSTOP for 2 s) is the host's pause: the curve marks
# it, named in the legend, so its gap is not read as the drive's
# The stop must land while the writer writes (a stop before its first I/O
# leaves no gap and no pause to record): the trace is polled until the
# curve has a second of samples, however slow a loaded machine makes the
# TRIM before it; at most 3 runs until one says it recorded the pause,
# which must then be drawn.
curve_samples() {
	"$bin" export "$tmp/pause.h5" --json 2>/dev/null | python3 -c '
import json, sys
s = json.load(sys.stdin)["segments"]
print(len(s[-1]["samples"]["t_s"]) if len(s) >= 2 else 0)' 2>/dev/null || echo 0
}
for try in 1 2 3; do
	rm -f "$tmp/paused" "$tmp/pause.h5"
	"$bin" run "$tmp/paused" --size 256MiB --plan rand --rand-time 8s --trim-wait 0 --interval 100ms --no-probe \
		-o "$tmp/pause.h5" 2> "$tmp/pause.err" &
	pid=$!
	for _ in $(seq 1 200); do [ "$(curve_samples)" -ge 10 ] && break; sleep 0.1; done
	kill -STOP "$pid"; sleep 2; kill -CONT "$pid"
	wait "$pid"; rc=$?
	[ $rc != 0 ] || grep -q 'recorded as a host pause' "$tmp/pause.err" && break
done
if [ $rc != 0 ]; then
	bad "paused run: $(tail -2 "$tmp/pause.err")"
elif ! grep -q 'recorded as a host pause' "$tmp/pause.err"; then
	bad "host pause: 3 runs stopped for 2 s, none recorded a pause: $(tail -2 "$tmp/pause.err")"
elif ! "$bin" report "$tmp/pause.h5" -o "$tmp/r-pause" > "$tmp/pause.rep" 2>&1; then
	bad "report of a paused run: $(tail -2 "$tmp/pause.rep")"
else
	# the band is always in the legend; its label ("host paused 2 s") is
	# drawn where the labels above the plot leave it room, else left to
	# the legend (a file's first seconds can crowd them with short phases)
	svg=$(ls "$tmp/r-pause"/curve-*.svg | head -1)
	has "$svg" 'host paused (not the drive)' && ok "host pause marked on the curve" || bad "host pause: not on the curve"
fi

# the temperature figure shades the throttle only where the drive reported
# it or sat at its warning temperature: the simulated drive throttles for
# under a second near the start, then cools, while its speed stays lower
if "$bin" run sim:thermal-nvme --plan rand --rand-time 10m --trim-wait 1s --interval 1s -o "$tmp/th.h5" --quiet &&
	"$bin" report "$tmp/th.h5" -o "$tmp/r-th" > "$tmp/th.rep" 2>&1; then
	svg=$(ls "$tmp/r-th"/temperature-*.svg 2>/dev/null | head -1)
	if [ -z "$svg" ]; then
		bad "thermal: no temperature figure"
	else
		python3 - "$svg" <<'PYEOF' && ok "thermal: shading only where throttled" || bad "thermal: shading"
import re, sys
svg = open(sys.argv[1]).read()
# the shaded bands: full-height rectangles of the throttled colour at the bands' opacity
w = 0
for m in re.finditer(r'fill:rgb\(80%,47.5%,65.5%\);fill-opacity:0.15;" d="M ([\d.]+) ([\d.]+) L ([\d.]+) [\d.]+ L [\d.]+ ([\d.]+)', svg):
    x0, y0, x1, y1 = map(float, m.groups())
    if y1 - y0 > 300:
        w += x1 - x0
print("throttled shading %.1f px wide" % w)
sys.exit(not 0 < w < 0.05 * 1134)
PYEOF
	fi
else
	bad "thermal: run or report: $(tail -2 "$tmp/th.rep" 2>/dev/null)"
fi

# a run stopped before its first write curve (in a TRIM's wait) still gets
# a report saying how far it got
"$bin" run "$tmp/early.img" --size 64MiB --plan seq --trim-wait 60s -o "$tmp/early.h5" --quiet 2>/dev/null &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/early.h5" ] && break; sleep 0.1; done
sleep 1
kill -INT "$pid"; wait "$pid"
if "$bin" report "$tmp/early.h5" -o "$tmp/early-rep" --quiet 2>"$tmp/early.err" &&
	grep -q '^## Run not complete' "$tmp/early-rep/summary.md" && grep -q '1 of 2 steps' "$tmp/early-rep/summary.md"; then
	ok "report of a run stopped before its first curve"
else
	bad "report of a run stopped before its first curve: $(cat "$tmp/early.err")"
fi

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }

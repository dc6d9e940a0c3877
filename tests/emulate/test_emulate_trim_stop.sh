#!/usr/bin/env bash
# Ctrl-C (or SIGTERM) ends a run within 2 s at any stage, even while the
# drive holds a TRIM for 30 s: the TRIM runs in a child process that the
# run leaves behind in the kernel; the trace is closed and readable.
# Stages tried: the checks held by the drive, the stalled TRIM on a loop
# device (SIGINT) and on drive.img as a file (SIGTERM), --purge's stalled
# TRIM, and, with a TRIM answered at once, the start (SIGTERM at once), the
# wait after the TRIM and the fill.
# Needs root, /dev/fuse, losetup; exits 77 with the reason otherwise.
bin=$1
source "$(dirname "$0")/lib.sh"
now() { date +%s.%N; }
since() { $py -c 'import sys; print("%.2f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$1" "$(now)"; }
lt() { $py -c 'import sys; sys.exit(not float(sys.argv[1]) < float(sys.argv[2]))' "$1" "$2"; }

# wait_exit PID SECONDS: $rc, the exit code, or "running" after SECONDS
wait_exit() {
	for _ in $(seq 1 $(($2 * 20))); do kill -0 "$1" 2>/dev/null || break; sleep 0.05; done
	if kill -0 "$1" 2>/dev/null; then rc=running; return; fi
	wait "$1"; rc=$?
}

# readable NAME: the trace exports as JSON, with the run's target in it
readable() {
	if "$bin" export "$tmp/$1.h5" --json >"$tmp/$1.json" 2>"$tmp/$1.exp" &&
		$py -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"]=="slcscope-trace" and d["meta"]["target"]' "$tmp/$1.json"; then
		ok "$1: the trace is readable ($(grep -c '"index"' "$tmp/$1.json") segment(s))"
	else
		bad "$1: the trace after the stop is not readable: $(cat "$tmp/$1.exp")"
	fi
}

# stop_run NAME SIGNAL WANT_RC TARGET WHEN [run options]: start a run on
# TARGET, send SIGNAL once WHEN holds (a shell condition, polled), expect
# exit WANT_RC within 2 s
stop_run() {
	local name=$1 sig=$2 want=$3 target=$4 when=$5 t0
	shift 5
	"$bin" run "$target" --destructive --plan seq --interval 100ms -o "$tmp/$name.h5" "$@" \
		2>"$tmp/$name.err" &
	run_pid=$!
	for _ in $(seq 1 200); do eval "$when" && break; sleep 0.05; done
	eval "$when" || bad "$name: the run did not reach the stage in 10 s: $(cat "$tmp/$name.err")"
	t0=$(now)
	kill "-$sig" "$run_pid"
	wait_exit "$run_pid" 5
	took=$(since "$t0")
	if [ "$rc" = "$want" ] && lt "$took" 2; then
		ok "$name: SIG$sig: exit $rc ${took} s later: $(tail -1 "$tmp/$name.err")"
	else
		bad "$name: SIG$sig: exit '$rc' ${took} s after it (want $want within 2 s): $(cat "$tmp/$name.err")"
	fi
	[ "$rc" = running ] && { kill -KILL "$run_pid"; wait "$run_pid"; }
}

trims() { stat_of "$1" trim_commands 2>/dev/null || echo 0; }

# --- a drive whose every TRIM is answered 30 s late ---
emu_start stall tiny-tlc --size-scale 1/4 --trim-ms 30000
s=$mnt
loop_attach "$s/drive.img"; dev=$loop

# during the stalled TRIM on the loop device
stop_run trim_loop INT 130 "$dev" '[ "$(trims "$s")" -ge 1 ]' --trim-wait 0 --no-probe
sleep 0.5
kill -0 "$run_pid" 2>/dev/null && bad "trim_loop: the run's process is still there"
grep -q "interrupted by SIGINT during step trim" "$tmp/trim_loop.err" \
	&& ok "trim_loop: the stop is said: $(grep interrupted "$tmp/trim_loop.err")" \
	|| bad "trim_loop: no word of the stop in the TRIM: $(cat "$tmp/trim_loop.err")"
readable trim_loop

# the checks of a second run on the device, while the TRIM left behind
# still holds it: libblkid's reads wait behind the TRIM in the kernel.
# held NAME [run options]: SIGINT after 1 s if it still runs
held() {
	local name=$1 t0
	shift
	"$bin" run "$dev" --destructive --plan seq --no-probe "$@" >"$tmp/$name.err" 2>&1 &
	run_pid=$!
	sleep 1
	if kill -0 "$run_pid" 2>/dev/null; then
		t0=$(now)
		kill -INT "$run_pid"
		wait_exit "$run_pid" 5
		took=$(since "$t0")
		[ "$rc" = 130 ] && lt "$took" 2 && grep -q "during the checks" "$tmp/$name.err" \
			&& ok "$name: SIGINT while the checks wait for the drive: exit 130 ${took} s later: $(cat "$tmp/$name.err")" \
			|| bad "$name: exit '$rc' ${took} s after SIGINT (want 130 within 2 s, during the checks): $(cat "$tmp/$name.err")"
		[ "$rc" = running ] && { kill -KILL "$run_pid"; wait "$run_pid"; }
	else
		wait "$run_pid"; rc=$?
		[ "$rc" -le 1 ] && grep -q "open for writing in slcscope" "$tmp/$name.err" \
			&& ok "$name: done at once, the TRIM left behind named: $(cat "$tmp/$name.err")" \
			|| bad "$name: exit $rc: $(cat "$tmp/$name.err")"
	fi
}
held checks -o "$tmp/checks.h5"
held dry_run -n
[ -e "$tmp/checks.h5" ] && bad "checks: a trace was left by a run stopped in its checks"
loop_detach "$dev"    # cleared once the TRIM left behind ends (the emulator's exit fails it)

# during the stalled TRIM on drive.img itself (fallocate through FUSE), on
# a drive of its own: the TRIM left behind above holds drive.img's lock
emu_start stallf tiny-tlc --size-scale 1/4 --trim-ms 30000
f=$mnt
stop_run trim_file TERM 143 "$f/drive.img" '[ "$(trims "$f")" -ge 1 ]' --trim-wait 0 --no-probe
readable trim_file

# during --purge's TRIM (a loop device offers no Sanitize or Format): the
# run has only its identity snapshot in the trace then
emu_start stallp tiny-tlc --size-scale 1/4 --trim-ms 30000
p=$mnt
loop_attach "$p/drive.img"
stop_run purge INT 130 "$loop" '[ "$(trims "$p")" -ge 1 ]' --purge
grep -q "interrupted by SIGINT in --purge" "$tmp/purge.err" && ok "purge: the stop is said: $(tail -1 "$tmp/purge.err")" \
	|| bad "purge: no word of the stop in --purge: $(cat "$tmp/purge.err")"
readable purge

# --- a drive that answers TRIM at once: the wait after it and the fill ---
emu_start quick tiny-tlc --size-scale 1/4
q=$mnt
loop_attach "$q/drive.img"; dev=$loop
# at once (SIGTERM: a background job ignores SIGINT until slcscope sets its
# handler): whichever stage it reached, the checks, the open, the TRIM
stop_run early TERM 143 "$dev" '[ "$(cat /proc/$run_pid/comm 2>/dev/null)" = slcscope ]' --trim-wait 0 --no-probe
n0=$(trims "$q")
stop_run wait INT 130 "$dev" '[ "$(trims "$q")" -gt "$n0" ]' --trim-wait 30s --no-probe
readable wait
w0=$(stat_of "$q" host_write_bytes)
stop_run fill INT 130 "$dev" "[ \"\$(stat_of $q host_write_bytes 2>/dev/null || echo 0)\" -gt $w0 ]" --trim-wait 0 --seq-bytes 900MiB --no-probe
readable fill

emu_stop "$emu_pid" "$q"
emu_stop "$(cat "$tmp/stall.pid")" "$s"
emu_stop "$(cat "$tmp/stallf.pid")" "$f"
emu_stop "$(cat "$tmp/stallp.pid")" "$p"
finish

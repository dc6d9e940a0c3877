#!/usr/bin/env bash
# A command the drive does not answer for 30 s must not hold a stopped run:
# after Ctrl-C the run says what it waits for within a second; a second
# Ctrl-C, or the drain timeout without one, abandons the commands still in
# flight, closes the trace (readable) and exits 130.
# Needs root, /dev/fuse, losetup; exits 77 with the reason otherwise.
bin=$1
source "$(dirname "$0")/lib.sh"
# every 300th command answered 30 s late: a stuck command a few times a second
drive=(tiny-tlc --size-scale 1/4 --time-scale 1 --spike-every 300 --spike-ms 30000)
now() { date +%s.%N; }
since() { $py -c 'import sys; print("%.2f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$1" "$(now)"; }
lt() { $py -c 'import sys; sys.exit(not float(sys.argv[1]) < float(sys.argv[2]))' "$1" "$2"; }

# start_run NAME DEV: a long fill on DEV in the background, stopped once a
# command is stuck; sets $run_pid and $t_int (when the first SIGINT went)
start_run() {
	local name=$1 dev=$2 mnt=$3
	"$bin" run "$dev" --destructive --plan seq --seq-bytes 900MiB --trim-wait 0 --interval 100ms --no-probe \
		-o "$tmp/$name.h5" 2>"$tmp/$name.err" &
	run_pid=$!
	for _ in $(seq 1 100); do [ "$(stat_of "$mnt" faults.spikes 2>/dev/null || echo 0)" -ge 1 ] && break; sleep 0.1; done
	[ "$(stat_of "$mnt" faults.spikes)" -ge 1 ] || bad "$name: no spike injected in 10 s"
	sleep 0.5
	t_int=$(now)
	kill -INT "$run_pid"
}

# wait_said NAME TEXT SECONDS: TEXT on the run's stderr within SECONDS; prints the time taken
wait_said() {
	local t0=$(now)
	for _ in $(seq 1 $(($3 * 20))); do grep -q "$2" "$tmp/$1.err" && break; sleep 0.05; done
	grep -q "$2" "$tmp/$1.err" && since "$t0"
}

# wait_exit PID SECONDS: $rc, the exit code, or "running" after SECONDS
# (not in a subshell: only this shell can wait for its job)
wait_exit() {
	for _ in $(seq 1 $(($2 * 10))); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$1" 2>/dev/null; then rc=running; return; fi
	wait "$1"; rc=$?
}

check_trace() {
	local rows
	rows=$("$bin" export "$tmp/$1.h5" --csv 2>"$tmp/$1.exp" | grep -vc '^#')
	[ "$rows" -ge 2 ] && ok "$1: the trace is readable: $rows samples" \
		|| bad "$1: trace after the stop: $rows rows: $(cat "$tmp/$1.exp")"
}

# --- a second SIGINT abandons the stuck commands at once ---
emu_start a "${drive[@]}"; pa=$emu_pid a=$mnt
loop_attach "$a/drive.img"; dev=$loop
start_run twice "$dev" "$a"
took=$(wait_said twice "waiting for" 2)
[ -n "$took" ] && lt "$took" 1.5 && ok "first SIGINT: the run says what it waits for (${took} s): $(grep 'waiting for' "$tmp/twice.err")" \
	|| bad "first SIGINT: no word of what the run waits for within 1.5 s: $(cat "$tmp/twice.err")"
t2=$(now)
kill -INT "$run_pid" 2>/dev/null
wait_exit "$run_pid" 5
took=$(since "$t2")
[ "$rc" = 130 ] && ok "second SIGINT: exit 130 ${took} s later" \
	|| bad "second SIGINT: exit '$rc' (${took} s after it): $(cat "$tmp/twice.err")"
[ "$rc" = running ] && { kill -KILL "$run_pid"; wait "$run_pid"; }
grep -q "abandon" "$tmp/twice.err" && ok "the abandoned commands are named: $(grep abandon "$tmp/twice.err" | tail -1)" \
	|| bad "no word of the abandoned commands: $(cat "$tmp/twice.err")"
check_trace twice

# --- one SIGINT: the drain timeout abandons them ---
emu_start b "${drive[@]}"; pb=$emu_pid b=$mnt
loop_attach "$b/drive.img"; dev=$loop
start_run once "$dev" "$b"
wait_exit "$run_pid" 12
took=$(since "$t_int")
[ "$rc" = 130 ] && lt "$took" 12 && ok "one SIGINT: exit 130 after the drain timeout (${took} s)" \
	|| bad "one SIGINT: exit '$rc' ${took} s after it: $(cat "$tmp/once.err")"
[ "$rc" = running ] && { kill -KILL "$run_pid"; wait "$run_pid"; }
check_trace once

finish

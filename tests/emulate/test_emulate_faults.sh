#!/usr/bin/env bash
# The emulated drive as a block device: data really stored, BLKDISCARD
# reaching the model, injected I/O errors, a vanishing device and latency
# spikes as slcscope run sees them, a SIGKILLed run, and ext4 on the device.
# Needs root, /dev/fuse, losetup; exits 77 with the reason otherwise.
bin=$1
source "$(dirname "$0")/lib.sh"
command -v mkfs.ext4 >/dev/null || { echo "SKIP: mkfs.ext4 missing (e2fsprogs)"; exit 77; }
start=$(date +%s)
MiB=1048576
# a 1 GiB tiny-tlc (64 MiB cache) at full speed: 520 MB/s, then 78 MB/s
drive=(tiny-tlc --size-scale 1/4 --time-scale 1)
csv_rows() { "$bin" export "$1" --csv | grep -vc '^#'; }
csv_last_bytes() { "$bin" export "$1" --csv | grep -v '^#' | tail -1 | cut -d, -f4; }

# --- data, BLKDISCARD, an I/O error mid-run ---
emu_start a "${drive[@]}" --fail-after-bytes 64MiB; pa=$emu_pid a=$mnt
loop_attach "$a/drive.img"; dev=$loop

# reads return what was written (direct I/O both ways, past the page cache)
head -c $((4 * MiB)) /dev/urandom >"$tmp/pattern"
dd if="$tmp/pattern" of="$dev" bs=1M seek=300 oflag=direct status=none conv=notrunc
dd if="$dev" of="$tmp/back" bs=1M skip=300 count=4 iflag=direct status=none
cmp -s "$tmp/pattern" "$tmp/back" && ok "data written to the loop device reads back" || bad "data read back differs"

# the run's first step is a BLKDISCARD of the whole device: the model sees it
t0=$(stat_of "$a" trim_commands) b0=$(stat_of "$a" host_trim_bytes) w0=$(stat_of "$a" host_write_bytes)
"$bin" run "$dev" --destructive --plan seq --seq-bytes 8MiB --trim-wait 0 -o "$tmp/trim.h5" --quiet || bad "seq run failed"
t1=$(stat_of "$a" trim_commands) b1=$(stat_of "$a" host_trim_bytes) ev=$(stat_of "$a" events.trim)
[ "$t1" -gt "$t0" ] && [ $((b1 - b0)) = $((1024 * MiB)) ] && [ "$ev" -ge 1 ] \
	&& ok "BLKDISCARD reached the model: TRIM commands $t0 -> $t1, $((b1 - b0)) bytes, $ev trim events" \
	|| bad "BLKDISCARD: TRIM commands $t0 -> $t1, bytes $b0 -> $b1, events $ev"
dd if="$dev" of="$tmp/back" bs=1M skip=300 count=4 iflag=direct status=none
cmp -s "$tmp/back" <(head -c $((4 * MiB)) /dev/zero) && ok "trimmed data reads back as zeroes" || bad "trimmed data is still there"

# the probes see the model behind the loop device: its counters as the
# drive's health, around the run's steps and in the analysis
"$bin" probe --json "$dev" >"$tmp/probe.json" || bad "probe of the emulated device"
"$bin" export --json "$tmp/trim.h5" >"$tmp/trim.json" || bad "export trim.h5"
/usr/bin/python3 - "$tmp/probe.json" "$tmp/trim.json" "$(stat_of "$a" host_write_bytes)" <<'PY' \
	&& ok "probe: the emulated drive's counters as SMART; the run's write amplification from them" \
	|| bad "probe/analysis of the emulated drive"
import json, sys
p = json.load(open(sys.argv[1])); a = json.load(open(sys.argv[2]))
i, h = p["identity"], p["health"]
assert i["source"] == "emulated" and i["interface"] == "loop" and i["model"].startswith("slcscope emulate"), i
assert h["has_smart"] and h["host_write_bytes"] == int(sys.argv[3]) and h["nand_write_bytes"] >= h["host_write_bytes"], h
snaps = {(s["kind"], s["segment"]): s["data"]["health"] for s in a["device_snapshots"] if s["kind"].startswith("health")}
b, e = snaps[("health_before", 1)], snaps[("health_after", 1)]   # the 8 MiB fill
assert e["host_write_bytes"] - b["host_write_bytes"] == 8 * 2**20, (b, e)
assert e["nand_write_bytes"] - b["nand_write_bytes"] >= 8 * 2**20, (b, e)
PY

# --fail-after-bytes 64MiB: 4 + 8 MiB are written, so this run fails after 52 MiB
w1=$(stat_of "$a" host_write_bytes)
left=$((64 * MiB - w1))
"$bin" run "$dev" --destructive --plan seq --seq-bytes 256MiB --trim-wait 0 --interval 20ms -o "$tmp/err.h5" 2>"$tmp/err"; rc=$?
w2=$(stat_of "$a" host_write_bytes) inj=$(stat_of "$a" faults.injected_errors)
off=$(sed -n 's/.*I\/O error at offset \([0-9]*\).*/\1/p' "$tmp/err")
echo "note: $(cat "$tmp/err")"
# the failing write is one of the 32 in flight around the limit (128 KiB each)
[ $rc = 1 ] && [ -n "$off" ] && [ "$off" -ge $((left - 4 * MiB)) ] && [ "$off" -le $((left + 4 * MiB)) ] && [ "$inj" -ge 1 ] \
	&& ok "I/O error mid-run: exit 1, offset $off reported (limit at $left)" \
	|| bad "I/O error mid-run: rc $rc, offset '$off', limit $left, injected $inj"
rows=$(csv_rows "$tmp/err.h5") last=$(csv_last_bytes "$tmp/err.h5")
# every completed write is in the trace: what the drive accepted in this run,
# less at most one merged loop request (1.25 MiB) the kernel split in two
acc=$((w2 - w1))
[ "$rows" -ge 2 ] && [ "$last" -le "$acc" ] && [ $((acc - last)) -le $((2 * MiB)) ] \
	&& ok "the trace keeps every sample before the error: $rows samples, $last bytes (drive accepted $acc)" \
	|| bad "trace after the error: $rows samples, $last bytes, drive accepted $acc"
loop_detach "$dev"
emu_stop "$pa" "$a"
grep -q "host writes" "$tmp/a.log" && grep -q "TRIMs" "$tmp/a.log" && ok "counters printed at exit" \
	|| bad "no counters at exit: $(cat "$tmp/a.log")"

# --- a bad block: --fail-at; latency spikes ---
emu_start b "${drive[@]}" --fail-at 20MiB --spike-every 200 --spike-ms 300; pb=$emu_pid b=$mnt
loop_attach "$b/drive.img"; dev=$loop
"$bin" run "$dev" --destructive --plan seq --seq-bytes 64MiB --trim-wait 0 -o "$tmp/bad.h5" 2>"$tmp/err"; rc=$?
off=$(sed -n 's/.*I\/O error at offset \([0-9]*\).*/\1/p' "$tmp/err")
# the write holding byte 20 MiB, or a neighbour merged with it into one request
[ $rc = 1 ] && [ -n "$off" ] && [ "$off" -le $((20 * MiB)) ] && [ "$off" -gt $((20 * MiB - 2 * MiB)) ] \
	&& ok "--fail-at 20MiB: the run stops at offset $off" || bad "--fail-at: rc $rc, offset '$off': $(cat "$tmp/err")"
dd if="$dev" of=/dev/null bs=4k skip=$((20 * MiB / 4096)) count=1 iflag=direct status=none 2>/dev/null \
	&& bad "reading the bad block succeeded" || ok "reading the bad block fails"
"$bin" run "$dev" --destructive --plan rand --rand-time 2s --qd 4 --trim-wait 0 --interval 100ms -o "$tmp/spk.h5" --quiet \
	|| bad "random run with spikes failed (the bad block is hit by chance only 1 in 65536)"
sp=$(stat_of "$b" faults.spikes)
maxlat=$("$bin" export "$tmp/spk.h5" --csv | grep -v '^#' | awk -F, 'NR > 1 && $10 > m { m = $10 } END { print int(m) }')
[ "$sp" -ge 1 ] && [ "$maxlat" -ge 300000 ] && ok "latency spikes: $sp, worst latency $maxlat us" \
	|| bad "spikes $sp, worst latency $maxlat us (expected >= 300 ms)"
loop_detach "$dev"
emu_stop "$pb" "$b"

# --- the device vanishes mid-run ---
emu_start c "${drive[@]}" --vanish-after-bytes 48MiB; pc=$emu_pid c=$mnt
loop_attach "$c/drive.img"; dev=$loop
"$bin" run "$dev" --destructive --plan seq --seq-bytes 256MiB --trim-wait 0 --interval 100ms -o "$tmp/van.h5" 2>"$tmp/err"; rc=$?
off=$(sed -n 's/.*I\/O error at offset \([0-9]*\).*/\1/p' "$tmp/err")
for _ in $(seq 1 50); do kill -0 "$pc" 2>/dev/null || break; sleep 0.1; done
gone=1; kill -0 "$pc" 2>/dev/null && gone=0
mountpoint -q "$c" && gone=0
[ $rc = 1 ] && [ -n "$off" ] && [ $gone = 1 ] && [ "$(csv_rows "$tmp/van.h5")" -ge 2 ] \
	&& ok "vanished device: the run stops at offset $off, the emulator is gone and unmounted, the trace is readable" \
	|| bad "vanish: rc $rc, offset '$off', emulator gone $gone: $(cat "$tmp/err")"
dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null \
	&& bad "the vanished device still reads" || ok "the vanished device fails every I/O"
grep -q "vanished as asked" "$tmp/c.log" || bad "no vanish message: $(cat "$tmp/c.log")"
sanitizer_check c
loop_detach "$dev"

# --- idle recovery in real time: after a fill, the model folds its SLC
# cache while the device sits idle, at the model's rate x the time scale ---
emu_start e tiny-tlc --size-scale 1/4 --time-scale 1/2; pe=$emu_pid e=$mnt
loop_attach "$e/drive.img"; dev=$loop
"$bin" run "$dev" --destructive --plan seq --seq-bytes 100MB --trim-wait 0 -o "$tmp/fill.h5" --quiet || bad "fill failed"
c0=$(stat_of "$e" cache_free_bytes) u0=$(stat_of "$e" uptime_s)
sleep 2
c1=$(stat_of "$e" cache_free_bytes) u1=$(stat_of "$e" uptime_s)
loop_detach "$dev"
emu_stop "$pe" "$e"
# the reference: the same drive idle for 2 model seconds after a fill, in virtual time
ref=$("$bin" sim run tiny-tlc -w seq --prefill 400MB --idle 2s --bytes 128k 2>&1 >/dev/null \
	| sed -n 's/.*cache_capacity.*cache free \([0-9.]*\) MB.*/\1/p')
$py - "$c0" "$c1" "$u0" "$u1" "$ref" 0.5 <<'PYEOF2'
import sys
c0, c1, u0, u1, ref, t = map(float, sys.argv[1:])
rate, want = (c1 - c0) / (u1 - u0) / t, ref * 1e6 / 2
err = abs(rate - want) / want
# 15%: whole SLC blocks (1 MiB) come back at a time, 3% of the ~35 MB; the
# two snapshots and the uptimes come from the same clock
print("%s: idle folding gave back %.1f MB in %.2f s: %.1f MB per model second (model, virtual time: %.1f), off by %.1f%% (tolerance 15%%)"
      % ("ok" if err <= 0.15 else "FAIL", (c1 - c0) / 1e6, u1 - u0, rate / 1e6, want / 1e6, err * 100))
sys.exit(err > 0.15)
PYEOF2
[ $? = 0 ] && passes=$((passes+1)) || fails=$((fails+1))

# --- SIGKILL of a run; ext4 on the device ---
emu_start d "${drive[@]}"; pd=$emu_pid d=$mnt
loop_attach "$d/drive.img"; dev=$loop
"$bin" run "$dev" --destructive --plan rand --rand-time 60s --trim-wait 0 --interval 100ms -o "$tmp/kill.h5" --quiet &
rp=$!
for _ in $(seq 1 100); do [ -s "$tmp/kill.h5" ] && break; sleep 0.1; done
sleep 5                     # the trace is flushed every 2 s
kill -KILL $rp; wait $rp 2>/dev/null
rows=$(csv_rows "$tmp/kill.h5")
[ "$rows" -ge 10 ] && ok "SIGKILL of a run: the trace reads, $rows samples up to the last flush" \
	|| bad "SIGKILL: $rows samples readable"
sleep 0.5                   # the killed run's O_EXCL claim goes with its last file reference
t0=$(stat_of "$d" trim_commands)
if mkfs.ext4 -q -F "$dev" >"$tmp/mkfs" 2>&1; then
	t1=$(stat_of "$d" trim_commands)
	[ "$(blkid -o value -s TYPE "$dev")" = ext4 ] && ok "mkfs.ext4 on the emulated device; blkid sees ext4" || bad "blkid: $(blkid "$dev")"
	[ "$t1" -gt "$t0" ] && ok "mkfs.ext4's discard reached the model ($t0 -> $t1 TRIMs)" || bad "mkfs discard: $t0 -> $t1"
	e2fsck -fn "$dev" >"$tmp/fsck" 2>&1 && ok "e2fsck reads back a consistent filesystem" || bad "e2fsck: $(cat "$tmp/fsck")"
	"$bin" run "$dev" --destructive --plan seq -o "$tmp/fs.h5" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "refusing to write: .*ext4 signature" "$tmp/err" && grep -q -- "--force" "$tmp/err" \
		&& ok "ext4 on the emulated device refused without --force" || bad "ext4: rc $rc $(cat "$tmp/err")"
else
	bad "mkfs.ext4 failed: $(cat "$tmp/mkfs")"
fi
loop_detach "$dev"
emu_stop "$pd" "$d"
# --- the foreground server: "ready" on stdout, Ctrl-C unmounts cleanly ---
# (a non-interactive shell starts background jobs with SIGINT ignored, which
# libfuse then leaves alone, as a terminal's Ctrl-C never is: restore it)
$py -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
	"$bin" emulate tiny-tlc "$tmp/fg" --size-scale 1/4 --store "$store/fg.img" >"$tmp/fg.out" 2>"$tmp/fg.log" &
fgp=$!; emus+=("$fgp"); mnts+=("$tmp/fg")
for _ in $(seq 1 100); do grep -q "ready, pid $fgp" "$tmp/fg.out" && break; sleep 0.1; done
mountpoint -q "$tmp/fg" && [ -s "$tmp/fg/stats.json" ] || bad "foreground server not ready: $(cat "$tmp/fg.out" "$tmp/fg.log")"
kill -INT $fgp; wait $fgp; rc=$?
[ $rc = 0 ] && ! mountpoint -q "$tmp/fg" && [ ! -e "$tmp/fg" ] && grep -q "host writes" "$tmp/fg.log" \
	&& ok "foreground server: ready line, SIGINT unmounts, removes the DIR it made, prints its counters (exit 0)" \
	|| bad "foreground SIGINT: rc $rc, $(cat "$tmp/fg.log")"
sanitizer_check fg
echo "note: took $(( $(date +%s) - start )) s"
finish

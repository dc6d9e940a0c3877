#!/usr/bin/env bash
# slcscope run against real block devices: loop devices over files.
# Needs root and loop devices; exits 77 (skipped) with the reason otherwise.
set -u
bin=$1
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for loop devices"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: losetup missing (util-linux)"; exit 77; }
command -v mkfs.ext4 >/dev/null || { echo "SKIP: mkfs.ext4 missing (e2fsprogs)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-loop.XXXXXX")
loops=()
cleanup() { for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
newloop() {  # newloop FILE SIZE: sets $loop to the new /dev/loopN
	truncate -s "$2" "$1"
	loop=$(losetup -f --show "$1") || { echo "SKIP: cannot attach a loop device"; exit 77; }
	loops+=("$loop")
}
fails=0 passes=0
ok() { passes=$((passes+1)); echo "ok: $*"; }
bad() { fails=$((fails+1)); echo "FAIL: $*"; }
allocated_mib() { echo $(( $(stat -c '%b * %B' "$1") / 1048576 )); }

newloop "$tmp/disk.img" 128M; dev=$loop

# no --destructive: refused, nothing written
"$bin" run "$dev" --plan seq -o "$tmp/a.h5" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "destroys everything on it; add --destructive" "$tmp/err" && [ ! -e "$tmp/a.h5" ] \
	&& ok "block device refused without --destructive" || bad "no --destructive: rc $rc $(cat "$tmp/err")"

# dry run says what will be destroyed
"$bin" run "$dev" -n >"$tmp/dry" && grep -q "^destroys: all 134 MB on $dev" "$tmp/dry" \
	&& ok "dry run names what is destroyed" || bad "dry run: $(cat "$tmp/dry")"

# --hipri on a device without poll queues (a loop device has none): the run,
# its dry run and its fio job all refuse in one line; nothing is written
for form in "--destructive -o $tmp/h.h5" "-n" "--fio-job $tmp/h.fio"; do
	# shellcheck disable=SC2086
	"$bin" run "$dev" --plan rand --hipri $form >"$tmp/hout" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "poll_queues" "$tmp/err" && [ ! -e "$tmp/h.h5" ] &&
		[ ! -e "$tmp/h.fio" ] && ok "--hipri $form refused: $(cat "$tmp/err")" ||
		bad "--hipri $form: rc $rc: $(cat "$tmp/err")"
done
# -o naming the target: said so, not a suggestion of --force
"$bin" run "$dev" --destructive --plan rand -o "$dev" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "that is the target" "$tmp/err" && ! grep -q -- "--force" "$tmp/err" &&
	ok "-o the target: $(cat "$tmp/err")" || bad "-o the target: rc $rc: $(cat "$tmp/err")"

# fill the backing file, then a run: its first step TRIMs the whole device,
# which must reach the file as punched holes
dd if=/dev/urandom of="$dev" bs=1M count=128 oflag=direct status=none
before=$(allocated_mib "$tmp/disk.img")
if "$bin" run "$dev" --destructive --plan seq --seq-bytes 16MiB --trim-wait 0 -o "$tmp/seq.h5" --quiet; then
	after=$(allocated_mib "$tmp/disk.img")
	[ "$before" -ge 120 ] && [ "$after" -le 40 ] && ok "TRIM reached the backing file ($before -> $after MiB)" \
		|| bad "TRIM did not reach the file: $before -> $after MiB allocated"
	last=$("$bin" export "$tmp/seq.h5" --csv | grep -v '^#' | tail -1 | cut -d, -f4)
	[ "$last" = 16777216 ] && ok "16 MiB written through io_uring" || bad "wrote $last bytes"
else
	bad "run on $dev failed"
fi

# the whole lab plan, scaled to seconds
"$bin" run "$dev" --destructive -o "$tmp/lab.h5" --seq-bytes 32MiB --rand-time 2s --idle 1s --burst 1s \
	--trim-wait 0 --interval 100ms --quiet && [ "$("$bin" export "$tmp/lab.h5" --csv | grep -c '^# segment ')" = 8 ] \
	&& ok "lab plan on a loop device" || bad "lab plan on a loop device"

# the TRIM-responsiveness plan on a real device: it runs and is analysed
"$bin" run "$dev" --destructive --plan trim-response --trim-bytes 32MiB --read-time 2s --trim-wait 0 \
	-o "$tmp/tr.h5" --quiet && "$bin" analyze --json "$tmp/tr.h5" | grep -q '"trim_response"' \
	&& ok "trim-response plan on a loop device" || bad "trim-response plan on a loop device"

# the other experiments run on a real device too (scaled to seconds)
"$bin" run "$dev" --destructive --plan idle-sweep --idle-list 1s,2s --burst 1s --trim-wait 0 -o "$tmp/is.h5" --quiet \
	&& [ "$("$bin" export "$tmp/is.h5" --csv | grep -c '^# segment ')" = 6 ] \
	&& ok "idle-sweep plan on a loop device" || bad "idle-sweep plan on a loop device"
"$bin" run "$dev" --destructive --plan fill-levels --burst 1s --trim-wait 0 -o "$tmp/fl.h5" --quiet \
	&& "$bin" analyze --json "$tmp/fl.h5" | grep -q '"fill_levels"' \
	&& ok "fill-levels plan on a loop device" || bad "fill-levels plan on a loop device"
"$bin" run "$dev" --destructive --plan compress --burst 1s --trim-wait 0 -o "$tmp/cp.h5" --quiet \
	&& "$bin" analyze --json "$tmp/cp.h5" | grep -q '"compressibility"' \
	&& ok "compress plan on a loop device" || bad "compress plan on a loop device"

# SNIA host idle recovery: one round per wait state (the waits are SNIA's, 105 s in all)
"$bin" run "$dev" --destructive --plan hir --hir-rounds 1 --burst 1s --trim-wait 0 -o "$tmp/hir.h5" --quiet \
	&& "$bin" analyze --json "$tmp/hir.h5" | grep -q '"host_idle_recovery"' \
	&& ok "hir plan on a loop device" || bad "hir plan on a loop device"

# the sweep plans (the reviews' Iometer and CrystalDiskMark tests) on a
# real device, scaled: a 32 MiB region, 100 ms points; the loop device
# takes 512-byte I/O, so the block-size sweep keeps all its points
for pp in qd-sweep:12 bs-sweep:46 mixed:12 basic:6 short:8; do
	p=${pp%:*} want=${pp#*:}
	if "$bin" run "$dev" --destructive --plan "$p" --region 32MiB --step-time 100ms --trim-wait 0 \
		-o "$tmp/sw-$p.h5" --quiet 2>"$tmp/err"; then
		got=$("$bin" analyze --json "$tmp/sw-$p.h5" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["sweep"]))')
		[ "$got" = "$want" ] && ok "$p plan on a loop device: $got points" || bad "$p on a loop device: $got points, want $want"
	else
		bad "$p plan on a loop device: $(cat "$tmp/err")"
	fi
done
# a loop device's sweep plots and reports as a simulated one does
"$bin" plot "$tmp/sw-bs-sweep.h5" -o "$tmp/bs.svg" --kind bs-sweep 2>"$tmp/err" && [ -s "$tmp/bs.svg" ] \
	&& ok "bs-sweep of a loop device plotted" || bad "bs-sweep plot of a loop device: $(cat "$tmp/err")"
if "$bin" report "$tmp/sw-mixed.h5" -o "$tmp/rep-mixed" >/dev/null 2>"$tmp/err" &&
	[ "$(wc -l < "$tmp/rep-mixed/sweep.csv")" -eq 13 ] && [ -s "$tmp/rep-mixed/mixed.svg" ] &&
	grep -q '^## Sweeps' "$tmp/rep-mixed/summary.md"; then
	ok "mixed sweep of a loop device reported: 12 rows, its graph"
else
	bad "mixed sweep report of a loop device: $(cat "$tmp/err"; ls "$tmp/rep-mixed" 2>&1)"
fi

# a 4Kn device (4096-byte logical blocks): the block-size sweep leaves out its
# 512 B-2 KiB points, and the dry run and the fio job list what the run does
truncate -s 64M "$tmp/disk4k.img"
if dev4=$(losetup -f --show --sector-size 4096 "$tmp/disk4k.img" 2>/dev/null); then
	loops+=("$dev4")
	for how in "-n" "--fio-job -" "--destructive --step-time 100ms --trim-wait 0 -o $tmp/sw4k.h5 --quiet"; do
		"$bin" run "$dev4" --plan bs-sweep --region 32MiB $how >"$tmp/out" 2>"$tmp/err" &&
			grep -q "12 points of 512 B to 2 KiB left out: the target's logical block is 4096 bytes" "$tmp/err" &&
			! grep -Eq '^bs=(512|1024|2048)$| 512 B | 1 KiB | 2 KiB ' "$tmp/out" \
			&& ok "4Kn loop device, bs-sweep ${how%% *}: the points under 4 KiB left out" \
			|| bad "4Kn loop device, bs-sweep $how: $(cat "$tmp/err")"
	done
else
	echo "note: no loop device with 4096-byte sectors here; the 4Kn check not exercised"
fi

# a filesystem on it: refused without --force, with the signature named
mkfs.ext4 -q -F "$dev"
"$bin" run "$dev" --destructive --plan seq -o "$tmp/b.h5" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "refusing to write: .*a ext4 signature" "$tmp/err" && grep -q -- "--force" "$tmp/err" \
	&& ok "ext4 refused without --force" || bad "ext4: rc $rc $(cat "$tmp/err")"
# mounted: refused even with --force (O_EXCL and the mount check)
mkdir -p "$tmp/mnt"
if mount "$dev" "$tmp/mnt" 2>/dev/null; then
	"$bin" run "$dev" --destructive --force --plan seq -o "$tmp/c.h5" 2>"$tmp/err"; rc=$?
	umount "$tmp/mnt"
	[ $rc = 1 ] && grep -Eq "in use|mounted on" "$tmp/err" && ok "mounted device refused" || bad "mounted: rc $rc $(cat "$tmp/err")"
else
	echo "note: cannot mount here; mounted-device check not exercised"
fi
"$bin" run "$dev" --destructive --force --plan seq --seq-bytes 8MiB --trim-wait 0 -o "$tmp/d.h5" --quiet \
	&& ok "--force writes over the signature" || bad "--force did not write"

# a partition table is refused too
newloop "$tmp/disk2.img" 64M; dev2=$loop
if command -v sfdisk >/dev/null; then
	echo 'label: gpt' | sfdisk -q "$dev2" >/dev/null 2>&1
	"$bin" run "$dev2" --destructive --plan seq -o "$tmp/e.h5" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "gpt partition table" "$tmp/err" && ok "partition table refused" || bad "gpt: rc $rc $(cat "$tmp/err")"
fi

# Ctrl-C in the middle of a run on a real device: a readable trace, exit 130
"$bin" run "$dev" --destructive --force --plan rand --rand-time 60s --trim-wait 0 -o "$tmp/int.h5" --quiet 2>"$tmp/err" &
pid=$!
for _ in $(seq 1 600); do [ -s "$tmp/int.h5" ] && break; sleep 0.1; done
sleep 3
kill -INT $pid
wait $pid; rc=$?
n=$("$bin" export "$tmp/int.h5" --csv | grep -vc '^#')
[ $rc = 130 ] && [ "$n" -ge 2 ] && ok "Ctrl-C on a loop device: exit 130, $n samples kept" || bad "Ctrl-C: rc $rc, $n samples, $(cat "$tmp/err")"

echo "$passes passed, $fails failed"
[ $fails = 0 ]

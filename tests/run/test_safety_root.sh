#!/usr/bin/env bash
# slcscope run's refusals of what is in use: mounted devices (the kernel's
# mounts and FUSE ones such as fuse2fs, a partition's), swap, files behind
# loop devices, swap files: refused whatever the flags, --force included;
# and, before the first write: a device open for writing elsewhere, a
# read-only one, a missing one under /dev, a file over the free space.
# Needs root and loop devices; exits 77 (skipped) with the reason otherwise.
set -u
bin=$1
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for loop devices, mounts and swap"; exit 77; }
for c in losetup mkfs.ext4 mkswap swapon; do
	command -v $c >/dev/null || { echo "SKIP: $c missing (util-linux, e2fsprogs)"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-safety-root.XXXXXX")
loops=() mounts=() swaps=()
cleanup() {
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
	for s in "${swaps[@]}"; do swapoff "$s" 2>/dev/null; done
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
newloop() {  # newloop FILE SIZE [losetup options]: sets $loop to the new /dev/loopN
	truncate -s "$2" "$1"
	loop=$(losetup -f --show "${@:3}" "$1") || { echo "SKIP: cannot attach a loop device"; exit 77; }
	loops+=("$loop")
}
unmount() { umount "$1"; while [ -n "$(pgrep -x fuse2fs)" ]; do sleep 0.1; done; }
fails=0 passes=0
ok() { passes=$((passes+1)); echo "ok: $*"; }
bad() { fails=$((fails+1)); echo "FAIL: $*"; }
q=(--plan seq --trim-wait 0 --quiet --no-probe -o "$tmp/x.h5")
never='--force does not override a mount or swap'
is_ext4() { [ "$(blkid -p -o value -s TYPE "$1" 2>/dev/null)" = ext4 ]; }

newloop "$tmp/disk.img" 64M; dev=$loop
mkfs.ext4 -q -F "$dev"
mkdir -p "$tmp/mnt"

# the kernel's mount: refused with --force, saying --force does not reach it
mount "$dev" "$tmp/mnt" && mounts+=("$tmp/mnt")
"$bin" run "$dev" --destructive --force "${q[@]}" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "refusing to write: mounted on $tmp/mnt (ext4).*$never" "$tmp/err" \
	&& ok "mounted device refused with --force" || bad "mounted device: rc $rc $(cat "$tmp/err")"
"$bin" run "$dev" -n --force >"$tmp/dry" 2>&1
grep -q "found: mounted on $tmp/mnt" "$tmp/dry" && grep -q "(refused: $never)" "$tmp/dry" && ! grep -q -- "--force given" "$tmp/dry" \
	&& ok "dry run with --force: the mount is refused" || bad "dry run: $(cat "$tmp/dry")"
# the file behind it, mounted through the loop device: refused too
"$bin" run "$tmp/disk.img" --force "${q[@]}" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "refusing to write: backs $dev, which is mounted on $tmp/mnt.*$never" "$tmp/err" && is_ext4 "$tmp/disk.img" \
	&& ok "file behind a mounted loop device refused with --force" || bad "file behind a mount: rc $rc $(cat "$tmp/err")"
umount "$tmp/mnt"

# FUSE: fuse2fs opens the device without O_EXCL, so only the check stops the write
if command -v fuse2fs >/dev/null; then
	fuse2fs "$dev" "$tmp/mnt" >/dev/null 2>&1
	"$bin" run "$dev" --destructive --force "${q[@]}" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "mounted on $tmp/mnt (fuse.*$never" "$tmp/err" && is_ext4 "$dev" \
		&& ok "fuse2fs-mounted device refused with --force" || bad "fuse2fs device: rc $rc $(cat "$tmp/err")"
	unmount "$tmp/mnt"
	# an image file served by fuse2fs, named relative to where it was started
	(cd "$tmp" && fuse2fs disk.img mnt >/dev/null 2>&1)
	"$bin" run "$tmp/disk.img" --force "${q[@]}" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "mounted on $tmp/mnt (fuse.*$never" "$tmp/err" && is_ext4 "$tmp/disk.img" \
		&& ok "fuse2fs-mounted image file refused with --force" || bad "fuse2fs file: rc $rc $(cat "$tmp/err")"
	unmount "$tmp/mnt"
else
	echo "note: fuse2fs missing; FUSE mounts not exercised"
fi

# the file behind a loop device nobody mounted: refused unless --force
"$bin" run "$tmp/disk.img" "${q[@]}" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "refusing to write: backs the loop device $dev.*add --force" "$tmp/err" \
	&& ok "file behind a loop device refused without --force" || bad "file behind a loop: rc $rc $(cat "$tmp/err")"

# a mounted partition: the whole disk is refused with --force
if command -v sfdisk >/dev/null; then
	newloop "$tmp/parts.img" 64M -P; pdev=$loop
	echo ',,L' | sfdisk -q "$pdev" >/dev/null 2>&1
	partx -u "$pdev" 2>/dev/null; udevadm settle 2>/dev/null
	if [ -b "${pdev}p1" ] && mkfs.ext4 -q -F "${pdev}p1" && mount "${pdev}p1" "$tmp/mnt"; then
		"$bin" run "$pdev" --destructive --force "${q[@]}" 2>"$tmp/err"; rc=$?
		umount "$tmp/mnt"
		[ $rc = 1 ] && grep -q "mounted on $tmp/mnt.*$never" "$tmp/err" && ok "disk with a mounted partition refused with --force" \
			|| bad "mounted partition: rc $rc $(cat "$tmp/err")"
	else
		echo "note: no partition device; mounted-partition check not exercised"
	fi
fi

# swap: a device and a file, refused with --force
newloop "$tmp/swap.img" 32M; sdev=$loop
if mkswap -q "$sdev" && swapon "$sdev" 2>/dev/null; then
	swaps+=("$sdev")
	"$bin" run "$sdev" --destructive --force "${q[@]}" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "used as swap.*$never" "$tmp/err" && ok "swap device refused with --force" || bad "swap device: rc $rc $(cat "$tmp/err")"
	swapoff "$sdev"
else
	echo "note: swapon refused here; swap devices not exercised"
fi
fallocate -l 32M "$tmp/swapfile" && chmod 600 "$tmp/swapfile"
if mkswap -q "$tmp/swapfile" && swapon "$tmp/swapfile" 2>/dev/null; then
	swaps+=("$tmp/swapfile")
	"$bin" run "$tmp/swapfile" --force "${q[@]}" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "used as swap ($tmp/swapfile).*$never" "$tmp/err" && ok "swap file refused with --force" \
		|| bad "swap file: rc $rc $(cat "$tmp/err")"
	swapoff "$tmp/swapfile"
else
	echo "note: swapon refused a swap file here; swap files not exercised"
fi

# refused before the first write, the victim unchanged (checksums):
sum() { md5sum <"$1" | cut -d' ' -f1; }
# a device another process holds open for writing, named; a reader is no matter
( exec 3<>"$dev"; exec sleep 30 ) & wpid=$!
for _ in $(seq 1 50); do [ "$(cat /proc/$wpid/comm 2>/dev/null)" = sleep ] && break; sleep 0.1; done
before=$(sum "$dev")
"$bin" run "$dev" --destructive "${q[@]}" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "refusing to write: open for writing in sleep (pid $wpid).*add --force" "$tmp/err" \
	&& [ "$(sum "$dev")" = "$before" ] && ok "device open for writing elsewhere refused: $(cat "$tmp/err")" \
	|| bad "device open for writing: rc $rc $(cat "$tmp/err")"
kill $wpid; wait $wpid 2>/dev/null
( exec 3<"$dev"; exec sleep 30 ) & rpid=$!
for _ in $(seq 1 50); do [ "$(cat /proc/$rpid/comm 2>/dev/null)" = sleep ] && break; sleep 0.1; done
"$bin" run "$dev" --destructive -n >"$tmp/dry" 2>&1
! grep -q "open for writing" "$tmp/dry" && ok "a reader of the device is not a writer" || bad "reader taken for a writer: $(cat "$tmp/dry")"
kill $rpid; wait $rpid 2>/dev/null
# a read-only loop device: refused before the checks
newloop "$tmp/ro.img" 16M -r; rodev=$loop
"$bin" run "$rodev" --destructive "${q[@]}" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "$rodev: the device is read-only (BLKROGET); nothing was written" "$tmp/err" \
	&& ok "read-only loop device refused" || bad "read-only device: rc $rc $(cat "$tmp/err")"
# a device that does not exist: no file in /dev, with --size or without, dry run too
nodev=/dev/slcscope-no-such-device-$$
for size in "" "--size 1G" "--size 1G -n"; do
	# shellcheck disable=SC2086
	"$bin" run "$nodev" $size "${q[@]}" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -qx "slcscope run: $nodev: no such device" "$tmp/err" && [ ! -e "$nodev" ] \
		&& ok "missing device ${size:-(no --size)}: no such device, nothing created" \
		|| bad "missing device $size: rc $rc $(cat "$tmp/err"); $(ls -l "$nodev" 2>&1)"
	rm -f "$nodev"
done
# a sparse file larger than its filesystem's free space, and --size past it
newloop "$tmp/small.img" 32M; small=$loop
mkfs.ext4 -q -F "$small" && mkdir -p "$tmp/small" && mount "$small" "$tmp/small" && mounts+=("$tmp/small")
truncate -s 256M "$tmp/small/sparse"
free0=$(df --output=avail "$tmp/small" | tail -1)
"$bin" run "$tmp/small/sparse" "${q[@]}" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "sparse: not enough free space: .*nothing was written" "$tmp/err" \
	&& [ "$(du -k "$tmp/small/sparse" | cut -f1)" = 0 ] && [ "$(df --output=avail "$tmp/small" | tail -1)" = "$free0" ] \
	&& ok "sparse file over the free space refused: $(cat "$tmp/err")" || bad "sparse file: rc $rc $(cat "$tmp/err")"
"$bin" run "$tmp/small/new" --size 100M "${q[@]}" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "new: not enough free space" "$tmp/err" && [ ! -e "$tmp/small/new" ] \
	&& ok "--size over the free space refused, nothing created" || bad "--size over the free space: rc $rc $(cat "$tmp/err")"
# a read-only filesystem
mount -o remount,ro "$tmp/small"
"$bin" run "$tmp/small/sparse" "${q[@]}" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "sparse: on a read-only filesystem; nothing was written" "$tmp/err" \
	&& ok "file on a read-only filesystem refused" || bad "read-only filesystem: rc $rc $(cat "$tmp/err")"
umount "$tmp/small"

# nothing in use any more: --force writes the device over its signature
"$bin" run "$dev" --destructive --force --seq-bytes 8MiB "${q[@]}" && ok "--force writes once nothing uses it" || bad "--force did not write"

echo "$passes passed, $fails failed"
[ $fails = 0 ]

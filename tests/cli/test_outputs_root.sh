#!/usr/bin/env bash
# Outputs onto what only root can set up (docs/safety.md, "Outputs"): a block
# device, a device node made with mknod, a filesystem image that is mounted
# through a loop device, a file backing a loop device, and a full tmpfs.
# Each is refused (or fails) with exit 1 and one line, and nothing changes.
# Needs root; exits 77 (skipped) with the reason otherwise.
set -u
bin=$(realpath "$1")
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for loop devices, mknod and mounts"; exit 77; }
for c in losetup mkfs.ext4 mknod; do
	command -v $c >/dev/null || { echo "SKIP: $c missing (util-linux, e2fsprogs, coreutils)"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-outputs-root.XXXXXX")
loops=() mounts=()
cleanup() {
	for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
fails=0 passes=0
ok() { passes=$((passes+1)); echo "ok: $*"; }
bad() { fails=$((fails+1)); echo "FAIL: $*"; }
sum() { sha256sum "$1" | cut -c1-64; }
# refused WHAT WANT VICTIM -- COMMAND...: exit 1, one line naming the reason, VICTIM's data unchanged
refused() {
	local what=$1 want=$2 victim=$3 before after rc lines
	shift 4
	before=$(sum "$victim")
	timeout 60 "$@" >/dev/null 2>"$tmp/err"; rc=$?
	after=$(sum "$victim")
	lines=$(wc -l <"$tmp/err")
	if [ $rc = 1 ] && grep -q -- "$want" "$tmp/err" && [ "$before" = "$after" ] && [ "$lines" = 1 ]; then
		ok "$what: $(cat "$tmp/err")"
	else
		bad "$what: exit $rc, $lines line(s), data $([ "$before" = "$after" ] && echo kept || echo CHANGED): $(cat "$tmp/err")"
	fi
}

"$bin" run sim:tiny-tlc --plan seq --quiet -o t.h5 2>/dev/null || { echo "FAIL: no trace to work on"; exit 1; }

# a loop device's data
truncate -s 16M disk.img
head -c 1M /dev/urandom | dd of=disk.img conv=notrunc status=none
loop=$(losetup -f --show disk.img) || { echo "SKIP: cannot attach a loop device"; exit 77; }
loops+=("$loop")
for c in "export t.h5 --csv --force -o $loop" "import t.h5 --force -o $loop" "analyze t.h5 -o $loop" \
	 "plot t.h5 --force -o $(ln -s "$loop" dev.png; echo dev.png)" "report t.h5 -o $loop"; do
	refused "${c%% *} onto a block device" "block device\|is a block" "$loop" -- "$bin" $c
done
refused "a file backing a loop device" "backs the loop device" disk.img -- "$bin" export t.h5 --csv --force -o disk.img
[ -b "$loop" ] && ok "the loop device is still a device" || bad "$loop is no longer a block device"

# a device node made with mknod, outside /dev
mknod zero c 1 5
refused "a character device node" "character device" t.h5 -- "$bin" export t.h5 --json -o zero
[ -c zero ] && ok "the node is still a character device" || bad "the node was replaced"

# a mounted ext4 image: its file is refused whatever the flags
truncate -s 32M fs.img
mkfs.ext4 -q -F fs.img
mkdir mnt
if mount -o loop fs.img mnt 2>/dev/null; then
	mounts+=("$tmp/mnt")
	refused "the image of a mounted filesystem" "mounted\|backs" fs.img -- "$bin" import t.h5 --force -o fs.img
	umount mnt; mounts=()
else
	echo "skip: cannot mount a loop image here"
fi
# an unmounted one: its signature, unless --force
refused "an ext4 image" "ext4" fs.img -- "$bin" export t.h5 --csv -o fs.img

# a full filesystem: exit 1, the old file intact, nothing left behind
mkdir small
if mount -t tmpfs -o size=64k tmpfs small; then
	mounts+=("$tmp/small")
	echo "the old export" > small/out.csv
	dd if=/dev/zero of=small/fill bs=4k status=none 2>/dev/null   # until the tmpfs is full
	refused "export onto a full tmpfs" "No space left\|cannot write" small/out.csv -- "$bin" export t.h5 --csv -o small/out.csv
	refused "import onto a full tmpfs" "No space left\|cannot\|space" small/out.csv -- "$bin" import t.h5 -o small/new.h5
	refused "a report onto a full tmpfs" "No space left\|cannot\|space" small/out.csv -- "$bin" report t.h5 -o small/rep
	left=$(ls -A small | grep -v '^out.csv$' | grep -v '^fill$')
	[ -z "$left" ] && ok "nothing left on the full tmpfs" || bad "left on the full tmpfs: $left"
	umount small; mounts=()
else
	echo "skip: cannot mount a tmpfs"
fi

echo "$passes passed, $fails failed"
[ $fails = 0 ]

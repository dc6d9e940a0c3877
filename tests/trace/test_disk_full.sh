#!/usr/bin/env bash
# A disk that fills during `run`: exit 1 with one line saying so, no signal
# (HDF5's clean-up at exit), and the trace readable up to its last flush.
# Root only (a small tmpfs); skips with 77 otherwise.
#   test_disk_full.sh SLCSCOPE [NO_FALLOCATE_SHIM.so]
# With the shim (an LD_PRELOAD library whose fallocate() fails with
# EOPNOTSUPP) the run is repeated as on a file system without fallocate.
set -u
bin=$1
shim=${2:-}
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root to mount a small tmpfs"
	exit 77
fi
tmp=$(mktemp -d)
mnt=$tmp/full
mkdir -p "$mnt"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
if ! mount -t tmpfs -o size=3m tmpfs "$mnt"; then
	echo "SKIP: cannot mount a tmpfs"
	exit 77
fi
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# An hour's random curve of the tiny simulated drive sampled every 100 ms:
# 36,000 samples, a 4 MB trace, a few seconds of CPU.
full_run() {
	local label=$1
	shift
	rm -f "$mnt"/*
	env "$@" "$bin" run sim:tiny-tlc --plan rand --rand-time 1h -i 100ms -o "$mnt/x.h5" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	grep -v '^\[' "$tmp/err" >"$tmp/msg"
	if [ "$rc" != 1 ]; then
		bad "$label: exit $rc, not 1: $(cat "$tmp/msg")"
		return
	fi
	if [ "$(wc -l <"$tmp/msg")" != 1 ] || ! grep -q 'No space left on device' "$tmp/msg"; then
		bad "$label: not one line naming the full disk: $(cat "$tmp/msg")"
	fi
	if ! "$bin" export "$mnt/x.h5" --csv >"$tmp/csv" 2>"$tmp/err"; then
		bad "$label: trace unreadable: $(cat "$tmp/err")"
		return
	fi
	n=$(grep -c '^1,' "$tmp/csv")
	# flushes every 2 s of wall time or 4096 samples: most of the run is there
	if [ "$n" -lt 4096 ]; then
		bad "$label: only $n samples of the curve kept"
	fi
	"$bin" analyze "$mnt/x.h5" >/dev/null 2>"$tmp/err" || bad "$label: analyze: $(cat "$tmp/err")"
	# the room reserved for a flush is given back
	used=$(du -k "$mnt/x.h5" | cut -f1)
	size=$(( $(stat -c %s "$mnt/x.h5") / 1024 + 8 ))
	[ "$used" -le "$size" ] || bad "$label: $used KiB allocated for a $size KiB trace"
	echo "ok: $label: exit 1, $(cat "$tmp/msg"); $n samples readable"
}

full_run "full disk"
if [ -n "$shim" ]; then
	full_run "full disk without fallocate" LD_PRELOAD="$shim"
fi
echo "$fails failure(s)"
[ "$fails" = 0 ]

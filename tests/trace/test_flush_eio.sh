#!/usr/bin/env bash
# A trace whose disk starts failing writes with EIO during `run` (an
# LD_PRELOAD library, eio_after.c): exit 1 with one line saying so, no
# signal (HDF5's clean-up at exit once crashed on the file it could not
# flush), and the trace readable up to its last good flush.
#   test_flush_eio.sh SLCSCOPE EIO_SHIM.so
set -u
bin=$1 shim=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-eio.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# An hour's random curve of the tiny simulated drive sampled every 100 ms
# (36,000 samples, a 4 MB trace); the writes fail past AFTER bytes: in the
# first flush of the curve, and later, with thousands of samples flushed.
eio_run() {
	local after=$1 least=$2
	rm -f "$tmp/x.h5"
	SLC_EIO_PATH=/x.h5 SLC_EIO_AFTER=$after LD_PRELOAD=$shim \
		"$bin" run sim:tiny-tlc --plan rand --rand-time 1h -i 100ms -o "$tmp/x.h5" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	grep -v '^\[' "$tmp/err" >"$tmp/msg"
	if [ "$rc" != 1 ]; then
		bad "EIO after $after bytes: exit $rc, not 1: $(cat "$tmp/msg")"
		return
	fi
	if [ "$(wc -l <"$tmp/msg")" != 1 ] || ! grep -q 'Input/output error' "$tmp/msg"; then
		bad "EIO after $after bytes: not one line naming the I/O error: $(cat "$tmp/msg")"
	fi
	if ! "$bin" export "$tmp/x.h5" --csv >"$tmp/csv" 2>"$tmp/err"; then
		bad "EIO after $after bytes: trace unreadable: $(cat "$tmp/err")"
		return
	fi
	n=$(grep -c '^1,' "$tmp/csv")
	if [ "$n" -lt "$least" ]; then
		bad "EIO after $after bytes: only $n samples of the curve kept"
		return
	fi
	if [ "$least" -gt 0 ]; then
		"$bin" analyze "$tmp/x.h5" >/dev/null 2>"$tmp/err" || bad "EIO after $after bytes: analyze: $(cat "$tmp/err")"
	fi
	echo "ok: EIO after $after bytes: exit 1, $(cat "$tmp/msg"); $n samples readable"
}

# the shim must bite: without it the same run writes its trace
SLC_EIO_PATH=/x.h5 SLC_EIO_AFTER=100000000000 LD_PRELOAD=$shim \
	"$bin" run sim:tiny-tlc --plan rand --rand-time 60s -i 100ms -o "$tmp/x.h5" --quiet 2>"$tmp/err" ||
	bad "a run whose writes do not fail failed: $(cat "$tmp/err")"
if grep -q 'cannot be preloaded' "$tmp/err"; then
	echo "FAIL: $(cat "$tmp/err")"
	exit 1
fi
eio_run 200000 0
eio_run 1000000 4096
eio_run 3000000 12000
echo "$fails failure(s)"
[ "$fails" = 0 ]

#!/usr/bin/env bash
# A disk that fills during `report`: exit 1 with one line naming the file
# that could not be written, no "wrote" line, and no file left under a
# report's name: an empty disk keeps no report, a previous complete report
# stays as it was.  Root only (a small tmpfs); skips with 77 otherwise.
#   test_report_disk_full.sh SLCSCOPE
set -u
bin=$1
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root to mount a small tmpfs"
	exit 77
fi
# the checks count stderr lines: keep a sanitizer build's own report of the
# suppressions it used out of them
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-rdf.XXXXXX")
mnt=$tmp/mnt
mkdir -p "$mnt"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# about half a megabyte of report (three curves' graphs, the samples);
# sampled every second, the same report in half that
"$bin" run sim:tiny-tlc --plan seq --interval 100ms -o "$tmp/t.h5" --quiet || { echo "FAIL: run"; exit 1; }
"$bin" run sim:tiny-tlc --plan seq --interval 1s -o "$tmp/s.h5" --quiet || { echo "FAIL: run"; exit 1; }

# exit 1, one line on stderr naming a file of the report, no "wrote"
check_failure() {
	local what=$1 rc=$2 err=$3
	[ "$rc" = 1 ] || bad "$what: exit $rc, not 1"
	[ "$(wc -l <"$err")" = 1 ] || bad "$what: not one line: $(cat "$err")"
	grep -q "^slcscope report: $mnt/r/[^ ]*: " "$err" || bad "$what: the file is not named: $(cat "$err")"
	! grep -q "^wrote" "$err" || bad "$what: 'wrote' for a failed report"
}

# an empty 300 KiB disk: nothing of the report stays
if ! mount -t tmpfs -o size=300k tmpfs "$mnt"; then
	echo "SKIP: cannot mount a tmpfs"
	exit 77
fi
"$bin" report "$tmp/t.h5" -o "$mnt/r" 2>"$tmp/err"
check_failure "empty disk" $? "$tmp/err"
left=$(find "$mnt" -mindepth 1 2>/dev/null)
[ -z "$left" ] && ok "empty disk: nothing left" || bad "empty disk: left $left"
umount "$mnt"

# the small report, then the disk filled to 100 KiB short of full: the
# bigger report, with the same file names, fails and the small one is what
# is there, byte for byte
mount -t tmpfs -o size=2m tmpfs "$mnt" || { echo "FAIL: mount"; exit 1; }
"$bin" report "$tmp/s.h5" -o "$mnt/r" --quiet || { echo "FAIL: the report does not fit in 2 MiB"; exit 1; }
[ -s "$mnt/r/index.html" ] || bad "first report: no index.html"
cp -a "$mnt/r" "$tmp/before"
dd if=/dev/zero of="$mnt/filler" bs=4k status=none 2>/dev/null
truncate -s -100k "$mnt/filler"
"$bin" report "$tmp/t.h5" -o "$mnt/r" 2>"$tmp/err"
check_failure "previous report" $? "$tmp/err"
diff -r "$tmp/before" "$mnt/r" >"$tmp/diff" && ok "previous report: intact" ||
	bad "previous report changed: $(head -5 "$tmp/diff")"
echo "error: $(cat "$tmp/err")"

[ "$fails" = 0 ] && echo "all report disk-full checks passed"
[ "$fails" = 0 ]

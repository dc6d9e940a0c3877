#!/usr/bin/env bash
# slcscope emulate's command line without mounting anything (no root needed):
# help, usage errors (exit 2), failures before the mount (exit 1).
set -u
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-emulcli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() {  # check <exit> <pattern on stdout+stderr> -- args...
	local want=$1 pat=$2; shift 3
	local out rc
	out=$("$bin" "$@" 2>&1); rc=$?
	if [ "$rc" = "$want" ] && grep -qE -- "$pat" <<<"$out"; then
		passes=$((passes+1)); echo "ok: slcscope $* -> $rc"
	else
		fails=$((fails+1)); echo "FAIL: slcscope $* exited $rc (expected $want, /$pat/): $out"
	fi
}
check 0 '^Usage: slcscope emulate MODEL DIR' -- emulate --help
check 0 '^Usage: slcscope emulate MODEL DIR' -- help emulate
check 0 'emulate +serve a simulated drive' -- --help
check 2 'needs a MODEL and a DIR' -- emulate tiny-tlc
check 2 "takes a MODEL and a DIR, got 'x' too" -- emulate tiny-tlc "$tmp/d" x
check 2 "unknown option '--frob'" -- emulate tiny-tlc "$tmp/d" --frob
check 2 "'0' is not a positive factor" -- emulate tiny-tlc "$tmp/d" --time-scale 0
check 2 "'1/0' is not a positive factor" -- emulate tiny-tlc "$tmp/d" --time-scale 1/0
check 2 'size-scale: at most 1' -- emulate tiny-tlc "$tmp/d" --size-scale 2
check 2 'exclude each other' -- emulate tiny-tlc "$tmp/d" --size-scale 1/2 --capacity 1GiB
check 2 "larger than the model's 4294967296 bytes" -- emulate tiny-tlc "$tmp/d" --capacity 8GiB
check 2 'needs --spike-every' -- emulate tiny-tlc "$tmp/d" --spike-ms 5
check 2 'fail-at: ' -- emulate tiny-tlc "$tmp/d" --fail-at 1MiB,zz
check 2 '--log is for --daemon' -- emulate tiny-tlc "$tmp/d" --log "$tmp/l"
check 2 'leaves less than 1048576 bytes' -- emulate tiny-tlc "$tmp/d" --size-scale 1/8192
check 1 "no simulated drive preset 'nosuch'" -- emulate nosuch "$tmp/d"
# the GC reserve does not shrink below whole blocks: refused with the reason, before any mount
check 1 'size scale 0.03125 is too small for this model' -- emulate tiny-tlc "$tmp/d" --size-scale 1/32
check 1 'size scale 0.03125 is too small' -- emulate tiny-tlc "$tmp/d" --size-scale 1/32 --daemon
[ ! -e "$tmp/d" ] && { passes=$((passes+1)); echo "ok: nothing created on failure"; } \
	|| { fails=$((fails+1)); echo "FAIL: $tmp/d created by a failed start"; }
echo "$passes passed, $fails failed"
[ $fails = 0 ]

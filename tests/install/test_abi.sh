#!/usr/bin/env bash
# The ABI check: libslcscope.so as built against the recorded ABI of its
# release (abi/libslcscope.abi, scripts/abi_dump.sh).  A change a program
# built against the release would misread (a struct grown or reordered, a
# function's parameters changed, a symbol removed) fails the test; an
# addition passes with a note.  The library exports the API alone (its
# version script), so its exported functions and the types they reach are
# the ABI.
# Exits 77 without abidiff (Debian package abigail-tools); not run in a
# sanitizer build (its objects are instrumented, not the release's).
set -u
build=$1 src=$2
command -v abidiff >/dev/null || { echo "SKIP: abidiff missing (Debian package abigail-tools)"; exit 77; }
ref=$src/abi/libslcscope.abi
[ -s "$ref" ] || { echo "FAIL: no recorded ABI $ref"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
so=$(ls "$tmp"/lib*/libslcscope.so.*.*.* 2>/dev/null | head -1)
[ -n "$so" ] || { echo "FAIL: no libslcscope.so installed"; exit 1; }
# the opaque types (abi/suppressions.ini) are left out: no program sees inside them
abidiff --exported-interfaces-only --no-show-locs --suppressions "$src/abi/suppressions.ini" "$ref" "$so" >"$tmp/diff" 2>&1
rc=$?
# abidiff sets bit 4 for any change, an addition too: the summary tells a
# function or variable changed or removed (a break) from one added
broken=$(grep -E "changes summary:" "$tmp/diff" | grep -Ev " 0 Removed, 0 Changed(,| \()" || true)
if [ $((rc & 3)) != 0 ]; then
	echo "FAIL: abidiff could not compare (exit $rc):"; head -20 "$tmp/diff"; exit 1
elif [ $((rc & 8)) != 0 ] || [ -n "$broken" ]; then
	echo "FAIL: an incompatible ABI change against $ref:"
	head -60 "$tmp/diff"
	echo "If it is meant: a new minor version in CMakeLists.txt, then scripts/abi_dump.sh."
	exit 1
elif [ $((rc & 4)) != 0 ]; then
	echo "ok: additions only; scripts/abi_dump.sh records them:"
	grep -E "changes summary" "$tmp/diff"
else
	echo "ok: the ABI is the recorded one ($(basename "$so"))"
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Check that the slcscope libraries export their API and nothing else.
#
# Builds every library (the target slcscope_libraries, cmake/SlcscopeLibrary.cmake)
# as shared objects into SCRATCH_DIR, then fails, listing the names, when
#   1. a lib*.so exports a dynamic symbol that is not an API name (slc_
#      followed by a letter or digit): the version script is missing or wrong;
#   2. an object file of a library defines a global symbol without the slc_
#      prefix.  The version script would hide it from the .so, but the
#      default static build hands every global of libslcscope_*.a to the
#      program, where an unprefixed name can collide with the program's own;
#   3. a lib*.so exports an slc_ name that no public header
#      (*/include/slcscope/*.h) declares: a helper shared between a
#      library's own files must be slc__... (kept local by the script).
#
# Usage: scripts/check_exports.sh SOURCE_DIR SCRATCH_DIR [CMAKE_ARGS...]
# SCRATCH_DIR is kept between runs, so a second run only rebuilds what changed.
set -u
src=${1:?usage: check_exports.sh SOURCE_DIR SCRATCH_DIR [CMAKE_ARGS...]}
scratch=${2:?usage: check_exports.sh SOURCE_DIR SCRATCH_DIR [CMAKE_ARGS...]}
shift 2

command -v nm >/dev/null || { echo "SKIP: nm (binutils) not found"; exit 77; }

# Always there in a shared object, never the project's own.
standard='^(_init|_fini|__bss_start|_edata|_end|__data_start|data_start|_IO_stdin_used|__dso_handle|__TMC_END__)$'

log=$scratch.log
if ! cmake -S "$src" -B "$scratch" -DBUILD_SHARED_LIBS=ON -DSLCSCOPE_TESTS=OFF "$@" >"$log" 2>&1; then
	tail -n 30 "$log"
	echo "FAIL: configuring the shared build in $scratch (log: $log)"
	exit 1
fi
if ! cmake --build "$scratch" --target slcscope_libraries -j2 >>"$log" 2>&1; then
	grep -E 'error|undefined reference' "$log" | tail -n 30
	echo "FAIL: building the shared libraries in $scratch (log: $log)"
	exit 1
fi

mapfile -t libs < <(find "$scratch" -name 'lib*.so' -type f | sort)
[ ${#libs[@]} -gt 0 ] || { echo "FAIL: no lib*.so under $scratch"; exit 1; }

# every slc_ name a public header declares
# (version.h is made from version.h.in at configure time)
api=$(find "$src" -path "$src/build*" -prune -o \( -path '*/include/slcscope/*.h' -o -path '*/include/slcscope/*.h.in' \) -print0 |
	xargs -0 grep -ohE '\bslc_[A-Za-z0-9][A-Za-z0-9_]*' | sort -u)

bad=0 checked=0
for so in "${libs[@]}"; do
	name=$(basename "$so" .so)
	target=${name#lib}
	checked=$((checked + 1))

	# 1. what the shared object exports
	exported=$(nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' |
		grep -Ev "$standard" | grep -Ev '^slc_[A-Za-z0-9]' | sort -u)
	if [ -n "$exported" ]; then
		echo "FAIL: $name.so exports names outside the API (slc_ names; neither internal slc__ ones nor unprefixed ones):"
		echo "$exported" | sed 's/^/  /'
		bad=1
	fi

	# 3. exported API names that no public header declares
	undeclared=$(nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' |
		grep -E '^slc_[A-Za-z0-9]' | sort -u | comm -23 - <(echo "$api"))
	if [ -n "$undeclared" ]; then
		echo "FAIL: $name.so exports names no public header declares (internal ones are slc__...):"
		echo "$undeclared" | sed 's/^/  /'
		bad=1
	fi

	# 2. the globals its objects define, before the version script
	objdir=$(find "$scratch" -type d -path "*/CMakeFiles/$target.dir" | head -n 1)
	if [ -z "$objdir" ]; then
		echo "FAIL: no object directory CMakeFiles/$target.dir for $name.so"
		bad=1
		continue
	fi
	unprefixed=$(find "$objdir" -name '*.o' -print0 | sort -z |
		xargs -0 nm -A -g --defined-only | awk 'NF >= 3 && $3 !~ /^slc_/ { print "  " $3 "  (" $1 ")" }' |
		sed "s|$objdir/||; s|\.o:[0-9a-f]*)|)|" | sort -u)
	if [ -n "$unprefixed" ]; then
		echo "FAIL: $target defines globals without the slc_ prefix (rename them slc_/slc__..., or make them static):"
		echo "$unprefixed"
		bad=1
	fi
done

[ $bad -eq 0 ] || exit 1
for so in "${libs[@]}"; do
	echo "ok: $(basename "$so"): $(nm -D --defined-only "$so" | grep -c ' slc_') slc_ symbols exported, nothing else"
done
echo "check_exports: $checked libraries export only their API"

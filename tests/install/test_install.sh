#!/usr/bin/env bash
# Install into a scratch prefix and build programs against the installed
# library as a user would: with pkg-config and with find_package(slcscope).
# The library carries its SONAME and versioned symbols, and a program built
# against it records the symbol version it needs.  The man pages and the bash
# completion are where man and bash-completion look.
set -u
build=$1 src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || fail "cmake --install"
for c in "" $("$tmp/prefix/bin/slcscope" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
	page=$(find "$tmp/prefix" -path "*/man/man1/slcscope${c:+-$c}.1")
	[ -n "$page" ] && grep -q '^\.TH ' "$page" || fail "no man page slcscope${c:+-$c}.1 installed"
done
comp=$(find "$tmp/prefix" -path '*/bash-completion/completions/slcscope')
[ -n "$comp" ] && bash -n "$comp" && grep -q '^complete -F _slcscope slcscope' "$comp" ||
	fail "no bash completion installed in share/bash-completion/completions"
echo "ok: man pages and bash completion installed"
pc=$(find "$tmp/prefix" -name slcscope.pc | head -1)
[ -n "$pc" ] || fail "no slcscope.pc installed"
lib=$(dirname "$(dirname "$pc")")
so=$(ls "$lib"/libslcscope.so.*.*.* 2>/dev/null | head -1)
[ -n "$so" ] || fail "no libslcscope.so.X.Y.Z installed in $lib"
major=$(grep -o 'SLCSCOPE_VERSION_MAJOR [0-9]*' "$tmp/prefix/include/slcscope/version.h" | grep -o '[0-9]*$')
minor=$(grep -o 'SLCSCOPE_VERSION_MINOR [0-9]*' "$tmp/prefix/include/slcscope/version.h" | grep -o '[0-9]*$')
readelf -d "$so" | grep -q "SONAME.*\[libslcscope\.so\.$major\]" || fail "SONAME is not libslcscope.so.$major: $(readelf -d "$so" | grep SONAME)"
# every exported function is versioned, and nothing but the API is exported
nm -D --defined-only --with-symbol-versions "$so" | awk '$2 ~ /[TDBR]/ {print $3}' >"$tmp/syms"
[ -s "$tmp/syms" ] || fail "no exported symbols"
bad=$(grep -v "^slc_[a-z0-9].*@@SLCSCOPE_$major\.$minor$" "$tmp/syms" | grep -v "^SLCSCOPE_$major\.$minor@@" | head -3)
[ -z "$bad" ] || fail "exported without the API's version node: $bad"
echo "ok: $(basename "$so"): SONAME libslcscope.so.$major, $(wc -l <"$tmp/syms") symbols @@SLCSCOPE_$major.$minor"

export LD_LIBRARY_PATH=$lib
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs slcscope) || fail "pkg-config"
cc -std=c11 -D_GNU_SOURCE -o "$tmp/cache_size" "$src/examples/cache_size.c" $flags || fail "build with pkg-config"
nm -D --with-symbol-versions "$tmp/cache_size" | grep -q "U slc_.*@SLCSCOPE_$major\.$minor" ||
	fail "the program does not record the symbol version it needs"
out=$("$tmp/cache_size" sim:tiny-mlc) || fail "the example failed: $out"
echo "ok: pkg-config: $out"
cc -std=c11 -D_GNU_SOURCE -o "$tmp/drive_health" "$src/examples/drive_health.c" $flags || fail "build drive_health"
out=$("$tmp/drive_health" sim:tiny-tlc) || fail "drive_health failed: $out"
echo "$out" | grep -q "^write amplification of the pass: 1\.0" || fail "drive_health said: $out"
echo "ok: drive_health: $(echo "$out" | tail -1)"
# the version the headers say is the library's
cat >"$tmp/v.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "slcscope/version.h"
int main(void)
{
	printf("%s\n", slc_version());
	return strcmp(slc_version(), SLCSCOPE_VERSION_STRING) || slc_version_number() != SLCSCOPE_VERSION_NUMBER;
}
C
cc -std=c11 -o "$tmp/v" "$tmp/v.c" $flags && "$tmp/v" >/dev/null || fail "slc_version() differs from version.h"

cmake -S "$src/examples/find_package" -B "$tmp/fp" -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/fp.log" 2>&1 ||
	fail "find_package(slcscope): $(tail -5 "$tmp/fp.log")"
cmake --build "$tmp/fp" >>"$tmp/fp.log" 2>&1 || fail "build with find_package: $(tail -5 "$tmp/fp.log")"
out=$("$tmp/fp/cache_size" sim:tiny-mlc) || fail "the find_package build failed: $out"
echo "ok: find_package: $out"
[ -x "$tmp/prefix/bin/slcscope" ] && "$tmp/prefix/bin/slcscope" --version || fail "no slcscope installed"
echo "5 passed, 0 failed"

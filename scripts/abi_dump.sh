#!/usr/bin/env bash
# Record the ABI of libslcscope.so as built in BUILD (default: build) into
# abi/libslcscope.abi, the reference the ctest abi_check compares every
# build with.  Run it when a release changes the ABI on purpose, together
# with a new minor version (0.x) in CMakeLists.txt (docs/design.md, "The
# library's ABI").  Needs abidw (Debian package abigail-tools).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp" >/dev/null
so=$(ls "$tmp"/lib*/libslcscope.so.*.*.* | head -1)
abidw --headers-dir "$tmp/include/slcscope" --no-corpus-path --no-show-locs --out-file "$here/abi/libslcscope.abi" "$so"
echo "abi_dump.sh: abi/libslcscope.abi from $(basename "$so")"

#!/usr/bin/env bash
# Install into a scratch prefix: the man pages and the bash completion in
# place, and an example built against the installed headers, libraries and
# slcscope.pc, as a user of the library would.
set -u
build=$1 src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
# the man pages and the bash completion, where man and bash-completion look
for c in "" $("$tmp/prefix/bin/slcscope" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
	page=$(find "$tmp/prefix" -path "*/man/man1/slcscope${c:+-$c}.1")
	[ -n "$page" ] && grep -q '^\.TH ' "$page" || { echo "FAIL: no man page slcscope${c:+-$c}.1 installed"; exit 1; }
done
comp=$(find "$tmp/prefix" -path '*/bash-completion/completions/slcscope')
[ -n "$comp" ] && bash -n "$comp" && grep -q '^complete -F _slcscope slcscope' "$comp" ||
	{ echo "FAIL: no bash completion installed in share/bash-completion/completions"; exit 1; }
echo "ok: man pages and bash completion installed"
pc=$(find "$tmp/prefix" -name slcscope.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: no slcscope.pc installed"; exit 1; }
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs --static slcscope) || { echo "FAIL: pkg-config"; exit 1; }
cc -std=c11 -D_GNU_SOURCE -o "$tmp/cache_size" "$src/examples/cache_size.c" $flags || { echo "FAIL: build against the install"; exit 1; }
out=$("$tmp/cache_size" sim:tiny-mlc) || { echo "FAIL: the example failed: $out"; exit 1; }
echo "ok: $out"
# the probes library through the same slcscope.pc
cc -std=c11 -D_GNU_SOURCE -o "$tmp/drive_health" "$src/examples/drive_health.c" $flags || { echo "FAIL: build drive_health against the install"; exit 1; }
out=$("$tmp/drive_health" sim:tiny-tlc) || { echo "FAIL: drive_health failed: $out"; exit 1; }
echo "$out" | grep -q "^write amplification of the pass: 1\.0" || { echo "FAIL: drive_health said: $out"; exit 1; }
echo "ok: drive_health: $(echo "$out" | tail -1)"
[ -x "$tmp/prefix/bin/slcscope" ] && "$tmp/prefix/bin/slcscope" --version && echo "3 passed, 0 failed"

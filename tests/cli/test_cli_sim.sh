#!/usr/bin/env bash
# slcscope sim: listing, showing and running the simulated drives from the command line.
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() {  # check <expected-exit> <stdout|stderr> <pattern> -- args...
	local want=$1 stream=$2 pat=$3; shift 4
	local rc text
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	text=$(cat "$tmp/$([ "$stream" = stderr ] && echo err || echo out)")
	if [ "$rc" != "$want" ]; then
		echo "FAIL: slcscope $* exited $rc, expected $want ($(head -2 "$tmp/err"))"; fails=$((fails+1)); return
	fi
	if ! grep -qE -- "$pat" <<<"$text"; then
		echo "FAIL: slcscope $*: $stream lacks /$pat/"; fails=$((fails+1)); return
	fi
	passes=$((passes+1)); echo "ok: slcscope $* -> $rc"
}
check 0 stdout '^sata240-tlc .*\[default\]$' -- sim list
check 0 stdout '^tiny-tlc ' -- sim list
check 0 stdout '^SLC cache +static 268 MB' -- sim show tiny-tlc
check 0 stdout '^model +sata240-tlc' -- sim show sim:
check 0 stdout '^model +tiny-mlc' -- sim show sim:tiny-mlc
check 0 stdout '^Usage: slcscope sim' -- help sim
check 0 stdout '^Usage: slcscope sim' -- sim run --help
check 1 stderr "^slcscope sim: no simulated drive preset 'nosuch'" -- sim show nosuch
check 2 stderr '^slcscope sim: needs a subcommand' -- sim
check 2 stderr "^slcscope sim: unknown subcommand 'frob'" -- sim frob
# a model "file" that is a FIFO is refused at once (it would block the open
# and the read, and Ctrl-C would not end sim run), and nothing is left behind
mkfifo "$tmp/m.fifo"
for args in "sim show" "sim run --quiet -o $tmp/fifo.csv"; do
	# shellcheck disable=SC2086
	if timeout 20 "$bin" ${args%% *} ${args#* } "$tmp/m.fifo" 2>"$tmp/err" >/dev/null ||
	   ! grep -q 'm.fifo: not a regular file, not a model file' "$tmp/err"; then
		echo "FAIL: $args FIFO: $(head -1 "$tmp/err")"; fails=$((fails+1))
	else passes=$((passes+1)); echo "ok: $args FIFO refused"; fi
done
[ -z "$(ls -A "$tmp" | grep -E 'slcscope-|fifo.csv')" ] || { echo "FAIL: left $(ls -A "$tmp")"; fails=$((fails+1)); }
check 2 stderr '^slcscope sim: --bytes: unknown unit' -- sim run tiny-tlc --bytes 12QB
check 2 stderr '^slcscope sim: --bytes: negative size not allowed' -- sim run tiny-tlc --bytes -5G
check 2 stderr '^slcscope sim: --bytes: size too large \(over 2\^64\)' -- sim run tiny-tlc --bytes 99999999999999999999
check 2 stderr '^slcscope sim: --bs: .*bits' -- sim run tiny-tlc --bs 4kb
check 2 stderr '^slcscope sim: --qd: ' -- sim run tiny-tlc --qd 0
check 2 stderr '^slcscope sim: --time: unknown duration unit' -- sim run tiny-tlc --time 5parsecs
check 2 stderr '^slcscope sim: --interval: from 10ms to 1h' -- sim run tiny-tlc --interval 1ms
check 2 stderr '^slcscope sim: run needs a MODEL' -- sim run
check 2 stderr "^slcscope sim: unknown option '--frob'" -- sim run tiny-tlc --frob
# a malformed model file: one line naming the field, exit 1
printf '{"schema": "slcscope.sim-model/1", "name": "x", "capacity_bytes": "big"}' >"$tmp/bad.json"
check 1 stderr "bad.json: capacity_bytes must be a number" -- sim run "$tmp/bad.json"
[ "$(wc -l <"$tmp/err")" = 1 ] || { echo "FAIL: bad model gave more than one line"; fails=$((fails+1)); }
check 1 stderr "cannot open the model file" -- sim run "$tmp/missing.json"
# a real run: CSV on stdout, events and summary on stderr
check 0 stdout '^time_s,interval_s,bytes_total,ios,' -- sim run tiny-tlc -w rand --bytes 512MiB --interval 100ms
grep -Eq '^event cache_exhausted +at ' "$tmp/err" || { echo "FAIL: no cache_exhausted event"; fails=$((fails+1)); }
grep -q 'write amplification' "$tmp/err" || { echo "FAIL: no summary"; fails=$((fails+1)); }
rows=$(($(wc -l <"$tmp/out") - 1))
[ "$rows" -ge 10 ] || { echo "FAIL: only $rows samples"; fails=$((fails+1)); }
last=$(tail -1 "$tmp/out" | cut -d, -f3)
[ "$last" = 536870912 ] || { echo "FAIL: last bytes_total $last, expected 536870912"; fails=$((fails+1)); }
# same seed, same output byte for byte; another seed differs
"$bin" sim run tiny-tlc -w rand --bytes 256MiB --seed 9 -o "$tmp/a.csv" --quiet
"$bin" sim run tiny-tlc -w rand --bytes 256MiB --seed 9 -o "$tmp/b.csv" --quiet
"$bin" sim run tiny-tlc -w rand --bytes 256MiB --seed 10 -o "$tmp/c.csv" --quiet
cmp -s "$tmp/a.csv" "$tmp/b.csv" && passes=$((passes+1)) || { echo "FAIL: same seed, different output"; fails=$((fails+1)); }
cmp -s "$tmp/a.csv" "$tmp/c.csv" && { echo "FAIL: different seeds, same output"; fails=$((fails+1)); } || passes=$((passes+1))
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]

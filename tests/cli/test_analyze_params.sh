#!/usr/bin/env bash
# slcscope analyze --model-params: a file of name = value lines changes the
# phase model's reading; a bad file is one line naming the line, exit 2;
# --explain names the parameter each prior term comes from.
set -u
bin=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
curve=$data/analysis/close_ratio.csv

# the defaults: a cache at 0.70 of its speed after it, and why
if "$bin" analyze --explain "$curve" >"$tmp/out" 2>"$tmp/err" && grep -q "SLC cache: 630 GB" "$tmp/out" &&
	grep -q "most drives have an SLC cache (prior_cache +1.4)" "$tmp/out" &&
	grep -q "(cache_native_\* +0.0)" "$tmp/out"; then
	ok "defaults, the parameters named in the explanation"
else
	bad "defaults: $(cat "$tmp/out" "$tmp/err")"
fi

# the same values from a file: the same output
printf '# the defaults\ndelta_cache = 0.15\nprior_cache = 0.8\n' >"$tmp/same.txt"
"$bin" analyze "$curve" >"$tmp/a" 2>&1
"$bin" analyze --model-params "$tmp/same.txt" "$curve" >"$tmp/b" 2>&1
if cmp -s "$tmp/a" "$tmp/b"; then ok "a file of the defaults changes nothing"; else bad "defaults from a file differ"; fi

# a cache must be 50% faster than what follows: this one is not
printf 'delta_cache = 0.5   # a cache is a step of 50%%\n' >"$tmp/step.txt"
if "$bin" analyze --model-params "$tmp/step.txt" "$curve" >"$tmp/out" 2>&1 && grep -q "SLC cache: none seen" "$tmp/out"; then
	ok "delta_cache = 0.5: no cache"
else
	bad "delta_cache = 0.5: $(cat "$tmp/out")"
fi

# bad files: one line on stderr naming the file and line, exit 2, nothing on stdout
refused() {
	local what=$1 text=$2 want=$3 rc
	printf '%b' "$text" >"$tmp/bad.txt"
	"$bin" analyze --model-params "$tmp/bad.txt" "$curve" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "bad.txt:$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "refused: $what"
	else
		bad "$what: rc $rc, $(cat "$tmp/err")"
	fi
}
refused "an unknown name" 'prior_cache = 0.5\nno_such = 1\n' "2: unknown parameter 'no_such'"
refused "not a number" '# x\nstep_t = nan\n' "2: step_t: 'nan' is not a finite number"
refused "trailing junk" 'step_t = 10 s\n' "1: step_t: '10 s' is not a finite number"
refused "out of range" 'prior_cache = 1\n' "1: prior_cache = 1 is out of range"
"$bin" analyze --model-params "$tmp/none.txt" "$curve" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "none.txt: No such file" "$tmp/err"; then ok "refused: no file"; else bad "no file: rc $rc"; fi
refused "a name of raw bytes, shown escaped" 'x\xff\x01y = 3\n' "1: unknown parameter 'x\\\\xff\\\\x01y'"
# what is no parameter file is refused at once, never read until it ends
mkfifo "$tmp/fifo"
for f in "$tmp/fifo" /dev/zero "$tmp"; do
	timeout 10 "$bin" analyze --model-params "$f" "$curve" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -Eq "not a regular file|a directory" "$tmp/err"; then ok "refused: $f"; else bad "$f: rc $rc, $(cat "$tmp/err")"; fi
done
head -c 2000000 /dev/zero | tr '\0' '#' >"$tmp/huge.txt"
"$bin" analyze --model-params "$tmp/huge.txt" "$curve" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "larger than a parameter file" "$tmp/err"; then ok "refused: 2 MB"; else bad "2 MB: rc $rc, $(cat "$tmp/err")"; fi
if "$bin" analyze --help | grep -q -- "--model-params FILE"; then ok "--help"; else bad "--help lacks --model-params"; fi

[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }

#!/usr/bin/env bash
# The command-line frame: help, version, unknown commands and options, exit codes.
set -u
bin=$1
fails=0
check() {  # check <expected-exit> <stdout|stderr> <pattern> -- args...
	local want=$1 stream=$2 pat=$3; shift 4
	local out err rc
	out=$("$bin" "$@" 2>/tmp/cli_frame_err.$$); rc=$?
	err=$(cat /tmp/cli_frame_err.$$)
	local text=$out; [ "$stream" = stderr ] && text=$err
	if [ "$rc" != "$want" ]; then
		echo "FAIL: slcscope $* exited $rc, expected $want (stderr: $err)"; fails=$((fails+1)); return
	fi
	if ! grep -qE -- "$pat" <<<"$text"; then
		echo "FAIL: slcscope $*: $stream lacks /$pat/: $text"; fails=$((fails+1)); return
	fi
	echo "ok: slcscope $* -> $rc"
}
check 0 stdout '^Usage: slcscope <command>' -- --help
check 0 stdout '^Usage: slcscope <command>' -- -h
check 0 stdout '^Usage: slcscope <command>' -- help
check 0 stdout '^slcscope [0-9]+\.[0-9]+\.[0-9]+$' -- --version
check 0 stdout '^slcscope [0-9]+\.[0-9]+\.[0-9]+$' -- -V
check 2 stderr "^slcscope: unknown command 'frobnicate'$" -- frobnicate
check 2 stderr "^slcscope: unknown option '--frob'$" -- --frob
check 2 stderr "^slcscope: unknown command 'nope'$" -- help nope
check 2 stderr 'Usage: slcscope' --
# one line of reason, then one line pointing at the help
n=$("$bin" frobnicate 2>&1 >/dev/null | wc -l)
[ "$n" = 2 ] || { echo "FAIL: unknown command printed $n lines"; fails=$((fails+1)); }
rm -f /tmp/cli_frame_err.$$
echo "$((fails == 0 ? 1 : 0)) passed, $fails failed"
[ "$fails" = 0 ]

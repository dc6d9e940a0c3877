#!/usr/bin/env bash
# The man pages the build made (BUILD/man): one per command of slcscope
# --help and slcscope(1), as 'slcscope help --man' prints them now, rendered
# by man(1) and groff without a warning, each listing every option of the
# command's --help.
# usage: test_man.sh SLCSCOPE BUILD_DIR
set -u
bin=$1 dir=$2/man
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v man >/dev/null && command -v groff >/dev/null || { echo "SKIP: man or groff missing (man-db, groff)"; exit 77; }

cmds=$("$bin" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$cmds" ] || { echo "FAIL: no commands in slcscope --help"; exit 1; }
for c in "" $cmds; do
	page=$dir/slcscope${c:+-$c}.1
	name=slcscope${c:+ $c}
	[ -f "$page" ] || { fail "$name: no $page"; continue; }
	cmp -s "$page" <("$bin" help --man $c) || fail "$name: $page is not what 'slcscope help --man $c' prints"
	warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l --warnings -E UTF-8 "$page" 2>&1 >/dev/null)
	[ -z "$warn" ] || fail "$name: man warns: $warn"
	warn=$(groff -man -ww -z "$page" 2>&1)
	[ -z "$warn" ] || fail "$name: groff warns: $warn"
	text=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l -E UTF-8 "$page" 2>/dev/null | col -bx)
	grep -q "^NAME" <<<"$text" && grep -q "^SYNOPSIS" <<<"$text" || fail "$name: no NAME or SYNOPSIS"
	opts=$("$bin" help $c | sed -nE 's/^  (-[[:alnum:]], |    )(--[[:alnum:]][[:alnum:]-]*).*/\2/p')
	n=0
	for o in $opts; do
		n=$((n + 1))
		grep -qE -- "(^|[ ,])$o([ =[]|$)" <<<"$text" || fail "$name: $o of its --help is not in $page"
	done
	# the main page names every command and every page names slcscope(1) or the commands
	if [ -z "$c" ]; then
		for k in $cmds; do grep -qE "^ +$k( |$)" <<<"$text" || fail "slcscope(1) lacks the command $k"; done
	fi
	grep -q "slcscope" <<<"$(sed -n '/^SEE ALSO/,$p' <<<"$text")" || fail "$name: no SEE ALSO"
	echo "ok: $page: $n options"
done
[ "$fails" = 0 ] && echo "man pages complete, no warnings" || exit 1

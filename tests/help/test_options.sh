#!/usr/bin/env bash
# Every command's options: those getopt_long() is given ('slcscope help
# --options CMD') are the ones its --help lists, each one is accepted by the
# command (no "unknown option"), and cli/ builds no getopt table of its own.
# usage: test_options.sh SLCSCOPE SOURCE_DIR
set -u
bin=$1 src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The long options of a --help text: the first "--name" of each option line
# ("  -o, --output FILE", "      --lab[=DB]"), never the prose.
documented() {
	"$bin" help "$1" | sed -nE 's/^  (-[[:alnum:]], |    )(--[[:alnum:]][[:alnum:]-]*).*/\2/p' | sort -u
}

cmds=$("$bin" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$cmds" ] || { echo "FAIL: no commands in slcscope --help"; exit 1; }
for c in $cmds; do
	before=$fails
	parsed=$("$bin" help --options "$c" | sort -u)
	doc=$(documented "$c")
	[ -n "$parsed" ] || fail "$c: help --options printed nothing"
	# --help is taken before the command's parser; export and probe also list it
	extra=$(comm -23 <(echo "$parsed") <(echo "$doc"))
	missing=$(comm -13 <(echo "$parsed") <(echo "$doc" | grep -vx -- --help))
	[ -z "$extra" ] || fail "$c: parsed but not in its --help:" $extra
	[ -z "$missing" ] || fail "$c: in its --help but not parsed:" $missing
	# each option reaches the command's own checks (a value where it takes one)
	for o in $parsed; do
		[ "$o" = --help ] && continue
		case $c in sim) pre=(sim run) ;; *) pre=("$c") ;; esac
		err=$(timeout 20 "$bin" "${pre[@]}" "$o=x" </dev/null 2>&1 >/dev/null)
		if grep -qE "(unknown|unrecognized) option|doesn't allow an argument" <<<"$err"; then
			err=$(timeout 20 "$bin" "${pre[@]}" "$o" </dev/null 2>&1 >/dev/null)
			grep -qE "(unknown|unrecognized) option" <<<"$err" && fail "$c $o: refused: $err"
		fi
	done
	[ "$fails" = "$before" ] && echo "ok: $c: $(echo "$parsed" | wc -l) options, all in its --help and accepted"
done
# getopt tables are made from the descriptions only (helpgen/, cli_getopt())
tables=$(grep -nE 'struct option [[:alnum:]_]+\[[^]]*\] *= *\{|\(struct option\) *\{' "$src"/cli/*.c)
[ -z "$tables" ] || fail "a getopt table written by hand in cli/: $tables"
[ "$fails" = 0 ] && echo "all options documented and parsed" || exit 1

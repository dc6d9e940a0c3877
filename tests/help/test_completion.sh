#!/usr/bin/env bash
# The bash completion the build made (BUILD/slcscope.bash): sourced into this
# shell, _slcscope called as bash calls it (COMP_WORDS, COMP_CWORD), its
# COMPREPLY checked for commands, options, option values, sim: presets,
# devices and files.  The script is the one 'slcscope help --completion' prints now.
# usage: test_completion.sh SLCSCOPE BUILD_DIR
set -u
bin=$1 script=$(cd "$2" && pwd)/slcscope.bash
fails=0
[ -f "$script" ] || { echo "FAIL: no $script"; exit 1; }
cmp -s "$script" <("$bin" help --completion) || { echo "FAIL: $script is not what 'slcscope help --completion' prints"; exit 1; }
# shellcheck source=/dev/null
source "$script" || { echo "FAIL: sourcing $script"; exit 1; }
PATH=$(cd "$(dirname "$bin")" && pwd):$PATH     # the script asks 'slcscope sim list'
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-completion.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" && touch trace.h5 notes.txt && mkdir reports

# complete WORD... : COMPREPLY for the last word, one a line, sorted
complete() {
	COMP_WORDS=(slcscope "$@")
	COMP_CWORD=$#
	COMP_LINE="slcscope $*" COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_slcscope
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
# expect [exactly|has|lacks|empty] WANT -- WORD... (WANT: words separated by spaces)
expect() {
	local how=$1 want=$2 got w; shift 3
	got=$(complete "$@")
	case $how in
	exactly) [ "$got" = "$(tr ' ' '\n' <<<"$want" | sort)" ] ;;
	has) for w in $want; do grep -qxF -- "$w" <<<"$got" || false; done ;;
	lacks) for w in $want; do ! grep -qxF -- "$w" <<<"$got" || false; done ;;
	empty) [ -z "$got" ] ;;
	esac
	if [ $? = 0 ]; then
		echo "ok: slcscope $*<TAB> $how $want"
	else
		echo "FAIL: slcscope $*<TAB>: expected $how '$want', got: $(echo $got)"; fails=$((fails + 1))
	fi
}
expect exactly "run report" -- r
expect has "help run analyze plot report lab probe sim emulate import export --help --version" -- ''
expect exactly "--plan" -- run --pl
expect has "lab seq rand qd-sweep short" -- run --plan ''
expect exactly "lab" -- run -p la
expect has "sim:tiny-tlc sim:tiny-mlc" -- run sim:tiny-
expect lacks "sim:sata240-tlc" -- run sim:tiny-
expect has "sim:tiny-tlc" -- run --plan seq -q 4 sim:tiny-
expect has "sim: null:" -- run ''
expect exactly "--quiet" -- run --qui
expect empty "" -- run --qd ''
expect has "trace.h5 notes.txt" -- run -o ''
expect exactly "reports" -- run --report re
expect has "add list show rank compare site" -- lab ''
expect exactly "show site" -- lab s
expect has "cache cache-speed post-cache whole-drive recovery tgbw" -- lab rank --by ''
expect exactly "cache cache-speed" -- lab rank --by cach
expect exactly "list show run" -- sim ''
expect has "tiny-tlc" -- sim show tiny-
expect has "tiny-tlc" -- sim run tiny-
expect exactly "seq rand" -- sim run tiny-tlc --workload ''
expect has "tiny-tlc" -- emulate tiny-
expect exactly "reports" -- emulate tiny-tlc re
expect exactly "trace.h5" -- analyze tr
expect exactly "trace.h5" -- report -o reports tr
expect exactly "curve compare compress" -- plot --kind c
expect exactly "--binary" -- lab list --json --bi
expect has "--time-col --ddir-col" -- import --
expect has "run sim" -- help ''
# --opt=VALUE as bash splits it: --opt, =, VALUE
expect has "lab seq" -- run --plan = ''
expect has "trace.h5" -- run --lab = ''
# with bash-completion, as an installed script runs: sim:MODEL is split at
# ':' by bash and joined again, the reply is what follows the ':'
bc=/usr/share/bash-completion/bash_completion
if [ -f "$bc" ]; then
	got=$(source "$bc" && source "$script" && COMP_WORDS=(slcscope run sim : tiny-t) COMP_CWORD=4 \
	      COMP_LINE="slcscope run sim:tiny-t" && COMP_POINT=${#COMP_LINE} && _slcscope && printf '%s\n' "${COMPREPLY[@]}")
	if grep -qx "tiny-tlc" <<<"$got"; then echo "ok: with bash-completion: slcscope run sim:tiny-t<TAB> has tiny-tlc"
	else echo "FAIL: with bash-completion: slcscope run sim:tiny-t<TAB> gave: $(echo $got)"; fails=$((fails + 1)); fi
else
	echo "note: bash-completion not installed ($bc): its word splitting not tried"
fi
# block devices for run's TARGET, as the system has them
dev=$(ls -d /dev/sd* /dev/nvme*n* /dev/vd* /dev/loop[0-9]* 2>/dev/null | while read -r d; do [ -b "$d" ] && echo "$d"; done | head -1)
if [ -n "$dev" ]; then
	expect has "$dev" -- run /dev/
	expect has "$dev" -- probe /dev/
else
	echo "note: no block device here to complete"
fi
[ "$fails" = 0 ] && echo "completion as expected" || exit 1

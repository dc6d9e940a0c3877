#!/usr/bin/env bash
# summary.md of a trace whose model, target, command line, step and data
# pattern are full of Markdown and HTML: every such character escaped, so
# the text reads as it was recorded and nothing in it becomes markup; the
# file starts with its title line.
#   test_report_markdown.sh SLCSCOPE TRACE_WRITER
set -u
bin=$1 writer=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-rmd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$writer" "$tmp/t.h5" hostile || { echo "FAIL: trace_writer"; exit 1; }
"$bin" report "$tmp/t.h5" -o "$tmp/r" --quiet || { echo "FAIL: report"; exit 1; }
md=$tmp/r/summary.md

# the model's control characters (a line break, a bold marker) are turned
# into '?' when the trace is read
title='# \# Evil \*bold\* \_it\_ \`code\` \[l\](http://x) \<img src=x\> a\|b \\ \&amp; \~\~s\~\~?next?, 240 GB'
first=$(head -n 1 "$md")
[ "$first" = "$title" ] && ok "starts with the escaped title" || bad "first line: '$first'"

# whole lines, as they must read
expect() {
	grep -qxF -- "$2" "$md" && ok "$1" || { bad "$1: no line '$2'"; grep -n -- "$3" "$md" | sed 's/^/  /'; }
}
expect "model in the identity table" \
	'| model | \# Evil \*bold\* \_it\_ \`code\` \[l\](http://x) \<img src=x\> a\|b \\ \&amp; \~\~s\~\~?next? |' '^| model'
expect "command line" 'Command line: slcscope run --plan \*seq\*\_x\_ \`rm -rf /\` \[a\](b) \<i\>i\</i\> \| c' '^Command line'
grep -qF -- 'Plan: \*seq\*\_x\_. Run on ' "$md" && ok "plan" || bad "plan: $(grep '^Plan' "$md")"
grep -qF -- ' Target: sim:\<b\>t\</b\>\|\#t.' "$md" && ok "target" || bad "target: $(grep 'Target' "$md")"
grep -qF -- '| 1 s | random \<u\>\|\</u\> | 5 min | - |' "$md" && ok "data pattern cell" ||
	bad "data pattern: $(grep '^| Write curve' "$md")"
# the step is free text too; the graphs it names are linked by sanitised names
grep -qF '](curve-0-_______x__y___z___w_.png)' "$md" && ok "graph linked by its sanitised name" ||
	bad "graph link: $(grep -n 'curve-0' "$md" | head -n 2)"
# every table row keeps its columns: 2 or 8 cells, never more
awk -F ' \\| ' '/^\| / && !/^\|---/ { n = split($0, c, / \| /); if (n != 2 && n != 8) { print "  " NR ": " $0; bad = 1 } }
	END { exit bad }' "$md" && ok "table rows keep their columns" || bad "a table row split by a '|' from the trace"
# and the page: nothing of it taken as HTML
! grep -qE '<img src=x>|<b>t</b>|<u>\|</u>|<i>i</i>' "$tmp/r/index.html" && ok "index.html escapes the same text" ||
	bad "index.html: raw markup from the trace"

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all passed"

#!/usr/bin/env bash
# Every command's outputs (docs/safety.md, "Outputs"): what -o and report
# directories refuse, and that a refused or failed write changes nothing
# (checksums before and after).  Unprivileged; the devices, mounts and full
# filesystems are in test_outputs_root.sh.
set -u
bin=$(realpath "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-outputs.XXXXXX")
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$tmp" || exit 1
fails=0 passes=0
ok() { passes=$((passes+1)); echo "ok: $*"; }
bad() { fails=$((fails+1)); echo "FAIL: $*"; }
sum() { [ -f "$1" ] && sha256sum "$1" 2>/dev/null | cut -c1-64 | tr -d '\n'; }  # never a FIFO or device
# refused WHAT EXPECT-IN-MESSAGE VICTIM -- COMMAND...: exit 1, the reason on one line, the victim unchanged
refused() {
	local what=$1 want=$2 victim=$3 before after rc lines
	shift 4
	before=$(sum "$victim"; stat -c '%F %s' "$victim" 2>/dev/null)
	timeout 20 "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	after=$(sum "$victim"; stat -c '%F %s' "$victim" 2>/dev/null)
	lines=$(wc -l <"$tmp/err")
	if [ $rc = 1 ] && grep -q -- "$want" "$tmp/err" && [ "$before" = "$after" ] && [ "$lines" = 1 ]; then
		ok "$what: $(cat "$tmp/err")"
	else
		bad "$what: exit $rc (want 1), $lines line(s), victim $([ "$before" = "$after" ] && echo kept || echo CHANGED): $(cat "$tmp/err")"
	fi
}
leftovers() { find "$tmp" \( -name '.slcscope-*' -o -name '*.slcscope-*' -o -name '*.tmp*' \) ! -name .slcscope-report; }

"$bin" run sim:tiny-tlc --plan seq --quiet -o t.h5 2>/dev/null || { echo "FAIL: no trace to work on"; exit 1; }

# the output is one of the inputs
for c in "export t.h5 --json -o t.h5" "export t.h5 --csv --force -o t.h5" "export t.h5 --tidy --force -o t.h5" \
	 "import t.h5 -o t.h5" \
	 "import t.h5 --force -o t.h5" "analyze t.h5 -o t.h5" "plot t.h5 -o t.h5.png"; do
	[ "$c" = "plot t.h5 -o t.h5.png" ] && continue
	refused "$c" "that is the input" t.h5 -- "$bin" $c
done
ln -s t.h5 alias.h5
refused "import through a link to the input" "that is the input" t.h5 -- "$bin" import alias.h5 -o t.h5
refused "import onto a link to the input" "that is the input" t.h5 -- "$bin" import t.h5 -o alias.h5

# files an input brings in, and a second output of the same command
"$bin" export t.h5 --csv -o in.csv
refused "--layout-json onto the input" "that is the input" in.csv -- "$bin" plot in.csv -o g.png --layout-json in.csv
refused "--layout-json onto the graph" "the graph's file" in.csv -- "$bin" plot t.h5 -o g2.svg --layout-json g2.svg
printf '1000, 100000, 0, 4096\n2000, 100000, 0, 4096\n3000, 100000, 0, 4096\n' > job_bw.1.log
cp job_bw.1.log job_bw.2.log
refused "analyze onto a fio log its input brings in" "read with the input" job_bw.2.log -- \
	"$bin" analyze job_bw.1.log -o job_bw.2.log
echo keep > log.txt
refused "-o /dev/stdout onto a redirected file" "open file descriptor" log.txt -- \
	sh -c 'exec "$0" export t.h5 --csv -o /dev/stdout >> log.txt' "$bin"
# run's -o is checked before the target is opened, in a dry run too
refused "run -n into a missing directory" "no directory" t.h5 -- "$bin" run sim:tiny-tlc -n -o nodir/x.h5
refused "run -n onto a FIFO" "FIFO" t.h5 -- sh -c 'mkfifo run.fifo && exec "$0" run sim:tiny-tlc -n -o run.fifo' "$bin"
"$bin" run sim:tiny-tlc -n --plan seq -o newrep/x.h5 --report newrep >/dev/null 2>"$tmp/err" && [ ! -e newrep ] &&
	ok "run -n -o inside a --report directory still to make" || bad "run -n -o inside --report: $(cat "$tmp/err")"
for t in "sim:tiny-tlc" "sim:tiny-tlc sim:tiny-qlc2"; do   # several drives' directory is made after every check
	"$bin" run $t -n --plan seq -o newtraces/ >/dev/null 2>"$tmp/err" && [ ! -e newtraces ] &&
		ok "run -n $t -o DIR/ still to make" || bad "run -n $t -o DIR/: $(cat "$tmp/err")"
done
ln -s loop1 loop2; ln -s loop2 loop1
refused "a loop of links" "loop of symbolic links" t.h5 -- "$bin" export t.h5 --csv -o loop1
long=$(printf 'a%.0s' $(seq 240)).csv
"$bin" export t.h5 --csv -o "$long" 2>"$tmp/err" && ok "a 244-byte name is written" || bad "a long name: $(cat "$tmp/err")"
"$bin" report t.h5 -o slash/ --quiet 2>"$tmp/err" && [ -f slash/index.html ] && ok "a new report directory given as DIR/" \
	|| bad "report -o DIR/: $(cat "$tmp/err")"

# not a regular file
mkfifo fifo
refused "export into a FIFO (no hang)" "it is a FIFO" fifo -- "$bin" export t.h5 --csv -o fifo
refused "the tidy export into a FIFO (no hang)" "it is a FIFO" fifo -- "$bin" export t.h5 --tidy -o fifo
mkdir adir
refused "export onto a directory" "it is a directory" adir -- "$bin" export t.h5 --csv -o adir
ln -s nowhere dangling
refused "a dangling link" "symbolic link to a missing file" dangling -- "$bin" export t.h5 --csv -o dangling
refused "/dev/null" "character device" /dev/null -- "$bin" export t.h5 --csv -o /dev/null
refused "/dev/full" "character device" /dev/full -- "$bin" analyze t.h5 -o /dev/full
refused "a link to /dev/null" "character device" /dev/null -- "$bin" export t.h5 --csv -o "$(ln -s /dev/null devnull; echo devnull)"
refused "a new file in /dev" "a new file in /dev" /dev/null -- "$bin" export t.h5 --csv -o /dev/slcscope-test.csv
[ -e /dev/slcscope-test.csv ] && bad "a file was created in /dev"
refused "a missing directory" "no directory" t.h5 -- "$bin" export t.h5 --csv -o nodir/x.csv
refused "a graph to stdout" "not text" t.h5 -- "$bin" import t.h5 -o -

# foreign formats, unless --force
cp /bin/true elf
refused "export over a program" "binary data" elf -- "$bin" export t.h5 --csv -o elf
refused "import over a program" "not an slcscope trace" elf -- "$bin" import t.h5 -o elf
echo "my notes" > notes.txt
refused "import over a text file" "not an slcscope trace" notes.txt -- "$bin" import t.h5 -o notes.txt
cp notes.txt notes.png
refused "plot over text named .png" "not a PNG, PDF or SVG" notes.png -- "$bin" plot t.h5 -o notes.png
refused "analyze over a trace" "HDF5" t.h5 -- "$bin" analyze t.h5 --json -o "$(cp t.h5 t_copy.h5; echo t_copy.h5)"
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
	/usr/bin/python3 -c 'import h5py; f = h5py.File("ub.h5", "w", userblock_size=65536); f["x"] = [1, 2]; f.close()'
	refused "an HDF5 file with a 64 KiB user block" "user block" ub.h5 -- "$bin" import t.h5 -o ub.h5
	/usr/bin/python3 -c 'import h5py; f = h5py.File("other.h5", "w"); f["x"] = [1, 2]; f.close()'
	refused "another program's HDF5 file" "not an slcscope trace" other.h5 -- "$bin" import t.h5 -o other.h5
else
	echo "skip: h5py missing (/usr/bin/python3): the user-block cases"
fi
# --force replaces another format, and an old output of the same kind needs none
if "$bin" export t.h5 --csv --force -o elf 2>"$tmp/err" && head -1 elf | grep -q '^# slcscope export'; then
	ok "--force replaces a file of another format"
else
	bad "--force: $(cat "$tmp/err")"
fi
"$bin" import t.h5 -o t2.h5 >/dev/null && "$bin" import t.h5 -o t2.h5 >/dev/null 2>"$tmp/err" \
	&& ok "an old trace is replaced by a new one" || bad "import over its own trace: $(cat "$tmp/err")"
chmod 600 t2.h5; "$bin" import t.h5 -o t2.h5 >/dev/null 2>&1
[ "$(stat -c %a t2.h5)" = 600 ] && ok "a replaced file keeps its mode" || bad "mode became $(stat -c %a t2.h5)"
echo a > real.csv; ln -s real.csv link.csv
if "$bin" export t.h5 --csv -o link.csv 2>/dev/null && [ -L link.csv ] && head -1 real.csv | grep -q slcscope; then
	ok "a link to a file: the file is replaced, the link kept"
else
	bad "a link to a file"
fi
cp t.h5 realt.h5; ln -s realt.h5 linkt.h5; before=$(sum realt.h5)
if "$bin" analyze --store linkt.h5 >/dev/null 2>"$tmp/err" && [ -L linkt.h5 ] && [ "$(sum realt.h5)" != "$before" ]; then
	ok "analyze --store through a link: the trace it names gets the analysis, the link kept"
else
	bad "analyze --store through a link: $(cat "$tmp/err"; ls -l linkt.h5)"
fi
"$bin" export t.h5 --json -o - | head -c 1 | grep -q '{' && ok "-o - is standard output" || bad "-o -"
# after "--" every word is an INPUT (a file may start with '-')
cp t.h5 ./-dash.h5
"$bin" plot -o dash.svg -- -dash.h5 >/dev/null 2>"$tmp/err" && [ -s dash.svg ] && ok "plot -- -dash.h5" ||
	bad "plot after --: $(cat "$tmp/err")"
"$bin" report -o dashrep t.h5 -- no-such.h5 >/dev/null 2>"$tmp/err" && bad "report ignored an INPUT after --" ||
	{ grep -q "no-such.h5" "$tmp/err" && [ ! -e dashrep ] && ok "report reads the INPUTs after --"; } ||
	bad "report after --: $(cat "$tmp/err")"
# a comparison of a segment role the inputs lack is refused, not written empty
"$bin" report t.h5 ./-dash.h5 -s idle_burst -o norole >/dev/null 2>"$tmp/err" && bad "report -s idle_burst wrote a report" ||
	{ grep -q "has no idle_burst segment" "$tmp/err" && [ ! -e norole ] && ok "report -s ROLE the inputs lack: refused"; } ||
	bad "report -s idle_burst: $(cat "$tmp/err")"
# a full standard output: exit 1, and the reason is the disk's
for c in "export t.h5 --csv" "export t.h5 --json" "analyze t.h5 --json" "analyze t.h5" "sim list"; do
	"$bin" $c >/dev/full 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "No space left on device" "$tmp/err" && ok "$c on a full standard output: $(cat "$tmp/err")" ||
		bad "$c on /dev/full: exit $rc, $(cat "$tmp/err")"
done

# a trace a running slcscope holds (a run that lasts until it is stopped below:
# a simulated one could end first on a loaded machine)
"$bin" run null:1GB --plan rand --rand-time 10m --quiet --interval 10ms -o held.h5 2>/dev/null & pids+=($!)
# until the trace holds a write curve (its first flush; slow under the sanitizers)
for _ in $(seq 300); do
	[ "$("$bin" export held.h5 --csv 2>/dev/null | grep -vc '^#')" -gt 5 ] && break
	sleep 0.1
done
ino=$(stat -c %i held.h5)
refused "import onto a trace a run writes" "another slcscope is writing it" - -- "$bin" import t.h5 -o held.h5
refused "analyze --store into a trace a run writes" "another slcscope is writing it.*try again once the run has ended" - -- \
	"$bin" analyze --store held.h5
refused "lab add of a trace a run writes" "another slcscope is writing it.*try again once the run has ended" - -- \
	"$bin" lab --db held-lab.db add held.h5
if [ -e held-lab.db ]; then
	listed=$("$bin" lab --db held-lab.db list --json 2>&1) && ! grep -q '"run":' <<<"$listed" &&
		ok "the refused lab add stored no run" || bad "after the refused lab add: $listed"
else
	ok "the refused lab add made no lab"
fi
[ "$(stat -c %i held.h5)" = "$ino" ] && ok "the run's trace is the same file" || bad "the run's trace was replaced"
kill -INT "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null

# report directories
refused "a report into /" "root directory" /etc/hostname -- "$bin" report t.h5 -o /
mkdir -p someone; echo keep > someone/letter.txt
refused "a report into someone's directory" "not empty and not an slcscope report" someone/letter.txt -- \
	"$bin" report t.h5 -o someone
refused "a report onto a file" "a report is a directory" notes.txt -- "$bin" report t.h5 -o notes.txt
refused "run --report DIR checked first" "not empty and not an slcscope report" someone/letter.txt -- \
	"$bin" run sim:tiny-tlc --plan seq --quiet -o r.h5 --report someone
[ -e r.h5 ] && bad "run --report typo: the run went ahead" || ok "run --report refused before the run"
# a run that never gets to its report leaves no empty report directory,
# and says how to write one from what it recorded; a directory that holds
# the trace is kept with it
"$bin" run null:1GB --plan rand --report stopped -o stopped.h5 >/dev/null 2>"$tmp/err" & p=$!
for _ in $(seq 1 100); do [ -s stopped.h5 ] && break; sleep 0.1; done
kill -INT $p; wait $p; rc=$?
[ $rc = 130 ] && [ ! -e stopped ] && [ -f stopped.h5 ] && grep -q "(no report: 'slcscope report stopped.h5 -o DIR' writes one)" "$tmp/err" \
	&& ok "an interrupted run --report removes its empty directory" || bad "interrupted --report: rc $rc $(ls -a stopped 2>&1) $(cat "$tmp/err")"
"$bin" run /nonexistent-target --plan rand --report notrun -o notrun.h5 2>/dev/null
[ ! -e notrun ] && ok "a run that cannot open its target leaves no report directory" || bad "notrun left: $(ls -a notrun)"
mkdir -p emptydir
"$bin" run /nonexistent-target --plan rand --report emptydir -o notrun.h5 2>/dev/null
[ -d emptydir ] && ok "an empty directory of the user's own is kept" || bad "the user's empty directory was removed"
# a report directory another slcscope holds (writing a report into it) is
# never removed by a run that fails
mkdir -p held && printf 'slcscope report\n' > held/.slcscope-report
flock -x held -c "sleep 3" & hp=$!
sleep 0.5
"$bin" run /nonexistent-target --plan rand --report held -o heldrep.h5 2>/dev/null
[ -f held/.slcscope-report ] && ok "a report directory another slcscope holds is kept" || bad "a held report directory was removed"
wait $hp
"$bin" run null:1GB --plan rand --report inside -o inside/t.h5 >/dev/null 2>&1 & p=$!
for _ in $(seq 1 100); do [ -s inside/t.h5 ] && break; sleep 0.1; done
kill -INT $p; wait $p
[ -f inside/t.h5 ] && ok "a report directory holding the trace is kept" || bad "the trace inside --report is gone"
if "$bin" report t.h5 -o rep --quiet && [ -f rep/.slcscope-report ] && [ -f rep/index.html ]; then
	ok "a new report directory is marked"
else
	bad "report into a new directory"
fi
touch rep/my-notes.txt
"$bin" report t.h5 -o rep --quiet 2>"$tmp/err" && [ -f rep/my-notes.txt ] && ok "a report replaces an earlier one, keeps other files" \
	|| bad "report over a report: $(cat "$tmp/err")"
mkdir site; echo '<html>my notes on slcscope</html>' > site/index.html
refused "a page that only mentions slcscope" "not empty and not an slcscope report" site/index.html -- \
	"$bin" report t.h5 -o site
echo precious > rep/phases.csv.txt; cp rep/.slcscope-report marker.keep
grep -v '^phases.csv$' marker.keep > rep/.slcscope-report
refused "a report over a file its marker does not list" "not a file of the earlier report" rep/phases.csv -- \
	"$bin" report t.h5 -o rep
cp marker.keep rep/.slcscope-report
mkdir beside && cp t.h5 beside/
"$bin" report beside/t.h5 -o beside --quiet 2>"$tmp/err" && ok "a report beside its trace" || bad "report beside its trace: $(cat "$tmp/err")"
# two reports into one directory at once: one is refused, the other complete
"$bin" report t.h5 -o twice --quiet 2>"$tmp/err1" & a=$!
"$bin" report t.h5 -o twice --quiet 2>"$tmp/err2" & b=$!
wait $a; ra=$?; wait $b; rb=$?
n=$(ls twice | wc -l)
if [ $((ra + rb)) -le 1 ] && [ -f twice/index.html ] && [ "$n" -ge 5 ]; then
	ok "two reports at once: exits $ra and $rb, $n files ($(cat "$tmp/err1" "$tmp/err2" | head -1))"
else
	bad "two reports at once: exits $ra, $rb; $(cat "$tmp/err1" "$tmp/err2")"
fi
# SIGINT during a report: nothing of it is left
"$bin" run sim:tiny-tlc --quiet --interval 100ms -o big.h5 2>/dev/null
"$bin" report big.h5 -o sig --quiet 2>/dev/null & p=$!
for _ in $(seq 500); do [ -n "$(ls -d .sig.slcscope-* 2>/dev/null)" ] && break; sleep 0.01; done
kill -INT $p; wait $p; rc=$?
if [ $rc = 130 ] && [ -z "$(leftovers)" ] && [ ! -e sig ]; then
	ok "SIGINT during a report: exit 130, nothing left"
elif [ $rc = 0 ]; then
	echo "skip: the report ended before the signal"
else
	bad "SIGINT during a report: exit $rc, left: $(leftovers) $(ls -d sig 2>/dev/null)"
fi

[ -z "$(leftovers)" ] && ok "no temporary file left anywhere" || bad "left behind: $(leftovers)"
echo "$passes passed, $fails failed"
[ $fails = 0 ]

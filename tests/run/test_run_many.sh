#!/usr/bin/env bash
# slcscope run on several targets at once (-o DIR/): a trace per drive that
# matches a run of that drive alone, the drives written at the same time,
# "[name] " prefixes and a summary line per drive off a terminal, Ctrl-C
# stopping all, Ctrl-Z pausing all; refused before anything is written to any: a duplicate
# (also through another path), -o naming a file, one bad target.
# With --loop: two loop devices with --destructive, and a signed one that
# stops both (needs root and loop devices; exits 77 otherwise).
set -u
bin=$1 mode=${2:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-many.XXXXXX")
loops=()
cleanup() {
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fails=0 passes=0
ok() { passes=$((passes+1)); echo "ok: $*"; }
bad() { fails=$((fails+1)); echo "FAIL: $*"; }
samples() { "$bin" export "$1" --csv | grep -v '^#'; }
cache() { "$bin" analyze --json "$1" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["cache"]["size_bytes"] or 0)'; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN{exit !(v >= lo && v <= hi)}'; }
# every line of a run's stderr: a drive's, prefixed, or one summary line per drive
lines_ok() {  # lines_ok ERRFILE NAME...
	local f=$1 n
	shift
	for n in "$@"; do
		[ "$(grep -c "^slcscope run: $n: " "$f")" = 1 ] || return 1
		grep -q "^\[$n\] " "$f" || return 1
	done
	! grep -v -e '^\[[^]]*\] ' -e '^slcscope run: [^ ]*: ' "$f" | grep -q .
}

if [ "$mode" = --loop ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for loop devices"; exit 77; }
	command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null || { echo "SKIP: losetup or mkfs.ext4 missing"; exit 77; }
	newloop() {
		head -c "$2" /dev/urandom >"$1"
		loop=$(losetup -f --show "$1" 2>/dev/null) || { echo "SKIP: cannot attach a loop device"; exit 77; }
		loops+=("$loop")
	}
	newloop "$tmp/a.img" 64M; la=$loop
	newloop "$tmp/b.img" 64M; lb=$loop
	na=${la#/dev/} nb=${lb#/dev/}
	q=(--plan seq --trim-wait 0 --no-probe --interval 100ms)
	# no --destructive: refused, nothing written to either
	sa=$(md5sum <"$la") sb=$(md5sum <"$lb")
	"$bin" run "$la" "$lb" "${q[@]}" -o "$tmp/n/" 2>"$tmp/err"; rc=$?
	[ $rc != 0 ] && [ "$(md5sum <"$la")" = "$sa" ] && [ "$(md5sum <"$lb")" = "$sb" ] && [ ! -e "$tmp/n" ] \
		&& ok "two loop devices without --destructive: refused, both unchanged" || bad "no --destructive: rc $rc $(cat "$tmp/err")"
	# the same device through a link: refused
	ln -s "$la" "$tmp/link"
	"$bin" run "$la" "$tmp/link" --destructive "${q[@]}" -o "$tmp/n/" 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && grep -q "are the same device" "$tmp/err" && [ "$(md5sum <"$la")" = "$sa" ] \
		&& ok "the same loop device twice: refused" || bad "same device: rc $rc $(cat "$tmp/err")"
	# one with a filesystem on it: the checks of both run before either is written
	mkfs.ext4 -q -F "$lb"
	sb=$(md5sum <"$lb")
	"$bin" run "$la" "$lb" --destructive "${q[@]}" -o "$tmp/n/" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && [ "$(md5sum <"$la")" = "$sa" ] && [ "$(md5sum <"$lb")" = "$sb" ] && [ ! -e "$tmp/n" ] \
		&& grep -q "^slcscope run: $nb: refused: .*ext4" "$tmp/err" && grep -q "^slcscope run: $na: not started" "$tmp/err" \
		&& ok "a signed loop device stops both before anything is written" || bad "signed device: rc $rc $(cat "$tmp/err")"
	# both written, at once, each trace named after its device's kernel name (a link to it too)
	"$bin" run "$tmp/link" "$lb" --destructive --force "${q[@]}" -o "$tmp/d/" 2>"$tmp/err"; rc=$?
	[ $rc = 0 ] && [ "$(samples "$tmp/d/$na.h5" | wc -l)" -gt 0 ] && [ "$(samples "$tmp/d/$nb.h5" | wc -l)" -gt 0 ] \
		&& [ "$(grep -c 'destroying all 67.1 MB on' "$tmp/err")" = 2 ] && lines_ok "$tmp/err" "$na" "$nb" \
		&& ok "two loop devices with --destructive: $na.h5 and $nb.h5" || bad "two loop devices: rc $rc $(cat "$tmp/err")"
	echo "$passes passed, $fails failed"
	[ $fails = 0 ]
	exit
fi

# two simulated drives: the traces of a run of each alone, their own caches
"$bin" run sim:tiny-tlc sim:tiny-qlc2 --plan seq --interval 100ms -o "$tmp/sims/" 2>"$tmp/err"; rc=$?
"$bin" run sim:tiny-tlc --plan seq --interval 100ms -o "$tmp/tlc.h5" --quiet
"$bin" run sim:tiny-qlc2 --plan seq --interval 100ms -o "$tmp/qlc2.h5" --quiet
if [ $rc = 0 ] && [ -f "$tmp/sims/sim-tiny-tlc.h5" ] && [ -f "$tmp/sims/sim-tiny-qlc2.h5" ]; then
	ok "two simulated drives: sim-tiny-tlc.h5 and sim-tiny-qlc2.h5"
	cmp -s <(samples "$tmp/sims/sim-tiny-tlc.h5") <(samples "$tmp/tlc.h5") \
		&& cmp -s <(samples "$tmp/sims/sim-tiny-qlc2.h5") <(samples "$tmp/qlc2.h5") \
		&& ok "each trace has the samples of a run of that drive alone" || bad "traces differ from single runs"
	ct=$(cache "$tmp/sims/sim-tiny-tlc.h5") cq=$(cache "$tmp/sims/sim-tiny-qlc2.h5")
	# tiny-tlc: a static 256 MiB cache; tiny-qlc2: a dynamic one up to 1 GiB
	within "$ct" 241591910 295279001 && within "$cq" 536870912 1073741824 \
		&& ok "analyze: caches $ct B (tiny-tlc) and $cq B (tiny-qlc2)" || bad "caches $ct and $cq"
	lines_ok "$tmp/err" sim-tiny-tlc sim-tiny-qlc2 && grep -q '^\[sim-tiny-qlc2\] \[2/2 seq_fill\]' "$tmp/err" \
		&& ok "off a terminal: '[name] ' prefixes, one summary line per drive" || bad "lines: $(cat "$tmp/err")"
else
	bad "two simulated drives: rc $rc $(cat "$tmp/err")"
fi

# two files written at the same time: 3 s each, both in less than the 6 s one after the other takes
truncate -s 128M "$tmp/f1.img" "$tmp/f2.img"
t0=$(date +%s.%N)
"$bin" run "$tmp/f1.img" "$tmp/f2.img" --plan rand --rand-time 3s --trim-wait 0 --interval 200ms --quiet -o "$tmp/files" \
	2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "end it with '/'" "$tmp/err" && [ ! -e "$tmp/files" ] \
	&& ok "-o without '/' for a new directory: refused" || bad "-o without /: rc $rc $(cat "$tmp/err")"
mkdir "$tmp/files"
t0=$(date +%s.%N)
"$bin" run "$tmp/f1.img" "$tmp/f2.img" --plan rand --rand-time 3s --trim-wait 0 --interval 200ms --quiet -o "$tmp/files" \
	2>"$tmp/err"; rc=$?
t1=$(date +%s.%N)
el=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')
created() { "$bin" export "$1" --json | /usr/bin/python3 -c 'import json,sys,calendar,time
print(calendar.timegm(time.strptime(json.load(sys.stdin)["meta"]["created_utc"], "%Y-%m-%dT%H:%M:%SZ")))'; }
if [ $rc = 0 ] && [ -f "$tmp/files/f1.img.h5" ] && [ -f "$tmp/files/f2.img.h5" ]; then
	c1=$(created "$tmp/files/f1.img.h5") c2=$(created "$tmp/files/f2.img.h5")
	e1=$(stat -c %Y "$tmp/files/f1.img.h5") e2=$(stat -c %Y "$tmp/files/f2.img.h5")
	[ "$c1" -le "$e2" ] && [ "$c2" -le "$e1" ] && within "$el" 0 5.9 \
		&& ok "two files written at once: $el s for two 3 s runs, traces $c1-$e1 and $c2-$e2" \
		|| bad "not concurrent: $el s, traces $c1-$e1 and $c2-$e2"
	[ ! -s "$tmp/err" ] && ok "--quiet: nothing said" || bad "--quiet said: $(cat "$tmp/err")"
else
	bad "two files: rc $rc $(cat "$tmp/err")"
fi

# on a terminal: a block of progress lines, one per drive, redrawn in place
if command -v script >/dev/null; then
	script -qec "'$bin' run '$tmp/f1.img' '$tmp/f2.img' --plan rand --rand-time 1500ms --trim-wait 0 --interval 100ms \
		-o '$tmp/tty/'" /dev/null >"$tmp/tty.out"; rc=$?
	[ $rc = 0 ] && grep -q $'\033\[2A' "$tmp/tty.out" && grep -q '\[f1.img\] \[2/2 rand_curve\] .* written  ' "$tmp/tty.out" \
		&& grep -q '\[f2.img\] \[2/2 rand_curve\] .* written  ' "$tmp/tty.out" \
		&& [ "$(grep -c 'slcscope run: f[12].img: trace written' "$tmp/tty.out")" = 2 ] \
		&& ok "on a terminal: a progress line per drive, redrawn" || bad "terminal: rc $rc $(cat -v "$tmp/tty.out")"
fi

# Ctrl-C (the parent's SIGINT) stops both; each trace readable up to then
"$bin" run "$tmp/f1.img" "$tmp/f2.img" --plan rand --rand-time 60s --trim-wait 0 --interval 200ms -o "$tmp/int/" \
	2>"$tmp/err" & pid=$!
for _ in $(seq 1 200); do [ "$(grep -c '1/2 trim' "$tmp/err")" = 2 ] && break; sleep 0.05; done
sleep 1
kill -INT $pid
wait $pid; rc=$?
n1=$(samples "$tmp/int/f1.img.h5" | wc -l) n2=$(samples "$tmp/int/f2.img.h5" | wc -l)
[ $rc = 130 ] && [ "$n1" -gt 1 ] && [ "$n2" -gt 1 ] && [ "$(grep -c '^slcscope run: f[12].img: interrupted by SIGINT' "$tmp/err")" = 2 ] \
	&& ! pgrep -f "$tmp/f1.img" >/dev/null \
	&& ok "SIGINT: both stopped (exit 130), traces of $n1 and $n2 samples" || bad "SIGINT: rc $rc, $n1/$n2 samples $(cat "$tmp/err")"

# Ctrl-Z (SIGTSTP to the parent) stops every drive with it, SIGCONT continues
# them: each trace records the host's pause, not a stall of its drive
"$bin" run "$tmp/f1.img" "$tmp/f2.img" --plan rand --rand-time 3s --trim-wait 0 --interval 100ms -o "$tmp/stp/" \
	2>"$tmp/err" & pid=$!
for _ in $(seq 1 200); do [ "$(grep -c '1/2 trim' "$tmp/err")" = 2 ] && break; sleep 0.05; done
sleep 1
kill -TSTP $pid; sleep 1.5; kill -CONT $pid
wait $pid; rc=$?
p1=$("$bin" export "$tmp/stp/f1.img.h5" --json | grep -c '"host_pause"') p2=$("$bin" export "$tmp/stp/f2.img.h5" --json | grep -c '"host_pause"')
[ $rc = 0 ] && [ "$p1" -ge 1 ] && [ "$p2" -ge 1 ] && [ "$(grep -c 'recorded as a host pause' "$tmp/err")" = 2 ] \
	&& ok "SIGTSTP, SIGCONT: both drives paused, a host_pause in each trace" || bad "SIGTSTP: rc $rc, $p1/$p2 $(cat "$tmp/err")"

# refused before anything is written
s1=$(md5sum <"$tmp/f1.img")
"$bin" run sim:tiny-tlc sim:tiny-tlc -o "$tmp/dup/" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "would both write the trace sim-tiny-tlc.h5" "$tmp/err" && [ ! -e "$tmp/dup" ] \
	&& ok "the same simulated drive twice: refused" || bad "duplicate sim: rc $rc $(cat "$tmp/err")"
ln -s f1.img "$tmp/other.img"
"$bin" run "$tmp/f1.img" "$tmp/other.img" --plan seq -o "$tmp/dup/" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "are the same file" "$tmp/err" && [ ! -e "$tmp/dup" ] && [ "$(md5sum <"$tmp/f1.img")" = "$s1" ] \
	&& ok "one file through two paths: refused" || bad "same file: rc $rc $(cat "$tmp/err")"
echo keep >"$tmp/out.h5"
"$bin" run sim:tiny-tlc sim:tiny-mlc -o "$tmp/out.h5" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "not a directory" "$tmp/err" && [ "$(cat "$tmp/out.h5")" = keep ] \
	&& ok "-o a regular file with two targets: refused" || bad "-o file: rc $rc $(cat "$tmp/err")"
# the missing file is found by its own child's checks, after the other's passed
"$bin" run "$tmp/f1.img" "$tmp/missing.img" --plan seq -o "$tmp/bad/" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(md5sum <"$tmp/f1.img")" = "$s1" ] && [ ! -e "$tmp/bad" ] \
	&& grep -q "^slcscope run: missing.img: refused: .*no such file" "$tmp/err" \
	&& grep -q "^slcscope run: f1.img: not started" "$tmp/err" && grep -q "nothing was written to any drive" "$tmp/err" \
	&& ok "one missing file: the other untouched, no directory made" || bad "one bad target: rc $rc $(cat "$tmp/err")"
"$bin" run "$tmp/f1.img" /dev/slcscope-no-such-disk --plan seq -o "$tmp/bad/" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(md5sum <"$tmp/f1.img")" = "$s1" ] && [ ! -e "$tmp/bad" ] && grep -q "no such device" "$tmp/err" \
	&& ok "a missing device path: refused, the file untouched" || bad "missing device: rc $rc $(cat "$tmp/err")"
# a file with a filesystem on it, refused by its checks: the file --size created for the other is gone again
if command -v mkfs.ext4 >/dev/null; then
	truncate -s 64M "$tmp/fs.img" && mkfs.ext4 -q -F "$tmp/fs.img"
	sf=$(md5sum <"$tmp/fs.img")
	"$bin" run "$tmp/new.img" "$tmp/fs.img" --size 64M --plan seq -o "$tmp/bad/" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && [ "$(md5sum <"$tmp/fs.img")" = "$sf" ] && [ ! -e "$tmp/new.img" ] && [ ! -e "$tmp/bad" ] \
		&& grep -q "^slcscope run: fs.img: refused: .*ext4 signature" "$tmp/err" \
		&& ok "a signed file: refused, the other file never created" || bad "signed file: rc $rc $(cat "$tmp/err")"
fi
"$bin" run sim:tiny-tlc sim:tiny-mlc -o "$tmp/r/" --report "$tmp/rep" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -qx "slcscope run: give --report with one TARGET; report DIR/\*.h5 afterwards" "$tmp/err" \
	&& ok "--report with two targets: refused" || bad "--report: rc $rc $(cat "$tmp/err")"
"$bin" run sim:tiny-tlc sim:tiny-mlc --fio-job "$tmp/job.fio" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/job.fio" ] && ok "--fio-job with two targets: refused" || bad "--fio-job: rc $rc $(cat "$tmp/err")"

# a dry run: each drive's plan and what it would destroy; nothing written
"$bin" run "$tmp/f1.img" sim:tiny-tlc --plan seq -n >"$tmp/dry" 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && [ "$(grep -c '^plan seq on' "$tmp/dry")" = 2 ] && grep -q "destroys: the contents of $tmp/f1.img" "$tmp/dry" \
	&& grep -q '^== sim-tiny-tlc (sim:tiny-tlc)' "$tmp/dry" && [ "$(md5sum <"$tmp/f1.img")" = "$s1" ] \
	&& ok "dry run: both plans, nothing written" || bad "dry run: rc $rc $(cat "$tmp/dry" "$tmp/err")"
"$bin" help run | grep -q '^       slcscope run TARGET\.\.\. -o DIR/' && ok "help: the several-targets usage line" || bad "help"

echo "$passes passed, $fails failed"
[ $fails = 0 ]

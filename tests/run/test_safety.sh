#!/usr/bin/env bash
# slcscope run's refusals that need no privileges: what a regular-file
# target holds, the whole plan checked before the first TRIM, usage errors,
# one trace path locked by its run, the wait an interrupted step reports.
set -u
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-safety.XXXXXX")
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
fails=0 passes=0
ok() { passes=$((passes+1)); echo "ok: $*"; }
bad() { fails=$((fails+1)); echo "FAIL: $*"; }
samples() { "$bin" export "$1" --csv | grep -vc '^#'; }
q=(--trim-wait 0 --quiet --no-probe)

# --- a regular file is written only when nothing says it holds something ---

# a trace given as the target (the arguments swapped): refused, left as it was
"$bin" run sim:tiny-tlc --plan seq --seq-bytes 64MiB "${q[@]}" -o "$tmp/old.h5"
cp "$tmp/old.h5" "$tmp/old.copy"
"$bin" run "$tmp/old.h5" --plan seq "${q[@]}" -o "$tmp/new.h5" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "refusing to write: an HDF5 signature (an slcscope trace) (add --force" "$tmp/err" \
	&& cmp -s "$tmp/old.h5" "$tmp/old.copy" && [ ! -e "$tmp/new.h5" ] \
	&& ok "a trace as the target is refused and kept" || bad "trace as target: rc $rc $(cat "$tmp/err")"
"$bin" run "$tmp/old.copy" --force --plan seq --seq-bytes 1MiB "${q[@]}" -o "$tmp/new.h5" \
	&& ok "--force writes over the HDF5 signature" || bad "--force on an HDF5 file"

# a filesystem image: refused, the signature named
if command -v mkfs.ext4 >/dev/null; then
	truncate -s 32M "$tmp/fs.img" && mkfs.ext4 -q -F "$tmp/fs.img"
	"$bin" run "$tmp/fs.img" --plan seq "${q[@]}" -o "$tmp/fs.h5" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "fs.img: refusing to write: a ext4 signature" "$tmp/err" && blkid -p "$tmp/fs.img" | grep -q ext4 \
		&& ok "an ext4 image is refused" || bad "ext4 image: rc $rc $(cat "$tmp/err")"
	# ... and as the trace: not replaced either
	"$bin" run null:1GB --plan rand --rand-time 1s "${q[@]}" -o "$tmp/fs.img" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "it holds a ext4 filesystem signature; refusing to replace it" "$tmp/err" \
		&& blkid -p "$tmp/fs.img" | grep -q ext4 && ok "an ext4 image is not replaced by a trace" \
		|| bad "ext4 image as -o: rc $rc $(cat "$tmp/err")"
else
	echo "note: mkfs.ext4 missing; the filesystem-image checks not exercised"
fi

# a file slcscope created and wrote is marked and written again without --force;
# once something else changed it the mark is void
"$bin" run "$tmp/t.img" --size 16MiB --plan seq "${q[@]}" -o "$tmp/t.h5" \
	&& "$bin" run "$tmp/t.img" --plan seq "${q[@]}" -o "$tmp/t.h5" && ok "slcscope's own target is written again" \
	|| bad "slcscope's own target refused"
python3 -c 'import os,sys; sys.exit(0 if os.getxattr(sys.argv[1], "user.slcscope.target").startswith(b"slcscope target") else 1)' \
	"$tmp/t.img" 2>/dev/null && ok "target marked user.slcscope.target" || echo "note: no user xattrs here; no mark"
if command -v mkfs.ext4 >/dev/null; then
	mkfs.ext4 -q -F "$tmp/t.img"
	"$bin" run "$tmp/t.img" --plan seq "${q[@]}" -o "$tmp/t.h5" 2>"$tmp/err"; rc=$?
	[ $rc = 1 ] && grep -q "a ext4 signature" "$tmp/err" && ok "a changed target is checked again" || bad "changed target: rc $rc $(cat "$tmp/err")"
fi

# a file another program has open
truncate -s 16M "$tmp/open.img"
sleep 60 <"$tmp/open.img" & pids+=($!)
sleep 0.3
"$bin" run "$tmp/open.img" --plan seq "${q[@]}" -o "$tmp/o.h5" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "refusing to write: open in sleep (pid" "$tmp/err" && ok "a file open elsewhere is refused" \
	|| bad "file open elsewhere: rc $rc $(cat "$tmp/err")"

# the trace and the target are one file
"$bin" run "$tmp/t.img" --force --plan seq "${q[@]}" -o "$tmp/t.img" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "that is the target" "$tmp/err" && ok "-o naming the target is refused" || bad "-o = target: rc $rc $(cat "$tmp/err")"

# --- the whole plan is checked before anything is destroyed ---

head -c 8M /dev/urandom >"$tmp/data.img"
cp "$tmp/data.img" "$tmp/data.copy"
for args in "--plan seq --seq-bytes 0" "--plan rand --rand-time 0" "--plan lab --burst 0 --rand-time 1s --idle 1s" "--plan trim-response --trim-bytes 6MiB"; do
	cp "$tmp/data.copy" "$tmp/data.img"
	"$bin" run "$tmp/data.img" --force $args "${q[@]}" -o "$tmp/v.h5" 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && cmp -s "$tmp/data.img" "$tmp/data.copy" && [ ! -e "$tmp/v.h5" ] \
		&& ok "$args: usage error before any TRIM ($(head -1 "$tmp/err"))" || bad "$args: rc $rc, data $(cmp -s "$tmp/data.img" "$tmp/data.copy" && echo kept || echo TRIMMED): $(cat "$tmp/err")"
done
grep -q -- "--trim-bytes" "$tmp/err" && ok "trim-response blames --trim-bytes" || bad "trim-response: $(cat "$tmp/err")"
for size in 1000 8EiB; do
	"$bin" run "$tmp/new-$size.img" --size $size --plan seq "${q[@]}" -o "$tmp/v.h5" 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && [ ! -e "$tmp/new-$size.img" ] && ! grep -q -- "--steady-after" "$tmp/err" \
		&& ok "--size $size: usage error, no file left" || bad "--size $size: rc $rc $(ls "$tmp" | grep new-) $(cat "$tmp/err")"
done
# a size the filesystem cannot hold: refused at once, nothing left behind
"$bin" run "$tmp/huge.img" --size 7EiB --plan seq "${q[@]}" -o "$tmp/v.h5" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ ! -e "$tmp/huge.img" ] && ok "--size 7EiB refused, no file left" || bad "--size 7EiB: rc $rc $(cat "$tmp/err")"
# a plan that cannot run leaves no created file behind either
"$bin" run "$tmp/tr.img" --size 64MiB --plan trim-response --trim-bytes 48MiB "${q[@]}" -o "$tmp/v.h5" 2>/dev/null; rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/tr.img" ] && ok "a refused plan removes the file --size made" || bad "trim-response on a new file: rc $rc"
"$bin" run null:-5 -o "$tmp/v.h5" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "null:-5" "$tmp/err" && ok "null:-5 is a usage error" || bad "null:-5: rc $rc $(cat "$tmp/err")"
# an option never given is never blamed
"$bin" run null:8EiB --plan rand --rand-time 1s "${q[@]}" -o "$tmp/v.h5" 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && ! grep -q -- "--steady-after" "$tmp/err" && ok "null:8EiB runs; --steady-after not blamed" || bad "null:8EiB: rc $rc $(cat "$tmp/err")"
rm -f "$tmp/v.h5"

# --- two runs, one trace path ---

"$bin" run sim:sata240-tlc --plan rand --trim-wait 0 --quiet -o "$tmp/both.h5" 2>"$tmp/err1" &
first=$!; pids+=($first)
for _ in $(seq 1 600); do [ -s "$tmp/both.h5" ] && break; sleep 0.1; done
sleep 1
"$bin" run null:1GB --plan rand --rand-time 1s "${q[@]}" -o "$tmp/both.h5" 2>"$tmp/err"; rc=$?
# the running trace given as the target, even with --force: refused as
# another run's, with no advice that --force would do
"$bin" run "$tmp/both.h5" --force --plan seq --seq-bytes 1MiB "${q[@]}" -o "$tmp/swap.h5" 2>"$tmp/err2"; rc2=$?
[ $rc2 = 1 ] && grep -q "another slcscope is writing it (pid $first" "$tmp/err2" && ! grep -q -- "--force" "$tmp/err2" \
	&& [ ! -e "$tmp/swap.h5" ] && ok "a running trace as the target is refused even with --force" \
	|| bad "running trace as target: rc $rc2 $(cat "$tmp/err2")"
sleep 1
kill -INT $first; wait $first; rc1=$?
n=$(samples "$tmp/both.h5")
[ $rc = 1 ] && grep -q "another slcscope is writing it (pid $first, the run of sim:sata240-tlc" "$tmp/err" \
	&& [ $rc1 = 130 ] && [ "$n" -ge 10 ] && "$bin" export "$tmp/both.h5" --csv | grep -q 'range_bytes=240' \
	&& ok "second run on one trace refused, naming the first; the first's trace intact ($n samples)" \
	|| bad "two runs: second rc $rc, first rc $rc1, $n samples: $(cat "$tmp/err" "$tmp/err1")"
# and two runs on one file target
"$bin" run "$tmp/t2.img" --size 64MiB --plan rand --trim-wait 0 --quiet --no-probe -o "$tmp/r1.h5" 2>/dev/null &
first=$!; pids+=($first)
for _ in $(seq 1 600); do [ -s "$tmp/r1.h5" ] && break; sleep 0.1; done
"$bin" run "$tmp/t2.img" --plan rand --rand-time 1s "${q[@]}" -o "$tmp/r2.h5" 2>"$tmp/err"; rc=$?
kill -INT $first; wait $first
[ $rc = 1 ] && grep -Eq "another slcscope (run )?is writing it" "$tmp/err" && ok "second run on one file target refused" \
	|| bad "two runs, one file target: rc $rc $(cat "$tmp/err")"

# --- an interrupted wait says how long it waited ---

"$bin" run "$tmp/w.img" --size 16MiB --plan seq --trim-wait 60s --no-probe -o "$tmp/w.h5" 2>"$tmp/err" &
pid=$!; pids+=($pid)
for _ in $(seq 1 100); do [ -s "$tmp/w.h5" ] && break; sleep 0.1; done
sleep 1
kill -INT $pid; wait $pid; rc=$?
line=$(grep 'then waited' "$tmp/err")
[ $rc = 130 ] && echo "$line" | grep -Eq 'then waited [0-9.]+ (ms|s) of 1m 00s' \
	&& ok "interrupted TRIM wait: '$line'" || bad "interrupted TRIM wait: rc $rc, '$line' $(cat "$tmp/err")"

# options out of range: usage errors naming the option, before anything is opened
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	"$bin" run "$tmp/range.img" --size 64MiB $args -o "$tmp/range.h5" 2>"$tmp/err"; rc=$?
	[ $rc = 2 ] && grep -q -- "$want" "$tmp/err" && [ ! -e "$tmp/range.img" ] && [ ! -e "$tmp/range.h5" ] \
		&& ok "$args: $(head -1 "$tmp/err")" || bad "$args: rc $rc $(cat "$tmp/err")"
done <<'EOF2'
--interval 99999h|--interval: from 10ms to 1h, not '99999h'
--interval 5ms|--interval: from 10ms to 1h
--idle 99999h|--idle: at most 7 days
--rand-time 8d|--rand-time: at most 7 days
--temp-every 2h|--temp-every: from 100ms to 1h
--plan seq --seq-bytes 99999TB|step seq_fill: writes 99999000000000000 bytes, over 1000 times the target
EOF2

echo "$passes passed, $fails failed"
[ $fails = 0 ]

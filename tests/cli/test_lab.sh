#!/bin/bash
# slcscope lab as a review lab uses it, on SQLite or on a PostgreSQL server
# the test starts itself:
#   test_lab.sh SLCSCOPE traces DIR   make the traces once (the main job and
#                                     five other presets, a new tiny-tlc run)
#   test_lab.sh SLCSCOPE sqlite DIR   the lab tests on an SQLite file
#   test_lab.sh SLCSCOPE pg DIR       the same tests on PostgreSQL (initdb and
#                                     pg_ctl of Debian's postgresql package);
#                                     exit 77 where it is not installed
# The tests: the six runs added; the same trace again changes no row;
# rank --by cache orders the drives as their presets' caches; compare places
# a new run (its nearest drive is its own preset) and writes a report; a
# truncated trace and a log are refused with nothing stored; compare -o
# reads a stored trace only when the file at its path has the stored
# SHA-256 (another trace or a text file copied over it: refused in one line
# naming the run and the path, nothing written, nothing of the file quoted;
# one removed: left out; the right one back: in the report); another
# program's database is refused and left as it was; eight benches adding at
# once lose nothing and store each trace once; run --lab adds its run.
set -u
SLC=$1
MODE=$2
T=$3
PY=/usr/bin/python3
fail() { echo "FAIL ($MODE): $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

PRESETS="tiny-tlc tiny-qlc2 tiny-mlc tiny-dramless thermal-nvme"

if [ "$MODE" = traces ]; then
	rm -rf "$T" && mkdir -p "$T" || fail "cannot make $T"
	# the main job as the README runs it
	"$SLC" run sim: -o "$T/main.h5" --quiet || fail "the main job"
	# the presets' caches are a few samples long at 1 s: sampled finer
	for p in $PRESETS; do
		"$SLC" run "sim:$p" --plan lab --interval 100ms --rand-time 15m -o "$T/$p.h5" --quiet || fail "run $p"
	done
	"$SLC" run sim:tiny-tlc --plan lab --interval 100ms --rand-time 15m --seed 7 -o "$T/new.h5" --quiet ||
		fail "the new run"
	exit 0
fi

for f in main $PRESETS new; do [ -s "$T/$f.h5" ] || fail "no trace $T/$f.h5 (the lab_traces test makes them)"; done
D=$(mktemp -d)
chmod 755 "$D"
PGBIN= RUNAS=
stop_pg() { [ -n "$PGBIN" ] && $RUNAS "$PGBIN/pg_ctl" -D "$D/pg/data" -m immediate stop >/dev/null 2>&1; }
trap 'stop_pg; rm -rf "$D"' EXIT

if [ "$MODE" = pg ]; then
	PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
	[ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] || skip "PostgreSQL is not installed (Debian package postgresql)"
	mkdir "$D/pg"
	if [ "$(id -u)" = 0 ]; then
		# the server refuses to run as root
		id postgres >/dev/null 2>&1 || skip "running as root and there is no postgres user to run the server"
		RUNAS="runuser -u postgres --"
		chown postgres "$D/pg"
	fi
	PORT=$((20000 + $$ % 20000))
	$RUNAS "$PGBIN/initdb" -D "$D/pg/data" -A trust -U lab -E UTF8 --no-sync >"$D/initdb.log" 2>&1 ||
		fail "initdb: $(tail -3 "$D/initdb.log")"
	$RUNAS "$PGBIN/pg_ctl" -D "$D/pg/data" -l "$D/pg/log" -w -t 60 \
		-o "-k $D/pg -c listen_addresses= -p $PORT -F" start >/dev/null || fail "pg_ctl start: $(tail -3 "$D/pg/log")"
	for db in lab lab2 other stale; do
		"$PGBIN/createdb" -h "$D/pg" -p "$PORT" -U lab "$db" || fail "createdb $db"
	done
	url() { echo "postgresql:///$1?host=$D/pg&port=$PORT&user=lab"; }
	DB=$(url lab) DB2=$(url lab2) OTHER=$(url other) STALE=$(url stale)
	rows() { "$PGBIN/psql" -Atq "$1" -c "SELECT count(*) FROM $2"; }
	"$PGBIN/psql" -q "$OTHER" -c "CREATE TABLE t (x int); INSERT INTO t VALUES (1)" || fail "psql"
else
	DB=$D/lab.db DB2=$D/lab2.db OTHER=$D/other.db STALE=$D/stale.db
	rows() { $PY -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM " + sys.argv[2]).fetchone()[0])' "$1" "$2"; }
	$PY -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t (x)"); c.execute("INSERT INTO t VALUES (1)"); c.commit()' "$OTHER"
fi
counts() { for t in drives runs curves phases; do printf '%s=%s ' $t "$(rows "$DB" $t)"; done; }
lab() { "$SLC" lab --db "$DB" "$@"; }

# the main job and five presets
lab add "$T/main.h5" $(for p in $PRESETS; do echo "$T/$p.h5"; done) >"$D/add.out" 2>&1 || fail "lab add: $(cat "$D/add.out")"
[ "$(rows "$DB" runs)" = 6 ] || fail "6 runs expected, $(counts)"
[ "$(rows "$DB" drives)" = 6 ] || fail "6 drives expected, $(counts)"
[ "$(rows "$DB" lab_schema)" = 1 ] || fail "no schema version row"

# the same trace again: no row changes
before=$(counts)
lab add "$T/main.h5" >"$D/again.out" 2>&1 || fail "adding the same trace again: $(cat "$D/again.out")"
grep -q "already in the lab" "$D/again.out" || fail "a second add does not say so: $(cat "$D/again.out")"
[ "$(counts)" = "$before" ] || fail "a second add changed rows: $before -> $(counts)"

# rank --by cache: the order of the presets' caches (static + dynamic, as sim show gives them)
lab rank --by cache --json >"$D/rank.json" || fail "rank --json"
lab rank --by cache >"$D/rank.txt" || fail "rank"
grep -q "sata240-tlc" "$D/rank.txt" || fail "rank text: $(cat "$D/rank.txt")"
for p in sata240-tlc $PRESETS; do
	echo "$p $("$SLC" sim show "$p" | grep '^SLC cache')"
done >"$D/presets.txt"
$PY - "$D/rank.json" "$D/presets.txt" <<'EOF' || fail "rank --by cache does not follow the presets' caches"
import json, re, sys
rank = json.load(open(sys.argv[1]))
assert rank["by"] == "cache" and not rank["lower_is_better"], rank
unit = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}
size = {}
for line in open(sys.argv[2]):
    name, rest = line.split(" ", 1)
    got = re.findall(r"(?:static|up to) ([\d.]+) (B|kB|MB|GB|TB)", rest)
    size[name] = sum(float(v) * unit[u] for v, u in got)
order = []
for d in rank["drives"]:
    m = re.search(r"\(([a-z0-9-]+)\)$", d["drive"])
    assert m, d["drive"]
    order.append((m.group(1), size[m.group(1)], d["cache_bytes"]))
print("rank:", [(o[0], round(o[2] / 1e6)) for o in order])
assert len(order) == 6, order
for a, b in zip(order, order[1:]):
    # equal presets may come in either order; a larger one never below a smaller
    assert a[1] >= b[1] * 0.99, (a, b)
    assert a[2] >= b[2], (a, b)
EOF

# compare: a new tiny-tlc run placed among the other five drives (its own
# drive's stored run is not another drive to compare it with)
lab compare "$T/new.h5" --json >"$D/cmp.json" || fail "compare --json"
$PY - "$D/cmp.json" <<'EOF' || fail "compare did not place the new run: $(cat "$D/cmp.json")"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["ranks"]["cache"]["of"] == 6, c["ranks"]
assert 1 <= c["ranks"]["cache"]["rank"] <= 6
near = c["nearest"]
assert len(near) == 5 and not any("(tiny-tlc)" in n["drive"] for n in near), near
assert [n["distance"] for n in near] == sorted(n["distance"] for n in near), near
EOF
lab compare "$T/new.h5" -n 3 -o "$D/cmp" --quiet >/dev/null || fail "compare -o"
[ -s "$D/cmp/index.html" ] && grep -q "tiny-tlc" "$D/cmp/index.html" || fail "compare -o: no report naming tiny-tlc"
[ "$(counts)" = "$before" ] || fail "compare stored something"

# compare -o and stored traces that are no longer the ones added: a lab of
# two drives whose traces are copies in $D, then changed under it
cp "$T/tiny-mlc.h5" "$D/drive1.h5" && cp "$T/tiny-dramless.h5" "$D/drive2.h5" || fail "cp"
"$SLC" lab --db "$STALE" add --quiet "$D/drive1.h5" "$D/drive2.h5" || fail "lab add to the second lab"
run1=$("$SLC" lab --db "$STALE" list --json | $PY -c 'import json, sys
print([r["run"] for r in json.load(sys.stdin) if r["path"].endswith("/drive1.h5")][0])') || fail "no run of drive1.h5"
printf 'SECRET-LINE,0\n1,2\n' >"$D/text.csv"
for other in "$T/tiny-qlc2.h5" "$D/text.csv"; do
	cp "$other" "$D/drive1.h5"
	"$SLC" lab --db "$STALE" compare "$T/new.h5" -o "$D/stale" >/dev/null 2>"$D/stale.err" &&
		fail "compare -o drew a report from a replaced trace ($other)"
	[ "$(wc -l <"$D/stale.err")" = 1 ] || fail "replaced trace: not one line: $(cat "$D/stale.err")"
	grep -qF "run $run1 (" "$D/stale.err" &&
		grep -qF "$D/drive1.h5 is no longer the trace that was added (SHA-256 differs)" "$D/stale.err" ||
		fail "replaced trace: the run and the path not named: $(cat "$D/stale.err")"
	! grep -q SECRET "$D/stale.err" || fail "the replaced file's content was quoted: $(cat "$D/stale.err")"
	[ ! -e "$D/stale" ] || fail "compare -o wrote $D/stale from a replaced trace"
done
cp "$T/tiny-mlc.h5" "$D/drive1.h5"
rm "$D/drive2.h5"
"$SLC" lab --db "$STALE" compare "$T/new.h5" -o "$D/stale" >/dev/null 2>"$D/stale.err" ||
	fail "compare -o with the right trace back: $(cat "$D/stale.err")"
grep -q "drive2.h5 is no longer there; left out of the report" "$D/stale.err" ||
	fail "the removed trace not named: $(cat "$D/stale.err")"
grep -q "(tiny-mlc)" "$D/stale/summary.md" && ! grep -q "(tiny-qlc2)\|(tiny-dramless)" "$D/stale/summary.md" ||
	fail "compare -o: the report is not of the new run and the stored tiny-mlc trace"

# analyze --store changes the file (and its hash) but not the run: the run's
# record follows the file, no second run; compare then reads it
"$SLC" analyze --store "$D/drive1.h5" >/dev/null 2>&1 || fail "analyze --store drive1.h5"
runs=$(rows "$STALE" runs)
"$SLC" lab --db "$STALE" add "$D/drive1.h5" >"$D/restored.out" 2>&1 || fail "lab add after --store: $(cat "$D/restored.out")"
grep -q "already in the lab: .*(run $run1); the file changed, the run follows it" "$D/restored.out" ||
	fail "lab add after --store: $(cat "$D/restored.out")"
[ "$(rows "$STALE" runs)" = "$runs" ] || fail "lab add after --store stored another run"
rm -rf "$D/stale"
"$SLC" lab --db "$STALE" compare "$T/new.h5" -o "$D/stale" >/dev/null 2>"$D/stale.err" ||
	fail "compare -o after --store and add: $(cat "$D/stale.err")"

# refused, nothing stored: a truncated trace, a log, a missing file
head -c $(( $(stat -c %s "$T/tiny-tlc.h5") / 2 )) "$T/tiny-tlc.h5" >"$D/cut.h5"
printf 'time_s,write_MBps\n1,500\n2,500\n' >"$D/log.csv"
for bad in "$D/cut.h5" "$D/log.csv" "$D/missing.h5"; do
	lab add "$bad" >"$D/bad.out" 2>&1 && fail "lab add $bad succeeded"
	[ "$(wc -l <"$D/bad.out")" = 1 ] || fail "lab add $bad: not one line: $(cat "$D/bad.out")"
done
[ "$(counts)" = "$before" ] || fail "a refused add changed rows"

# another program's database: refused, left as it was
"$SLC" lab --db "$OTHER" list >"$D/other.out" 2>&1 && fail "a foreign database was opened as a lab"
grep -q "not a slcscope lab" "$D/other.out" || fail "foreign database: $(cat "$D/other.out")"
[ "$(rows "$OTHER" t)" = 1 ] || fail "the foreign database changed"
if [ "$MODE" = sqlite ]; then
	for bad in /dev/null "$T/main.h5"; do
		"$SLC" lab --db "$bad" list >/dev/null 2>&1 && fail "--db $bad was opened as a lab"
	done
	mkfifo "$D/fifo"
	timeout 10 "$SLC" lab --db "$D/fifo" list >/dev/null 2>&1
	[ $? = 1 ] || fail "--db FIFO not refused at once"
fi

# another bench looking at the lab file at the same moment (the output check's
# shared lock) is no writer: the lab opens
if [ "$MODE" = sqlite ]; then
	flock -s "$DB" sleep 5 &
	holder=$!
	sleep 0.5
	"$SLC" lab --db "$DB" add --quiet "$T/main.h5" >"$D/look.out" 2>&1 ||
		fail "a lab another command was checking was refused: $(cat "$D/look.out")"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
fi

# eight benches at once: every trace stored, each once
pids=
for f in main $PRESETS main new; do
	"$SLC" lab --db "$DB2" add --quiet "$T/$f.h5" >"$D/par-$f-$RANDOM.out" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || fail "a parallel add failed: $(cat "$D"/par-*.out)"; done
[ "$(rows "$DB2" runs)" = 7 ] || fail "parallel adds: 7 runs expected, $(rows "$DB2" runs)"
[ "$(rows "$DB2" drives)" = 6 ] || fail "parallel adds: 6 drives expected (two tiny-tlc runs), $(rows "$DB2" drives)"

# run --lab: the run is added when it ends
"$SLC" run sim:tiny-qlc2 --plan seq --interval 100ms --lab="$DB" -o "$D/seq.h5" --quiet || fail "run --lab"
[ "$(rows "$DB" runs)" = 7 ] || fail "run --lab did not add its run"
lab show tiny-qlc2 >"$D/show.txt" || fail "show"
[ "$(grep -c '^  run ' "$D/show.txt")" = 2 ] || fail "show tiny-qlc2: two runs expected: $(cat "$D/show.txt")"
lab list --csv >"$D/list.csv" || fail "list --csv"
[ "$(wc -l <"$D/list.csv")" = 8 ] || fail "list --csv: a header and 7 runs expected"
echo "lab ($MODE): ok, $(counts)"

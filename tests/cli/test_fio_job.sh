#!/bin/bash
# run --fio-job: the job file of qd-sweep, lab, mixed and hir plans (its
# sections in the plan's order, the keys of each), nothing written to the
# target, the rules for replacing FILE, bad input refused in one line; then,
# where fio is installed, fio --parse-only accepts the files and a short
# basic plan run by fio does what its sections say.
set -u
SLC=$1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
PY=/usr/bin/python3
fail() { echo "FAIL: $*"; exit 1; }

truncate -s 2GiB "$D/t.img"
"$SLC" run "$D/t.img" --plan qd-sweep --step-time 3s --trim-wait 2s --fio-job "$D/q.fio" --quiet ||
	fail "qd-sweep --fio-job"
"$SLC" run "$D/t.img" --plan lab --fio-job "$D/lab.fio" --quiet || fail "lab --fio-job"
"$SLC" run "$D/t.img" --plan mixed --region 512MiB --fio-job "$D/mix.fio" --quiet || fail "mixed --fio-job"
"$SLC" run null:1GiB --plan hir --fio-job "$D/hir.fio" --quiet || fail "hir --fio-job on null:"
[ "$(du -k "$D/t.img" | cut -f1)" -eq 0 ] || fail "--fio-job wrote the target"
# -n with --fio-job: the job file runs nothing already, and -n writes nothing
"$SLC" run "$D/t.img" --plan lab --fio-job "$D/n.fio" -n >/dev/null 2>"$D/err"; rc=$?
[ $rc = 2 ] && grep -q "drop -n" "$D/err" && [ ! -e "$D/n.fio" ] || fail "-n --fio-job: rc $rc $(cat "$D/err")"

$PY - "$D" <<'PYEOF' || fail "job file contents"
import configparser, sys
d = sys.argv[1]

def load(name):
    cp = configparser.ConfigParser(allow_no_value=True, interpolation=None, delimiters=("=",))
    cp.optionxform = str
    cp.read(f"{d}/{name}")
    return cp

q = load("q.fio")
g = q["global"]
assert g["filename"] == f"{d}/t.img", dict(g)
for k, v in [("ioengine", "io_uring"), ("direct", "1"), ("refill_buffers", "1"),
             ("buffer_compress_percentage", "0"), ("group_reporting", "1")]:
    assert g[k] == v, (k, dict(g))
names = [s for s in q.sections() if s != "global"]
pts = [f"rand_{w}_4k_qd{n}" for w in ("read", "write") for n in (1, 2, 4, 8, 16, 32)]
# each point after its own TRIM (and its wait), region write and settle (the TRIM wait)
want = []
for i, p in enumerate(pts):
    b = 4 * i + 1
    want += [f"{b:02d}-trim_{p}", f"{b:02d}-trim_{p}-wait", f"{b + 1:02d}-prep_{p}",
             f"{b + 2:02d}-settle_{p}", f"{b + 3:02d}-{p}"]
assert names == want, names
for s in names:
    assert "stonewall" in q[s], s
for i, pt in enumerate(pts):
    b = 4 * i + 1
    t = q[f"{b:02d}-trim_{pt}"]
    assert t["rw"] == "trim" and t["ioengine"] == "falloc" and t["offset"] == "0", dict(t)
    assert t["size"] == str(2 << 30) and (2 << 30) % int(t["bs"]) == 0, dict(t)
    w = q[f"{b:02d}-trim_{pt}-wait"]
    assert w["ioengine"] == "null" and w["runtime"] == "2s" and w["time_based"] == "1", dict(w)
    p = q[f"{b + 1:02d}-prep_{pt}"]
    assert p["rw"] == "write" and p["size"] == p["io_size"] == str(1 << 30) and p["bs"] == "131072", dict(p)
    assert "runtime" not in p and p["iodepth"] == "32", dict(p)
    w = q[f"{b + 2:02d}-settle_{pt}"]
    assert w["ioengine"] == "null" and w["runtime"] == "2s" and w["time_based"] == "1", dict(w)
    j = q[f"{b + 3:02d}-{pt}"]
    assert j["rw"] == ("randread" if "read" in pt else "randwrite"), (pt, dict(j))
    assert j["bs"] == "4096" and j["blockalign"] == "4096", (pt, dict(j))
    assert j["iodepth"] == pt.split("qd")[1], (pt, dict(j))
    assert j["offset"] == "0" and j["size"] == str(1 << 30), (pt, dict(j))
    assert j["runtime"] == "3s" and "numjobs" not in j, (pt, dict(j))
    # every curve logs under its own name, averaged over the sampling interval (1 s)
    for sec in (j, p):
        name = f"{b + 3:02d}-{pt}" if sec is j else f"{b + 1:02d}-prep_{pt}"
        for k in ("write_bw_log", "write_iops_log", "write_lat_log"):
            assert sec[k] == name, (name, k, dict(sec))
        assert sec["log_avg_msec"] == "1000", (name, dict(sec))
    assert "write_bw_log" not in t and "write_bw_log" not in w, (pt, dict(t), dict(w))
    # a write point ends after 1 GiB or its time, whichever first; a read at its time
    if "read" in pt:
        assert j["time_based"] == "1" and "io_size" not in j, (pt, dict(j))
    else:
        assert "time_based" not in j and j["io_size"] == str(1 << 30), (pt, dict(j))

assert g["per_job_logs"] == "1", dict(g)
# the header names each curve's logs by fio's job number (every section one job here)
# and the command that reads them back
head = open(f"{d}/q.fio").read().split("[global]")[0]
for i, pt in enumerate(pts):
    b = 4 * i + 1
    n = 5 * i + 4   # trim, its wait, prep, settle, point: 5 jobs per point
    assert f"#   {b + 3:02d}-{pt}_bw.{n + 1}.log, _iops.{n + 1}.log, _lat.{n + 1}.log" in head, (pt, head)
    imp = f"slcscope import {b + 3:02d}-{pt}_bw.{n + 1}.log --capacity {2 << 30} -o {b + 3:02d}-{pt}.h5"
    assert ("read" in pt) != (imp in head), (pt, imp, head)

lab = load("lab.fio")
names = [s for s in lab.sections() if s != "global"]
assert names == ["01-trim", "01-trim-wait", "02-seq_fill", "03-trim_before_rand", "03-trim_before_rand-wait",
                 "04-rand_curve", "05-idle", "06-idle_burst", "07-trim_full", "07-trim_full-wait",
                 "08-trim_burst"], names
f = lab["02-seq_fill"]
assert f["rw"] == "write" and f["io_size"] == str(2 << 30) and "runtime" not in f, dict(f)
c = lab["04-rand_curve"]
assert c["rw"] == "randwrite" and c["runtime"] == "7200s" and c["time_based"] == "1", dict(c)
assert c["iodepth"] == "32" and c["size"] == str(2 << 30), dict(c)
i = lab["05-idle"]
assert i["ioengine"] == "null" and i["runtime"] == "900s", dict(i)
assert lab["06-idle_burst"]["runtime"] == "60s", dict(lab["06-idle_burst"])

m = load("mix.fio")
byname = {n.split("-", 1)[1]: n for n in m.sections() if n != "global"}
s = m[byname["mix_seq_128k_read_20pct"]]
# two sequential jobs, each in its own half of the region
assert s["rw"] == "rw" and s["rwmixread"] == "20" and s["numjobs"] == "2", dict(s)
assert s["size"] == s["offset_increment"] == str(256 << 20) and "blockalign" not in s, dict(s)
head = open(f"{d}/mix.fio").read().split("[global]")[0]
# after the first point (trim, wait, prep, settle, two jobs): jobs 11 and 12
n = [x for x in head.splitlines() if f"{byname['mix_seq_128k_read_20pct']}_bw.N.log" in x]
assert len(n) == 1 and n[0].endswith("for N = 11 to 12"), n
r = m[byname["mix_rand_4k_read_40pct"]]
assert r["rw"] == "randrw" and r["rwmixread"] == "40" and r["numjobs"] == "4", dict(r)
assert r["iodepth"] == "8" and r["size"] == str(512 << 20) and "offset_increment" not in r, dict(r)

h = load("hir.fio")
assert h["global"]["ioengine"] == "null" and "filename" not in h["global"], dict(h["global"])
r = h["03-hir_wait_5s"]
assert r["thinktime"] == "5s" and r["thinktime_iotime"] == "5s" and r["runtime"] == "3600s", dict(r)
PYEOF

# FILE: replaced when it is ours or empty, refused otherwise without --force
out=$("$SLC" run "$D/t.img" --plan basic --fio-job "$D/q.fio" 2>&1) || fail "rewriting our own job file: $out"
grep -q '^\[[0-9]*-rand_read_4k_qd1\]' "$D/q.fio" || fail "our job file was not replaced"
echo "[myjob]" > "$D/mine.fio"
out=$("$SLC" run "$D/t.img" --plan basic --fio-job "$D/mine.fio" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "someone else's file: exit $rc, want 1"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "more than one line: $out"
printf '%s' "$out" | grep -q 'refusing to replace it.*--force' || fail "message: $out"
[ "$(cat "$D/mine.fio")" = "[myjob]" ] || fail "someone else's file was changed"
"$SLC" run "$D/t.img" --plan basic --fio-job "$D/mine.fio" --force --quiet || fail "--force"
head -1 "$D/mine.fio" | grep -q '^# fio job file written by slcscope' || fail "--force did not replace it"
: > "$D/empty.fio"
"$SLC" run "$D/t.img" --plan basic --fio-job "$D/empty.fio" --quiet || fail "an empty file"
"$SLC" run "$D/t.img" --plan basic --fio-job - | grep -q '^\[global\]' || fail "--fio-job - (stdout)"

bad() {                              # want-exit pattern args...
	local want=$1 pat=$2 out rc
	shift 2
	out=$("$SLC" run "$@" 2>&1); rc=$?
	[ $rc -eq "$want" ] || fail "$*: exit $rc, want $want ($out)"
	# one line, and for usage errors the pointer to the help
	[ "$(printf '%s\n' "$out" | grep -vc "^Try 'slcscope help run'")" -eq 1 ] || fail "$*: not one line: $out"
	printf '%s' "$out" | grep -q -- "$pat" || fail "$*: message: $out"
}
bad 1 'it is a directory' "$D/t.img" --plan basic --fio-job "$D"
bad 1 'that is the target' "$D/t.img" --plan basic --fio-job "$D/t.img" --force
bad 2 'drop -o' "$D/t.img" --plan basic --fio-job "$D/x.fio" -o "$D/x.h5"
bad 1 'no such file' "$D/none.img" --plan basic --fio-job "$D/x.fio"
bad 2 'larger than the target (2.15 GB): give a smaller --region' "$D/t.img" --plan qd-sweep --region 4GiB --fio-job "$D/x.fio"
[ ! -e "$D/x.fio" ] || fail "a refused job left a file"
"$SLC" run "$D/none.img" --size 1GiB --plan basic --fio-job "$D/x.fio" --quiet || fail "--size for a new file"
[ ! -e "$D/none.img" ] || fail "--fio-job created the target"
"$SLC" help run | grep -q -- '--fio-job FILE' || fail "help run does not list --fio-job"

if ! command -v fio >/dev/null; then
	echo "SKIP: fio is not installed (apt-get install fio): the job files were not given to fio"
	exit 77
fi
for f in q lab mix hir; do
	out=$(fio --parse-only "$D/$f.fio" 2>&1) || fail "fio --parse-only $f.fio: $out"
done
# fio runs a short plan as written: every step, reads and writes where they should be
truncate -s 64MiB "$D/small.img"
"$SLC" run "$D/small.img" --plan basic --region 16MiB --step-time 50ms --trim-wait 0 --fio-job "$D/b.fio" --quiet ||
	fail "basic --fio-job"
# fio writes the curves' logs where it runs
(cd "$D" && fio --output-format=json b.fio) > "$D/b.json" 2> "$D/b.err" || {
	grep -qi 'O_DIRECT\|direct\|invalid argument' "$D/b.err" &&
		{ echo "SKIP: this filesystem refuses fio's O_DIRECT: $(head -1 "$D/b.err")"; exit 77; }
	fail "fio b.fio: $(head -3 "$D/b.err")"
}
$PY - "$D/b.json" <<'PYEOF' || fail "fio's results of the basic plan"
import json, sys
txt = open(sys.argv[1]).read()
jobs = json.loads(txt[txt.index("{"):])["jobs"]
names = [j["jobname"] for j in jobs]
pts = ["seq_read_256k", "rand_read_4k_qd1", "rand_read_4k_qd4", "seq_write_256k", "rand_write_4k_qd1",
       "rand_write_4k_qd4"]
# no TRIM wait, so no settle: each point after its TRIM and its region write
assert names == [f"{3 * i + k:02d}-{w}{p}" for i, p in enumerate(pts)
                 for k, w in ((1, "trim_"), (2, "prep_"), (3, ""))], names
j = {j["jobname"]: j for j in jobs}
assert j["01-trim_seq_read_256k"]["trim"]["io_bytes"] == 64 << 20, j["01-trim_seq_read_256k"]["trim"]
assert j["02-prep_seq_read_256k"]["write"]["io_bytes"] == 16 << 20
assert j["02-prep_seq_read_256k"]["read"]["io_bytes"] == 0
names = [n for n in names if "-trim_" not in n and "-prep_" not in n]
for n in names:
    r, w = j[n]["read"]["io_bytes"], j[n]["write"]["io_bytes"]
    assert (r > 0 and w == 0) if "read" in n else (w > 0 and r == 0), (n, r, w)
PYEOF
# the logs the header names are the logs fio wrote
sed -n 's/^#   \([^ ]*_bw\.[0-9]*\.log\),.*/\1/p' "$D/b.fio" > "$D/named"
[ "$(wc -l < "$D/named")" -eq 12 ] || fail "the header names $(wc -l < "$D/named") _bw logs, want 12"
(cd "$D" && ls -- *_bw.*.log) | sort > "$D/wrote"
sort -o "$D/named" "$D/named"
cmp -s "$D/named" "$D/wrote" || fail "logs named and written differ: $(diff "$D/named" "$D/wrote" | head -4)"
echo "ok"

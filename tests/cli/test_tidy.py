#!/usr/bin/env python3
"""slcscope export --tidy (docs/import.md, "Tidy export"), read back with
the csv module: the documented header, one row per sample of the plain
--csv export, bytes never going back within a segment, mb_s and iops equal
to the counts over the interval, phases from the analysis (the phase of
analyze --json holding each interval's middle), empty cells where nothing
was recorded, and free-text step and plan names that survive quoting.
Run on a simulated run, imported fio logs and CSV, and a trace written with
awkward names; pandas reads the table too when it is installed.

usage: test_tidy.py SLCSCOPE TRACE_WRITER TESTDATA_DIR
"""
import csv, io, json, os, shutil, subprocess, sys, tempfile

slc, writer, testdata = sys.argv[1], sys.argv[2], sys.argv[3]
tmp = tempfile.mkdtemp(prefix="slcscope-tidy.")
passed = failed = 0

COLUMNS = ["step", "experiment", "segment", "role", "workload", "block_bytes", "queue_depth", "t_s",
           "interval_s", "bytes", "mb_s", "iops", "lat_p50_us", "lat_p99_us", "lat_p999_us", "lat_max_us",
           "temp_c", "phase", "cache_tier"]
PHASES = {"", "slc_cache", "direct_to_tlc", "direct_to_qlc", "native_mlc", "native_slc", "native",
          "erase_bound", "stall", "throttled"}


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok:", what)
    else:
        failed += 1
        print("FAIL:", what)


def run(*args, rc=0):
    p = subprocess.run([slc] + list(args), capture_output=True)
    if rc is not None and p.returncode != rc:
        print(f"  slcscope {' '.join(args)} exited {p.returncode}, expected {rc}: {p.stderr.decode().strip()}")
    return p


def tidy(path, *opts):
    """The tidy table of @path written to a file, as (header, rows)."""
    out = os.path.join(tmp, os.path.basename(path) + ".tidy.csv")
    if run("export", path, "--tidy", "-o", out, *opts).returncode:
        return [], []
    with open(out, newline="", encoding="utf-8") as f:
        r = list(csv.reader(f))
    return (r[0], [dict(zip(r[0], row)) for row in r[1:]]) if r else ([], [])


def plain(path, *opts):
    """The --csv export's sample rows (segment, t_s, ..., as strings)."""
    text = run("export", path, "--csv", *opts).stdout.decode()
    lines = [l for l in text.splitlines() if not l.startswith("#")]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def num(s):
    return float(s) if s != "" else None


def close(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def check_table(name, head, rows, ref, phases_of=None, *, experiment=None):
    """Every check of one input's table against its plain export @ref."""
    check(head == COLUMNS, f"{name}: header is the documented columns ({','.join(head)})")
    check(len(rows) == len(ref) and len(rows) > 0, f"{name}: one row per sample ({len(rows)} rows, {len(ref)} samples)")
    bad_bytes = bad_rate = bad_iops = bad_lat = bad_phase = 0
    prev = {}
    for r, p in zip(rows, ref):
        seg = r["segment"]
        b = int(r["bytes"])
        if seg == p["segment"] and b < prev.get(seg, 0):
            bad_bytes += 1
        dt = num(r["interval_s"])
        want = (b - prev.get(seg, 0)) / dt / 1e6
        if not close(num(r["mb_s"]), want):
            bad_rate += 1
        prev[seg] = b
        if r["iops"] != "" and not close(num(r["iops"]), int(p["ios"]) / dt):
            bad_iops += 1
        for c in ("lat_p50_us", "lat_p99_us", "lat_p999_us", "lat_max_us", "temp_c"):
            if (r[c] == "") != (p[c] == "") or (r[c] != "" and not close(num(r[c]), num(p[c]))):
                bad_lat += 1
        if r["phase"] not in PHASES or (r["cache_tier"] != "") != (r["phase"] == "slc_cache"):
            bad_phase += 1
        elif phases_of is not None and r["phase"] != phases_of(int(seg), num(r["t_s"]) - dt / 2):
            bad_phase += 1
    check(all(r["segment"] == p["segment"] and close(num(r["t_s"]), num(p["t_s"]), 1e-12) for r, p in zip(rows, ref)),
          f"{name}: segments and times as the plain export's")
    check(bad_bytes == 0, f"{name}: bytes never go back within a segment ({bad_bytes} did)")
    check(bad_rate == 0, f"{name}: mb_s is the interval's bytes / interval_s / 1e6 ({bad_rate} differ)")
    check(bad_iops == 0, f"{name}: iops is ios / interval_s where given ({bad_iops} differ)")
    check(bad_lat == 0, f"{name}: latencies and temperature as recorded, empty where not ({bad_lat} differ)")
    check(bad_phase == 0, f"{name}: phases from the known set and the analysis, tiers on cache rows ({bad_phase} not)")
    if experiment is not None:
        check({r["experiment"] for r in rows} == {experiment}, f"{name}: experiment is {experiment!r}")


def analysed_phases(path):
    """The phase label analyze --json gives trace time @t of segment @seg ('' outside any)."""
    doc = json.loads(run("analyze", path, "--json").stdout)
    segs = {s["segment"]: s["phases"] for s in doc["segments"]}

    def label(seg, t):
        ph = segs.get(seg, [])
        for i, p in enumerate(ph):
            if p["start_s"] <= t < p["end_s"] or (i == len(ph) - 1 and p["start_s"] <= t <= p["end_s"]):
                return p["label"]
        return ""
    return label, segs


try:
    # a simulated run: the seq plan (a TRIM, then a fill with a cache)
    trace = os.path.join(tmp, "t.h5")
    run("run", "sim:tiny-tlc", "--plan", "seq", "--quiet", "-o", trace)
    label, segs = analysed_phases(trace)
    head, rows = tidy(trace)
    check_table("sim run", head, rows, plain(trace), label, experiment="seq")
    check({"slc_cache", "direct_to_tlc"} <= {r["phase"] for r in rows}, "sim run: the cache and direct-to-TLC phases are labelled")
    check(all(r["step"] == "seq_fill" and r["role"] == "fill" and r["block_bytes"] == "131072" and r["queue_depth"] == "32"
              for r in rows if r["segment"] == "1"), "sim run: the fill's step, role, block size and queue depth")
    stdout = run("export", trace, "--tidy", "-o", "-").stdout
    with open(os.path.join(tmp, "t.h5.tidy.csv"), "rb") as f:
        check(stdout == f.read(), "-o - writes the same table to stdout")
    run("export", trace, "--tidy", "--csv", rc=2)
    check(b"--tidy" in run("export", "--help").stdout, "export --help mentions --tidy")

    # a two-tier cache on QLC, sampled finely: tiers 1 and 2, the native level named for QLC
    qlc = os.path.join(tmp, "qlc.h5")
    run("run", "sim:tiny-qlc2", "--plan", "seq", "-i", "20ms", "--quiet", "-o", qlc)
    label, _ = analysed_phases(qlc)
    head, rows = tidy(qlc)
    check_table("two-tier QLC run", head, rows, plain(qlc), label, experiment="seq")
    check({r["cache_tier"] for r in rows} == {"", "1", "2"} and "direct_to_qlc" in {r["phase"] for r in rows},
          "two-tier QLC run: cache tiers 1 and 2, direct_to_qlc")

    # a drive that reports its temperature: temp_c in every sample of the curve
    hot = os.path.join(tmp, "hot.h5")
    run("run", "sim:thermal-nvme", "--plan", "rand", "--rand-time", "120s", "--quiet", "-o", hot)
    label, _ = analysed_phases(hot)
    head, rows = tidy(hot)
    check_table("thermal run", head, rows, plain(hot), label, experiment="rand")
    curve = [r for r in rows if r["role"] == "curve"]
    check(curve and all(r["temp_c"] != "" and 0 < float(r["temp_c"]) < 150 for r in curve),
          "thermal run: the curve's temperatures in degrees C")

    # a queue-depth sweep: reads and writes, every segment exported, none a write curve
    sweep = os.path.join(tmp, "q.h5")
    run("run", "sim:tiny-tlc", "--plan", "qd-sweep", "--step-time", "200ms", "--trim-wait", "1s", "--quiet", "-o", sweep)
    label, _ = analysed_phases(sweep)
    head, rows = tidy(sweep)
    check_table("qd-sweep run", head, rows, plain(sweep), label, experiment="qd-sweep")
    check({"sweep_prep", "sweep"} <= {r["role"] for r in rows} and any("read" in r["workload"] for r in rows),
          "qd-sweep run: the preparation and the read points are rows too")

    # imported fio logs (averaged bandwidth and IOPS logs; per-I/O) and a CSV: no plan, no latencies
    for log in ("avg_bw.1.log", "raw_bw.1.log", "time_s_bytes_per_s.csv"):
        src = os.path.join(tmp, log)
        # with its sibling logs (avg_bw.2.log, avg_iops.N.log): fio's NAME_bw.N.log / NAME_iops.N.log
        for f in os.listdir(os.path.join(testdata, "import")):
            if f.startswith(log.split(".")[0].rsplit("_", 1)[0] + "_") or f == log:
                shutil.copy(os.path.join(testdata, "import", f), tmp)
        label, _ = analysed_phases(src)
        head, rows = tidy(src)
        check_table(log, head, rows, plain(src), label, experiment="")
        check(all(r["lat_p99_us"] == "" and r["temp_c"] == "" for r in rows), f"{log}: no latency, no temperature: empty cells")
        check(all(r["block_bytes"] == "" and r["queue_depth"] == "" for r in rows), f"{log}: block size and queue depth unknown: empty")
        check(any(r["phase"] for r in rows), f"{log}: the analysis labelled its samples")
        if log.endswith(".csv"):
            check(all(r["iops"] == "" for r in rows), f"{log}: I/Os not counted: iops empty, not 0")
        else:
            check(all(r["iops"] != "" for r in rows), f"{log}: fio counted the I/Os: iops given")

    # step and plan names with commas, quotes (and a line break the trace keeps as it stores it)
    odd = os.path.join(tmp, "odd.h5")
    subprocess.run([writer, odd, "csvtext"], check=True)
    stored = json.loads(run("export", odd, "--json").stdout)
    step, plan = stored["segments"][0]["params"]["step"], stored["meta"]["plan"]
    label, _ = analysed_phases(odd)
    head, rows = tidy(odd)
    check_table("awkward names", head, rows, plain(odd), label, experiment=plan)
    check(plan == 'my "plan", v2', f"the trace keeps the plan {plan!r}")
    check(step.startswith('burst, "fast"') and all(r["step"] == step for r in rows),
          f"a step name with a comma and quotes survives: {rows[0]['step'] if rows else None!r}")
    check(sum(r["lat_p99_us"] == "" for r in rows) == len(rows[3::7]) and sum(r["temp_c"] != "" for r in rows) == 150,
          "unknown latencies (every 7th) and unread temperatures (every other) are empty cells")
    check([r["phase"] for r in rows[:100]] == ["slc_cache"] * 100 and {r["phase"] for r in rows[100:]} == {"direct_to_tlc"},
          "the 1 GB/s stretch is the cache, the 200 MB/s rest direct to TLC")

    # the report's phases.csv holds the same step name in one field
    rep = os.path.join(tmp, "odd-report")
    run("report", odd, "-o", rep)
    with open(os.path.join(rep, "phases.csv"), newline="") as f:
        prow = list(csv.DictReader(f))
    check(prow and all(r["step"] == step for r in prow) and {r["kind"] for r in prow} >= {"slc_cache"},
          f"phases.csv: the step name with a comma and quotes in one field: {prow[0] if prow else None!r}")

    try:
        import pandas
    except ImportError:
        print("skip: pandas not installed (python3-pandas): its read is not checked")
    else:
        df = pandas.read_csv(os.path.join(tmp, "odd.h5.tidy.csv"))
        check(list(df.columns) == COLUMNS and len(df) == 300 and df["step"].iloc[0] == step
              and df["lat_p99_us"].isna().sum() == len(rows[3::7]), "pandas reads the table: columns, rows, names, NaN")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)

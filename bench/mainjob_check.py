#!/usr/bin/python3
"""Check the main job (`slcscope run sim: --report DIR`, the lab plan on the default sata240-tlc) against the acceptance list.

For each sampling interval (default 1 s and 100 ms) run the main job as a
user would,

    build/slcscope run sim: -o DIR/trace.h5 --report DIR --interval IV

(~25-60 s each), read `slcscope analyze --json DIR/trace.h5` and the
report's DIR/phases.json, and check the acceptance list's items for the
job's four write segments (the ADATA SP550 review's figures,
shared/brief/methodology.md; "~" figures within 10%, the tolerance of
docs/sim-presets.md):

  fill        cache 2.3 GB (within 1% of the drive's own cache_end_host)
  curve       cache 2.3 GB (same); direct-to-TLC ~19k IOPS; erase-bound
              ~14k IOPS; erase-bound from ~1.1 capacities
  idle burst  after 15 min idle: the cache back in full (95-105% of the
              fill's, the analysis's recovery.cache_frac); the native level
              erase-bound-slow
  trim burst  after the TRIM: the cache back in full (95-105%); the native
              level fresh

The native level of a burst is its last main phase (stalls and throttling
left out) as the analysis found it.  Each native-level item is checked
twice: by speed ("erase-bound-slow": its IOPS nearer the curve's
erase-bound level than its direct-to-TLC level, "fresh" the reverse; the
midpoint of the two found levels divides them) and by the label the
analysis gives it (`erase_bound`, resp. `direct_to_tlc`), which is what a
report reader sees; the drive's own phase is printed beside it (erase-bound
when the drive recorded `free_pool_exhausted` in the burst).  Also checked:
the report's phases.json says what `analyze --json` says.

Prints PASS/FAIL per item with the figures and a summary line per
interval; exit status 1 when an item fails.  --keep DIR keeps the traces
and reports (DIR/1s, DIR/100ms); --reuse checks those again without
running the job.

usage: bench/mainjob_check.py [--slc build/slcscope] [--intervals 1s,100ms]
         [--seed 1] [--keep DIR [--reuse]]
"""
import argparse, json, os, shutil, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analysis_vs_sim as avs  # noqa: E402

CACHE_TOL = 0.01          # cache within 1% of the drive's truth
APPROX = 0.10             # "~" figures: within 10% (docs/sim-presets.md)
FULL = (0.95, 1.05)       # "back in full"
CACHE_GB, DIRECT_IOPS, EB_IOPS, ONSET_CAP = 2.3, 19000, 14000, 1.1


def run_job(a, iv, d):
    path = os.path.join(d, "trace.h5")
    if a.reuse and os.path.exists(path) and os.path.exists(os.path.join(d, "phases.json")):
        return path, None
    os.makedirs(d, exist_ok=True)
    t = time.time()
    avs.sh([a.slc, "run", "sim:", "-o", path, "--report", d, "--interval", iv, "--seed", str(a.seed),
            "--quiet"])
    return path, time.time() - t


def by_role(trace):
    return {s["params"].get("role"): s for s in trace["segments"] if s["n_samples"] > 0}


def iops(bps, bs):
    return None if bps is None else bps / bs


def mean_of(phases, kind):
    b = sum(p["end_bytes"] - p["start_bytes"] for p in phases if p["kind"] == kind)
    t = sum(p["end_s"] - p["start_s"] for p in phases if p["kind"] == kind)
    return b / t if t > 0 else None


def main_phases(phases):
    return [p for p in phases if p["kind"] not in ("stall", "throttled")]


def k(x):
    return "none" if x is None else f"{x / 1e3:.1f}k"


def gb(x):
    return "none" if x is None else f"{x / 1e9:.3g} GB"


def pct(e):
    return "n/a" if e is None or e == float("inf") else f"{100 * e:+.2f}%"


def check(iv, path, d, a):
    """[(segment, item, ok, figures)]"""
    trace = json.loads(avs.sh([a.slc, "export", path, "--json"]))
    cap = trace["meta"]["capacity_bytes"]
    roles = by_role(trace)
    an = json.loads(avs.sh([a.slc, "analyze", path, "--json"]))
    with open(os.path.join(d, "phases.json")) as f:
        rep = json.load(f)
    segs = {s["segment"]: s for s in an["segments"]}
    seg = {r: segs[s["index"]] for r, s in roles.items()}
    truth = {r: avs.truth_phases(s)[1] for r, s in roles.items()}
    tph = {r: avs.truth_phases(s)[0] for r, s in roles.items()}
    bs = {r: s["params"]["block_bytes"] for r, s in roles.items()}
    out = []

    def cache_item(role, label):
        f, t = seg[role]["cache"]["size_bytes"], truth[role]["cache"]
        e = avs.err(f, t)
        ok = e is not None and abs(e) <= CACHE_TOL
        out.append((label, f"cache {CACHE_GB} GB", ok,
                    f"found {gb(f)}, drive {gb(t)} ({pct(e)}; within 1%)"))

    cache_item("fill", "fill")
    cache_item("curve", "random curve")
    cv = seg["curve"]["phases"]
    d_iops = iops(mean_of(cv, "direct_to_tlc"), bs["curve"])
    e_iops = iops(mean_of(cv, "erase_bound"), bs["curve"])
    for name, val, target in (("direct-to-TLC", d_iops, DIRECT_IOPS), ("erase-bound", e_iops, EB_IOPS)):
        e = avs.err(val, target)
        out.append(("random curve", f"{name} ~{target // 1000}k IOPS", e is not None and abs(e) <= APPROX,
                    f"found {k(val)} IOPS ({pct(e)} of {target // 1000}k; within 10%)"))
    ob = seg["curve"]["erase_bound_start_bytes"]
    caps = None if ob is None else ob / cap
    e = avs.err(caps, ONSET_CAP)
    out.append(("random curve", f"erase-bound from ~{ONSET_CAP} capacities", e is not None and abs(e) <= APPROX,
                f"found {gb(ob)} = {'none' if caps is None else f'{caps:.3f}'} capacities of "
                f"{gb(cap)} ({pct(e)} of {ONSET_CAP}; within 10%)"))
    mid = None if d_iops is None or e_iops is None else (d_iops + e_iops) / 2
    for role, label, want in (("idle_burst", "idle burst (15 min)", "erase-bound-slow"),
                              ("trim_burst", "trim burst", "fresh")):
        s = seg[role]
        frac = (s.get("recovery") or {}).get("cache_frac")
        ok = frac is not None and FULL[0] <= frac <= FULL[1]
        out.append((label, "cache back in full (95-105%)", ok,
                    f"found {gb(s['cache']['size_bytes'])} = "
                    f"{'none' if frac is None else f'{100 * frac:.1f}%'} of the fill's; "
                    f"drive {gb(truth[role]['cache'])}"))
        mp = main_phases(s["phases"])
        last = mp[-1] if mp else None
        lv = None if last is None else iops(last["mean_bps"], bs[role])
        if lv is None or mid is None:
            ok = False
        else:
            ok = lv < mid if want == "erase-bound-slow" else lv >= mid
        out.append((label, f"native level {want} (speed)", ok,
                    f"last phase at {k(lv)} IOPS; curve: direct {k(d_iops)}, erase-bound "
                    f"{k(e_iops)}, midpoint {k(mid)}"))
        # the label the analysis gives it, and the drive's own events
        tk = tph[role][-1][0] if tph[role] else None
        fp = truth[role]["onset"]
        need = "erase_bound" if want == "erase-bound-slow" else "direct_to_tlc"
        out.append((label, f"native level {want} (label {need})", last is not None and last["kind"] == need,
                    f"found {last['kind'] if last else 'none'}; the drive's own phase: {tk} "
                    f"(free_pool_exhausted {'at ' + gb(fp) if fp is not None else 'none'} in the burst)"))
    # the report says what analyze says
    same = all(
        abs((rs["cache"]["size_bytes"] or 0) - (segs[rs["segment"]]["cache"]["size_bytes"] or 0)) < 1
        and [p["kind"] for p in rs["phases"]] == [p["kind"] for p in segs[rs["segment"]]["phases"]]
        for rs in rep["segments"]) and len(rep["segments"]) == len(an["segments"])
    out.append(("report", "phases.json = analyze --json", same,
                "cache sizes and phase kinds of every segment" + ("" if same else ": they differ")))
    return out


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\nusage:")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Example: bench/mainjob_check.py --keep /tmp/slc-main   (then --reuse to check the "
               "same traces again).  Exit status 1 when an acceptance item fails.")
    ap.add_argument("--slc", default="build/slcscope", help="the slcscope binary (default build/slcscope)")
    ap.add_argument("--intervals", default="1s,100ms", help="sampling intervals (default 1s,100ms)")
    ap.add_argument("--seed", type=int, default=1, help="offsets, data and simulated noise (default 1)")
    ap.add_argument("--keep", metavar="DIR", help="keep each interval's trace and report in DIR/INTERVAL")
    ap.add_argument("--reuse", action="store_true", help="check the runs already in --keep DIR again")
    a = ap.parse_args()
    if a.reuse and not a.keep:
        ap.error("--reuse needs --keep DIR")
    if not os.access(a.slc, os.X_OK):
        sys.exit(f"{a.slc}: not found; build first: cmake -S . -B build && cmake --build build -j2")
    base = a.keep or tempfile.mkdtemp(prefix="slc-main-")
    fails, summary = 0, []
    for iv in a.intervals.split(","):
        d = os.path.join(base, iv)
        path, wall = run_job(a, iv, d)
        items = check(iv, path, d, a)
        took = "reused" if wall is None else f"the job took {wall:.0f} s"
        print(f"\n### Main job at {iv} ({took})\n")
        print("| segment | item | result | figures |")
        print("|---|---|---|---|")
        for seg, item, ok, fig in items:
            res = "PASS" if ok else "FAIL"
            print(f"| {seg} | {item} | {res} | {fig} |")
        counted = [ok for _, _, ok, _ in items]
        fails += counted.count(False)
        failed = [f"{s}: {i}" for s, i, ok, _ in items if ok is False]
        summary.append(f"{iv}: {counted.count(True)} of {len(counted)} PASS"
                       + (f" (FAIL: {'; '.join(failed)})" if failed else ""))
        sys.stdout.flush()
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    print("\nSummary: " + "; ".join(summary) + ".")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

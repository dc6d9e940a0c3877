#!/usr/bin/python3
"""Interval invariance: does the phase analysis give the same answer at 10 ms, 100 ms and 1 s samples?

For every simulated preset (`slcscope sim list`), the random and the
sequential plan, at each sampling interval, run the simulated drive
(`slcscope run sim:PRESET --plan rand|seq --interval IV`), analyse the trace
(`slcscope analyze --json`) and compare with the drive's own events
(`slcscope export --json`), scored as bench/analysis_vs_sim.py does (its
functions are imported):

- cache size: host bytes at `cache_end_host` vs the analysis's cache size;
  criterion: within 1%;
- erase-bound onset: host bytes at `free_pool_exhausted` vs the start of the
  first `erase_bound` phase; criterion: within 3%, or within one sample's
  worth of bytes at the erase-bound speed (what the interval can resolve);
- main phases: the found phases with `stall` and `throttled` left out and
  neighbours of one kind (and tier) merged, e.g. "cache direct erase-b.";
  criterion: the same at all intervals of a preset and plan.  Finer sampling
  may add stalls or throttling; they do not count; where the cache is
  shorter than 3 samples at some interval its tiers count as one cache.  The drive's own phases
  (between its events; it records no cache tiers) are shown beside them.

Sampling does not change the simulated drive: a preset, plan and seed give
the same events at every interval, so the truth is one per preset and plan.

Short phases: a true phase (between the drive's events) shorter than 3
samples at an interval is flagged "short": the samples cannot resolve it,
and the analysis should give a bound instead of a point figure.  The flag
says whether the analysis's JSON carries any bound (a non-null key naming a
bound, a range, an uncertainty or a lower/upper figure in `cache` or in
the phases: a phase's `end_range_bytes`, the interval its end lies in,
is one).
A cache given as a bound (`cache.bound`) passes the cache criterion when
the drive's figure lies inside it, and counts as a cache among the main
phases.

Cost: the simulated drive's CPU time is per write, not per sample, so each
interval costs about what a 1 s run costs (about 30 CPU-minutes for all 72
runs with the defaults, most of it sata120-sf's compression model and the
1-2 TB presets; 44 min wall on a shared 2-core machine); the large
presets' random curve is cut to 1.5 capacities (`--large-rand-bytes`, at
every interval so that the three
intervals see the same curve; every erase-bound onset lies before it).  A
2 h random curve at 10 ms is 720k samples.  On presets without a thermal
model the drive's counters are read every second (`--temp-every 1s`) at
intervals under 1 s instead of every sample: the readings carry no
temperature there, only write counters, which no scored figure uses, and
every-sample readings would make a 10 ms trace's JSON export gigabytes.
Traces go to --keep DIR (default: a temporary directory, removed); with
--reuse the traces already there are analysed again without simulating.

usage: bench/interval_invariance.py [--slc build/slcscope] [--plan rand,seq]
         [--intervals 10ms,100ms,1s] [--rand-time 2h] [--rand-bytes 2x]
         [--large-rand-bytes 1.5x] [--seq-bytes 1x] [--seed 1] [-j 2]
         [--keep DIR [--reuse]] [PRESET ...]
"""
import argparse, concurrent.futures, json, os, re, shutil, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analysis_vs_sim as avs  # noqa: E402

CACHE_TOL, ONSET_TOL = 0.01, 0.03
MIN_SAMPLES = 3
BOUND_KEY = re.compile(r"bound|uncert|range|_lo$|_hi$|_lower|_upper|_min$|_max$|^min_|^max_")


def dur_s(txt):
    m = re.fullmatch(r"([0-9.]+)(ms|s|m|h)?", txt)
    if not m:
        sys.exit(f"bad interval {txt!r}")
    return float(m.group(1)) * {"ms": 1e-3, "s": 1, None: 1, "m": 60, "h": 3600}[m.group(2)]


def presets(slc):
    return [ln.split()[0] for ln in avs.sh([slc, "sim", "list"]).splitlines() if ln.strip()]


def thermal(slc, preset):
    out = avs.sh([slc, "sim", "show", preset])
    return any(ln.split()[:2] == ["thermal", "modelled"] for ln in out.splitlines())


def run_args(a, preset, plan, iv, path, has_thermal):
    args = [a.slc, "run", f"sim:{preset}", "--plan", plan, "-o", path, "--quiet",
            "--interval", iv, "--seed", str(a.seed)]
    if plan == "rand":
        rb = a.large_rand_bytes if preset in avs.LARGE else a.rand_bytes
        args += ["--rand-time", a.rand_time, "--rand-bytes", rb]
    else:
        args += ["--seq-bytes", a.seq_bytes]
    if dur_s(iv) < 1 and not has_thermal:
        args += ["--temp-every", "1s"]
    return args


def truth_of(a, path):
    """The drive's events and the segment's length, cached beside the trace
    (the JSON export of a 10 ms trace is hundreds of MB)."""
    cache = path[:-3] + ".truth.json"
    if os.path.exists(cache) and os.path.getmtime(cache) >= os.path.getmtime(path):
        with open(cache) as f:
            return json.load(f)
    trace = json.loads(avs.sh([a.slc, "export", path, "--json"]))
    seg = next(s for s in trace["segments"] if s["n_samples"] > 0)
    del trace
    small = {"index": seg["index"], "n_samples": seg["n_samples"],
             "events": [e for e in seg["events"] if not e["kind"].startswith("smart_")],
             "samples": {"t_s": [seg["samples"]["t_s"][-1]]}}
    with open(cache, "w") as f:
        json.dump(small, f)
    return small


def one(a, preset, plan, iv, workdir, has_thermal):
    """Run (unless reused), analyse, score one cell."""
    t = time.time()
    path = os.path.join(workdir, f"{preset}-{plan}-{iv}.h5")
    if not (a.reuse and os.path.exists(path)):
        avs.sh(run_args(a, preset, plan, iv, path, has_thermal))
    seg = truth_of(a, path)
    an = json.loads(avs.sh([a.slc, "analyze", path, "--json", "--segment", str(seg["index"])]))
    if not a.keep:
        os.unlink(path)
        os.unlink(path[:-3] + ".truth.json")
    print(f"{preset} {plan} {iv}: {time.time() - t:.0f} s", file=sys.stderr, flush=True)
    return seg, an


def main_phases(an):
    """Found phases without stalls/throttling, neighbours of one kind and tier merged;
    a cache given as a bound counts as a cache."""
    out = [("slc_cache", 1)] if (an.get("cache") or {}).get("bound") else []
    for p in an["phases"]:
        if p["kind"] in ("stall", "throttled"):
            continue
        key = (p["kind"], p.get("tier"))
        if not out or out[-1] != key:
            out.append(key)
    return out


def kinds_str(keys):
    return " ".join(avs.SHORT.get(k, k) for k, _ in keys) or "none"


def truth_main(phases):
    out = []
    for kind, _, _ in phases:
        if kind != "throttled" and (not out or out[-1] != kind):
            out.append(kind)
    return out


def bound_keys(an):
    keys = set()
    for obj in [an.get("cache") or {}] + list(an["phases"]):
        keys |= {k for k in obj if BOUND_KEY.search(k) and obj[k] is not None}
    return sorted(keys)


def score(cell_in):
    (preset, plan, iv), (seg, an) = cell_in
    phases, tr = avs.truth_phases(seg)
    dt = dur_s(iv)
    c_txt, c_err, c_ok = avs.cell(an["cache"]["size_bytes"], tr["cache"], CACHE_TOL, 1e9, "")
    if not c_ok and an["cache"]["size_bytes"] is not None and tr["cache"] is not None:
        # as for the onset: one sample's worth of bytes at the cache's
        # speed is the finest the interval can place its end
        cs = next((p["mean_bps"] for p in an["phases"] if p["kind"] == "slc_cache"), None)
        if cs and abs(an["cache"]["size_bytes"] - tr["cache"]) <= cs * dt:
            c_ok, c_err = True, c_err.replace(" FAIL", "") + " (within a sample)"
    bnd = (an.get("cache") or {}).get("bound")
    if bnd and tr["cache"] is not None:
        # a cache too short for the interval: the answer is a bound, right
        # when it holds the drive's figure
        # (no upper bound: null, the capacity unknown)
        hi = bnd["max_bytes"] if bnd["max_bytes"] is not None else float("inf")
        c_ok = bnd["min_bytes"] <= tr["cache"] <= hi
        c_txt = f"{tr['cache'] / 1e9:.3g} / {bnd['min_bytes'] / 1e9:.3g}-{hi / 1e9:.3g}"
        c_err = "bound holds" if c_ok else "bound FAIL"
    o_txt, o_err, o_ok = avs.cell(an["erase_bound_start_bytes"], tr["onset"], ONSET_TOL, 1e9, "")
    found_on = an["erase_bound_start_bytes"]
    if not o_ok and found_on is not None and tr["onset"] is not None:
        # one sample's worth of bytes at the onset is the finest the
        # interval can place it (the invariance's own tolerance)
        eb = next((p["mean_bps"] for p in an["phases"] if p["kind"] == "erase_bound"), None)
        if eb and abs(found_on - tr["onset"]) <= eb * dt:
            o_ok, o_err = True, o_err.replace(" FAIL", "") + " (within a sample)"
    short = []
    for kind, t0, t1 in phases:
        n = (t1 - t0) / dt
        if n < MIN_SAMPLES:
            short.append(f"{avs.SHORT.get(kind, kind)} {n:.2g} samples")
    bk = bound_keys(an)
    flag = ""
    if short:
        flag = "short: " + ", ".join(short) + ("; bound: " + ",".join(bk) if bk else "; no bound given")
    return {"preset": preset, "plan": plan, "iv": iv, "c_txt": c_txt, "c_err": c_err, "c_ok": c_ok,
            "c_has": tr["cache"] is not None or an["cache"]["size_bytes"] is not None,
            "o_txt": o_txt, "o_err": o_err, "o_ok": o_ok,
            "o_has": tr["onset"] is not None or an["erase_bound_start_bytes"] is not None,
            "main": main_phases(an), "truth_main": truth_main(phases),
            "all": " ".join(avs.SHORT.get(p["kind"], p["kind"]) for p in an["phases"]),
            "flag": flag, "short": bool(short), "bound": bool(bk), "n": seg["n_samples"],
            "cache": an["cache"]["size_bytes"], "cache_bound": bnd, "onset": found_on}


def spread(vals):
    """max / min - 1 of the figures (0 for fewer than two)."""
    return max(vals) / min(vals) - 1 if len(vals) > 1 and min(vals) > 0 else 0.0


def agree(rs, tol=0.03):
    """Does the answer agree across the intervals of one preset x plan
    (rows @rs): the cache and the onset each given at every interval or at
    none, their figures within @tol of each other; a cache given as a bound
    (too short for that interval) agrees when it holds the other intervals'
    figures.  Returns (ok, cache spread, onset spread)."""
    pts = [r["cache"] for r in rs if r["cache"] is not None]
    bnds = [r["cache_bound"] for r in rs if r["cache"] is None and r["cache_bound"]]
    ons = [r["onset"] for r in rs if r["onset"] is not None]
    ok = len(pts) + len(bnds) in (0, len(rs)) and len(ons) in (0, len(rs))
    his = [b["max_bytes"] if b["max_bytes"] is not None else float("inf") for b in bnds]
    for b, hi in zip(bnds, his):
        ok = ok and all(b["min_bytes"] <= x <= hi for x in pts)
    # bounds at several intervals: they overlap
    ok = ok and (not bnds or max(b["min_bytes"] for b in bnds) <= min(his))
    cs, os_ = spread(pts), spread(ons)
    return ok and cs <= tol and os_ <= tol, cs, os_


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\nusage:")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Example: bench/interval_invariance.py --keep /tmp/slc-iv   (then add --reuse to "
               "analyse the same traces again).  Exit status 1 when a cell misses a criterion.")
    ap.add_argument("--slc", default="build/slcscope", help="the slcscope binary (default build/slcscope)")
    ap.add_argument("--plan", default="rand,seq", help="plans, comma-separated (default rand,seq)")
    ap.add_argument("--intervals", default="10ms,100ms,1s", help="sampling intervals (default 10ms,100ms,1s)")
    ap.add_argument("--rand-time", default="2h", help="random curve length (default 2h)")
    ap.add_argument("--rand-bytes", default="2x", help="... or this much, small presets (default 2x)")
    ap.add_argument("--large-rand-bytes", default="1.5x",
                    help="... the large presets (%s; default 1.5x)" % ", ".join(avs.LARGE))
    ap.add_argument("--seq-bytes", default="1x", help="sequential fill (default 1x)")
    ap.add_argument("--seed", type=int, default=1, help="offsets, data and simulated noise (default 1)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="simulations at once (default 2, at most 2)")
    ap.add_argument("--keep", metavar="DIR", help="keep the traces in DIR")
    ap.add_argument("--reuse", action="store_true",
                    help="analyse the traces already in --keep DIR instead of simulating again")
    ap.add_argument("presets", nargs="*", help="presets (default: every one of `slcscope sim list`)")
    a = ap.parse_args()
    if a.reuse and not a.keep:
        ap.error("--reuse needs --keep DIR")
    if not os.access(a.slc, os.X_OK):
        sys.exit(f"{a.slc}: not found; build first: cmake -S . -B build && cmake --build build -j2")
    a.jobs = max(1, min(a.jobs, 2))
    ivs = a.intervals.split(",")
    plans = a.plan.split(",")
    names = a.presets or presets(a.slc)
    workdir = a.keep or tempfile.mkdtemp(prefix="slc-iv-")
    os.makedirs(workdir, exist_ok=True)
    therm = {p: thermal(a.slc, p) for p in names}
    t0 = time.time()
    cells = [(p, pl, iv) for p in names for pl in plans for iv in ivs]
    # the costly simulations first, so that two run side by side to the end
    order = sorted(cells, key=lambda c: (c[0] not in avs.LARGE, c[1] != "rand"))
    res = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(one, a, p, pl, iv, workdir, therm[p]): (p, pl, iv) for p, pl, iv in order}
        for f in concurrent.futures.as_completed(futs):
            res[futs[f]] = f.result()
    wall = time.time() - t0
    if not a.keep:
        shutil.rmtree(workdir, ignore_errors=True)

    rows = {c: score((c, res[c])) for c in cells}
    print(f"Truth (the drive's events) / found (slcscope analyze); error = found / truth - 1. "
          f"Random: 4 KiB QD32 for {a.rand_time} or {a.rand_bytes} capacity "
          f"({a.large_rand_bytes} on the large presets) after a TRIM; seq: 128 KiB QD32 fill of "
          f"{a.seq_bytes} capacity after a TRIM; seed {a.seed}. Criteria: cache within 1%, "
          f"erase-bound onset within 3%, the same main phases (stalls and throttling left out) at "
          f"{', '.join(ivs)}. \"short\": a true phase under {MIN_SAMPLES} samples at that interval.\n")
    print("| preset | plan | interval | samples | cache GB (truth / found) | err | "
          "erase-bound onset GB (truth / found) | err | main phases found | same at all intervals | "
          "drive's phases | all phases found | flag |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    groups = {}
    for p in names:
        for pl in plans:
            sigs = [rows[(p, pl, iv)]["main"] for iv in ivs]
            if any("cache" in rows[(p, pl, iv)]["flag"] for iv in ivs):
                # a cache too short for some interval: its tiers cannot be
                # told there; compare with the tiers as one cache
                sigs = [[k for j, k in enumerate(sg) if not (j and k[0] == "slc_cache" and sg[j - 1][0] == "slc_cache")]
                        for sg in ([(k[0], 1 if k[0] == "slc_cache" else k[1]) for k in s] for s in sigs)]
            groups[(p, pl)] = all(s == sigs[0] for s in sigs)
            for iv in ivs:
                r = rows[(p, pl, iv)]
                allp = r["all"] if len(r["all"]) <= 80 else r["all"][:77] + "..."
                print(f"| {p} | {pl} | {iv} | {r['n']} | {r['c_txt']} | {r['c_err']} | {r['o_txt']} | "
                      f"{r['o_err']} | {kinds_str(r['main'])} | {'yes' if groups[(p, pl)] else 'NO'} | "
                      f"{' '.join(avs.SHORT.get(k, k) for k in r['truth_main'])} | {allp} | {r['flag']} |")
    n = len(cells)
    c_cells = [r for r in rows.values() if r["c_has"]]
    o_cells = [r for r in rows.values() if r["o_has"]]
    short = [r for r in rows.values() if r["short"]]
    agreed = {k: agree([rows[(k[0], k[1], iv)] for iv in ivs]) for k in groups}
    print()
    print(f"Summary ({n} cells: {len(names)} presets x {len(plans)} plans x {len(ivs)} intervals; "
          f"{wall:.0f} s wall with {a.jobs} at once): "
          f"cache within 1% (or a sample): {sum(r['c_ok'] for r in c_cells)} of {len(c_cells)} cells with a cache "
          f"on either side; onset within 3% (or a sample): {sum(r['o_ok'] for r in o_cells)} of {len(o_cells)} cells "
          f"with an onset on either side; all three criteria: "
          f"{sum(r['c_ok'] and r['o_ok'] and groups[(r['preset'], r['plan'])] for r in rows.values())} "
          f"of {n} cells; same main phases at every interval: {sum(groups.values())} of {len(groups)} "
          f"preset x plan pairs ({sum(groups[(r['preset'], r['plan'])] for r in rows.values())} of "
          f"{n} cells); short phases flagged in {len(short)} cells, a bound given in "
          f"{sum(r['bound'] for r in short)}; the answer agrees across the intervals (the cache and the onset "
          f"within 3% of each other, a bound holding the other intervals' figures): "
          f"{sum(v[0] for v in agreed.values())} of {len(agreed)} pairs, largest spread "
          f"{100 * max([v[1] for v in agreed.values()] + [0]):.2f}% (cache), "
          f"{100 * max([v[2] for v in agreed.values()] + [0]):.2f}% (onset).")
    for k, v in sorted(agreed.items()):
        if not v[0]:
            print(f"- disagrees across intervals: {k[0]} {k[1]} (cache spread {100 * v[1]:.2f}%, "
                  f"onset spread {100 * v[2]:.2f}%)")
    for iv in ivs:
        rs = [rows[(p, pl, iv)] for p in names for pl in plans]
        rc = [r for r in rs if r["c_has"]]
        ro = [r for r in rs if r["o_has"]]
        print(f"- {iv}: cache within 1% {sum(r['c_ok'] for r in rc)}/{len(rc)}, "
              f"onset within 3% {sum(r['o_ok'] for r in ro)}/{len(ro)}, "
              f"short phases flagged {sum(r['short'] for r in rs)}/{len(rs)}")
    return 0 if all(r["c_ok"] and r["o_ok"] for r in rows.values()) and all(groups.values()) and \
        all(v[0] for v in agreed.values()) else 1


if __name__ == "__main__":
    sys.exit(main())

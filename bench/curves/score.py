#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Score the phase analysis on randomised synthetic curves, out of sample,
against two threshold baselines.

For each family and seed, bench/curves/generate.py makes a curve and its
truth (or --from DIR reads cases written before); `slcscope analyze --json`
reads the CSV; the two baselines below read the same CSV.  A case is within
tolerance when every criterion holds:

- cache size within 3% of the truth, or both without a cache;
- phase means (cache, native = direct-to-TLC, erase-bound) within 5% of the
  truth's bytes / time over that phase, for each phase the truth has;
- erase-bound onset within 5% of the truth's bytes, or both without one;
- no phase kind the truth lacks (a cache on a drive without one, an
  erase-bound phase where there is none, a stall or throttled phase where
  the truth has no excursion).

An ambiguous case (three_levels: a second cache tier or direct-to-TLC then
erase-bound) is within tolerance when its primary labelling or a listed
alternative is; its failures are counted against the closer of the two.
The analysis (not the baselines, which have none) must then also name the
other labelling: when its reading matches only the alternative, its
runner-up must match the primary one (the same phases; cache within
RUNNER_TOL and onset within RUNNER_TOL, by whole groups of samples as the
model keeps them: a sample's bytes off counts as near), or the case
fails with "runner-up".

Phase means: a `stall` or `throttled` phase found is an excursion (left
out of the means) when the truth's excursions are left out of its means
(throttling, a post-cache stall, a recovered cache), and otherwise counts
with the phase it interrupts (a flat drive's GC dips are its texture and
are in the truth's native mean).

Baselines (what existing tools do, methodology.md): the cache ends at the
first sample whose centred 5-sample rolling median falls below F_CACHE of
the median of the first 10 samples (no cache if none does); native = the
median of the samples after it; erase-bound from the first later sample
whose rolling median falls below F_EB of native.  "fraction of start":
70% / 85%; "half-speed": 50% / 75%.

Exit status 1 when a case's truth is invalid, or a CSV or the analysis's
JSON cannot be read: never because of the accuracy figures.

usage: bench/curves/score.py [--slc build/slcscope] [--seeds tune|report|A-B] [--cases N]
                             [--family NAME[,NAME]] [--keep DIR | --from DIR] [--jobs 2] [--detail]
"""
import argparse
import concurrent.futures
import csv
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

CACHE_TOL, MEAN_TOL, ONSET_TOL = 0.03, 0.05, 0.05
RUNNER_TOL = 0.05
CRITERIA = ("cache size", "cache mean", "native mean", "erase-bound mean", "onset", "extra phase kind",
            "runner-up")
# Analysis labels acceptable for each kind of truth excursion.
EXCURSION_LABELS = {"throttled": {"throttled", "stall"}, "stall": {"stall", "throttled"},
                    "gc_dip": {"stall", "throttled"}, "cache_recovery": {"slc_cache"}}
BASELINES = {"fraction of start": (0.70, 0.85), "half-speed": (0.50, 0.75)}
METHODS = ("slcscope",) + tuple(BASELINES)


# ---- reading ---------------------------------------------------------------

def read_csv(path):
    """End-of-interval times, intervals, throughput and cumulative bytes,
    as slcscope's CSV importer reads them (the first interval is as long as
    the second)."""
    t, v = [], []
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        if r.fieldnames != ["time_s", "bytes_per_s"]:
            raise ValueError(f"{path}: header {r.fieldnames}")
        for row in r:
            t.append(float(row["time_s"]))
            v.append(float(row["bytes_per_s"]))
    if len(t) < 2:
        raise ValueError(f"{path}: fewer than 2 samples")
    dts = [t[1] - t[0]] + [b - a for a, b in zip(t, t[1:])]
    cum, c = [], 0.0
    for x, d in zip(v, dts):
        c += x * d
        cum.append(c)
    return {"t": t, "dt": dts, "bps": v, "cum": cum}


def check_samples(s, truth):
    bad = []
    if len(s["t"]) != truth["n_samples"]:
        bad.append(f"CSV has {len(s['t'])} samples, the truth {truth['n_samples']}")
    if abs(s["cum"][-1] - truth["total_bytes"]) > 1e-6 * truth["total_bytes"]:
        bad.append(f"CSV sums to {s['cum'][-1]:.6g} bytes, the truth {truth['total_bytes']:.6g}")
    if any(d <= 0 for d in s["dt"]):
        bad.append("CSV time does not increase")
    return bad


def evidence_args(truth):
    """What a lab knows of the drive it tested: its capacity and cell type,
    and that the curve began after a TRIM (every family's does)."""
    prm, args = truth.get("params", {}), ["--state", "trimmed"]
    if prm.get("capacity_bytes"):
        args += ["--capacity", str(int(prm["capacity_bytes"]))]
    if prm.get("cell") in ("slc", "mlc", "tlc", "qlc"):
        args += ["--cell", prm["cell"]]
    return args


def analyze(slc, path, extra=()):
    p = subprocess.run([slc, "analyze", "--json", *extra, path], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"analyze {path}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    an = json.loads(p.stdout)
    if an.get("schema") != "slcscope.phases/2" or "phases" not in an or "cache" not in an:
        raise RuntimeError(f"analyze {path}: not a slcscope.phases/2 document")
    for ph in an["phases"]:
        for k in ("kind", "start_s", "end_s", "start_bytes", "end_bytes"):
            if k not in ph:
                raise RuntimeError(f"analyze {path}: a phase without {k}")
    return an


# ---- baselines ---------------------------------------------------------------

def rolling_median(v, half=2):
    n = len(v)
    return [statistics.median(v[max(0, i - half):min(n, i + half + 1)]) for i in range(n)]


def baseline(s, f_cache, f_eb):
    """A threshold reading of the curve, in the shape of the analysis's JSON."""
    v, cum, t = s["bps"], s["cum"], s["t"]
    n = len(v)
    med = rolling_median(v)
    ref = statistics.median(v[:10])
    ce = next((i for i in range(n) if med[i] < f_cache * ref), None)
    if ce == 0:
        ce = None
    start = ce or 0
    native = statistics.median(v[start:])
    onset = next((i for i in range(start, n) if med[i] < f_eb * native), None)
    if onset == 0:
        onset = None
    at_b = lambda i: cum[i - 1] if i > 0 else 0.0
    at_t = lambda i: t[i - 1] if i > 0 else 0.0
    cuts = [(0, "slc_cache" if ce else "direct_to_tlc")]
    if ce:
        cuts.append((ce, "direct_to_tlc"))
    if onset is not None:
        if onset == start:
            cuts[-1] = (onset, "erase_bound")
        else:
            cuts.append((onset, "erase_bound"))
    phases = []
    for j, (i, kind) in enumerate(cuts):
        k = cuts[j + 1][0] if j + 1 < len(cuts) else n
        phases.append({"kind": kind, "start_s": at_t(i), "end_s": at_t(k),
                       "start_bytes": at_b(i), "end_bytes": at_b(k)})
    return {"cache": {"size_bytes": at_b(ce) if ce else None},
            "erase_bound_start_bytes": at_b(onset) if onset is not None else None,
            "phases": phases}


# ---- scoring -----------------------------------------------------------------

def found_figures(an, truth):
    """Cache size, phase means, onset and kinds of one reading (the
    analysis's or a baseline's)."""
    excl = any(e["excluded_from_means"] for e in truth["excursions"])
    acc, kinds, prev, lead = {}, set(), None, True
    phases = an["phases"]
    for j, p in enumerate(phases):
        kinds.add(p["kind"])
        kind = p["kind"]
        if kind in ("stall", "throttled"):
            if excl:
                continue
            # texture: with the phase it interrupts
            kind = prev or next((q["kind"] for q in phases[j + 1:] if q["kind"] not in ("stall", "throttled")),
                                "direct_to_tlc")
        if kind != "slc_cache":
            lead = False
        prev = kind
        if kind == "slc_cache" and not lead:
            continue  # a later cache (recovered) is no part of the cache's speed
        x = acc.setdefault(kind, [0.0, 0.0])
        x[0] += p["end_bytes"] - p["start_bytes"]
        x[1] += p["end_s"] - p["start_s"]
    mean = lambda k: acc[k][0] / acc[k][1] if k in acc and acc[k][1] > 0 else None
    # where the reading says the cache's end may lie: a bound's, else the
    # end range of the last phase of the leading cache
    rng, bound = None, an["cache"].get("bound")
    if bound:
        rng = [bound.get("min_bytes"), bound.get("max_bytes")]
    else:
        for p in phases:
            if p["kind"] in ("stall", "throttled"):
                continue  # inside the cache, as for its speed above
            if p["kind"] != "slc_cache":
                break
            rng = p.get("end_range_bytes")
    return {"cache_range": rng,
            "cache_bytes": an["cache"]["size_bytes"], "erase_bound_start_bytes": an["erase_bound_start_bytes"],
            "cache_mean_bps": mean("slc_cache"), "native_mean_bps": mean("direct_to_tlc"),
            "erase_bound_mean_bps": mean("erase_bound"), "kinds": sorted(kinds)}


def rel(found, truth):
    if truth is None and found is None:
        return 0.0
    if truth is None or found is None:
        return float("inf")
    return abs(found / truth - 1.0)


def failures(found, label, excursions):
    """The criteria one reading fails against one labelling of the truth."""
    bad = []
    if rel(found["cache_bytes"], label["cache_bytes"]) > CACHE_TOL:
        bad.append("cache size")
    for k, name in (("cache_mean_bps", "cache mean"), ("native_mean_bps", "native mean"),
                    ("erase_bound_mean_bps", "erase-bound mean")):
        if label[k] is not None and rel(found[k], label[k]) > MEAN_TOL:
            bad.append(name)
    if rel(found["erase_bound_start_bytes"], label["erase_bound_start_bytes"]) > ONSET_TOL:
        bad.append("onset")
    allowed = {"direct_to_tlc"}
    if label["cache_bytes"] is not None:
        allowed.add("slc_cache")
    if label["erase_bound_start_bytes"] is not None:
        allowed.add("erase_bound")
    for e in excursions:
        allowed |= EXCURSION_LABELS[e["kind"]]
    if set(found["kinds"]) - allowed:
        bad.append("extra phase kind")
    return bad


def runner_names(runner, label, interval):
    """Does the model's runner-up reading say what @label says?"""
    if not runner:
        return False
    if bool(runner["cache_tiers"]) != (label["cache_bytes"] is not None):
        return False
    if bool(runner["erase_bound"]) != (label["erase_bound_start_bytes"] is not None):
        return False
    tiers = len(label.get("cache_tiers") or [])
    if label["cache_bytes"] is not None and tiers and runner["cache_tiers"] != tiers:
        return False
    def near(x, y, sample):
        if x is None or y is None:
            return x is None and y is None
        return abs(x - y) <= max(RUNNER_TOL * y, sample)
    # the runner-up's boundaries are whole groups: a sample off is as near
    return (near(runner["cache_bytes"] if runner["cache_tiers"] else None, label["cache_bytes"],
                 (label["cache_mean_bps"] or 0) * interval) and
            near(runner["erase_bound_start_bytes"], label["erase_bound_start_bytes"],
                 (label["native_mean_bps"] or 0) * interval))


def score(found, truth, runner=None):
    """(within tolerance, failed criteria, which labelling).  With the
    analysis's @runner (its model.runner_up, or {} when it has none), a
    reading that matches an alternative only needs a runner-up that names
    the primary labelling."""
    best = (failures(found, truth, truth["excursions"]), "primary")
    for alt in truth["alternatives"]:
        f = failures(found, alt, truth["excursions"])
        if len(f) < len(best[0]):
            best = (f, alt["label"])
    if not best[0] and best[1] != "primary" and runner is not None and not runner_names(runner, truth, truth["interval_s"]):
        best = (["runner-up"], best[1])
    return not best[0], best[0], best[1]


# ---- the run -------------------------------------------------------------------

def make_cases(fams, seeds, workdir):
    cases, errors = [], []
    for fam in fams:
        for seed in seeds:
            name, times, rates, truth = generate.make_case(fam, seed)
            bad = generate.validate_truth(truth)
            if bad:
                errors.append(f"{name}: invalid truth: {', '.join(bad)}")
                continue
            generate.write_case(workdir, name, times, rates, truth)
            cases.append(name)
    return cases, errors


def read_cases(d, fams):
    names = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(d, "*.json"))
                   if os.path.exists(p[:-5] + ".csv"))
    return [n for n in names if n.rsplit("-", 1)[0] in fams]


def evaluate(slc, workdir, names, jobs, evidence=False):
    """Per case: truth, each method's figures and score; and the errors."""
    results, errors = [], []
    extra = {}
    for n in names:
        try:
            extra[n] = evidence_args(json.load(open(os.path.join(workdir, n + ".json")))) if evidence else []
        except (OSError, ValueError):
            extra[n] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {n: ex.submit(analyze, slc, os.path.join(workdir, n + ".csv"), extra[n]) for n in names}
        for n in names:
            try:
                truth = json.load(open(os.path.join(workdir, n + ".json")))
                bad = generate.validate_truth(truth)
                if bad:
                    raise ValueError("invalid truth: " + ", ".join(bad))
                s = read_csv(os.path.join(workdir, n + ".csv"))
                bad = check_samples(s, truth)
                if bad:
                    raise ValueError("; ".join(bad))
                readings = {"slcscope": futs[n].result()}
            except (OSError, ValueError, RuntimeError) as e:
                errors.append(f"{n}: {e}")
                continue
            for m, (fc, fe) in BASELINES.items():
                readings[m] = baseline(s, fc, fe)
            r = {"case": n, "family": truth["family"], "truth": truth, "methods": {}}
            for m, an in readings.items():
                found = found_figures(an, truth)
                runner = (an.get("model") or {}).get("runner_up") or {} if m == "slcscope" else None
                ok, bad, lab = score(found, truth, runner)
                r["methods"][m] = {"ok": ok, "failed": bad, "labelling": lab, "found": found}
            results.append(r)
    return results, errors


def pct(k, n):
    return f"{100.0 * k / n:.0f}%" if n else "-"


def most_failed(rs, m):
    counts = {c: sum(c in r["methods"][m]["failed"] for r in rs) for c in CRITERIA}
    c = max(CRITERIA, key=lambda x: counts[x])
    return f"{c} ({counts[c]})" if counts[c] else "-"


def report(results, fams, title):
    print(title + "\n")
    print("| family | cases | " + " | ".join(METHODS) + " | slcscope fails most on |")
    print("|---|---|" + "---|" * len(METHODS) + "---|")
    for fam in fams:
        rs = [r for r in results if r["family"] == fam]
        if not rs:
            continue
        cells = [pct(sum(r["methods"][m]["ok"] for r in rs), len(rs)) for m in METHODS]
        print(f"| {fam} | {len(rs)} | " + " | ".join(cells) + f" | {most_failed(rs, 'slcscope')} |")
    n = len(results)
    cells = [pct(sum(r["methods"][m]["ok"] for r in results), n) for m in METHODS]
    print(f"| **all** | {n} | " + " | ".join(f"**{c}**" for c in cells) + f" | {most_failed(results, 'slcscope')} |")
    miss = [r for r in results if "cache size" in r["methods"]["slcscope"]["failed"]
            and r["truth"]["cache_bytes"] is not None and r["methods"]["slcscope"]["labelling"] == "primary"]
    def holds(r):
        g, t = r["methods"]["slcscope"]["found"]["cache_range"], r["truth"]["cache_bytes"]
        return bool(g) and g[0] is not None and g[0] <= t and (g[1] is None or t <= g[1])
    if miss:
        per = ", ".join(f"{fam} {sum(holds(r) for r in miss if r['family'] == fam)} of "
                        f"{sum(r['family'] == fam for r in miss)}" for fam in fams if any(r["family"] == fam for r in miss))
        print(f"\nslcscope's cache-size misses whose stated end range or bound holds the true size: "
              f"{sum(holds(r) for r in miss)} of {len(miss)} ({per})")
    print("\nCases failing each criterion (a case can fail several):\n")
    print("| criterion | " + " | ".join(METHODS) + " |")
    print("|---|" + "---|" * len(METHODS))
    for c in CRITERIA:
        cells = [str(sum(c in r["methods"][m]["failed"] for r in results)) for m in METHODS]
        print(f"| {c} | " + " | ".join(cells) + " |")
    amb = [r for r in results if r["truth"]["ambiguous"]]
    if amb:
        print("\nAmbiguous cases (the curve admits a second labelling, listed in the truth), "
              "within tolerance by either labelling (slcscope: read as the alternative only with a "
              "runner-up naming the primary), and how many slcscope read as the alternative:\n")
        print("| family | ambiguous | " + " | ".join(METHODS) + " | slcscope by the alternative |")
        print("|---|---|" + "---|" * len(METHODS) + "---|")
        for fam in fams:
            rs = [r for r in amb if r["family"] == fam]
            if not rs:
                continue
            cells = [str(sum(r["methods"][m]["ok"] for r in rs)) for m in METHODS]
            alt = sum(r["methods"]["slcscope"]["ok"] and r["methods"]["slcscope"]["labelling"] != "primary"
                      for r in rs)
            print(f"| {fam} | {len(rs)} | " + " | ".join(cells) + f" | {alt} |")


def fmt(x, scale=1e9):
    return "none" if x is None else f"{x / scale:.4g}"


def detail(results):
    print("\n| case | truth cache GB | found | truth onset GB | found | slcscope kinds | slcscope failed |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        t, m = r["truth"], r["methods"]["slcscope"]
        f = m["found"]
        print(f"| {r['case']} | {fmt(t['cache_bytes'])} | {fmt(f['cache_bytes'])} | "
              f"{fmt(t['erase_bound_start_bytes'])} | {fmt(f['erase_bound_start_bytes'])} | "
              f"{','.join(f['kinds'])} | {', '.join(m['failed']) or 'ok'} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--slc", default="build/slcscope")
    ap.add_argument("--seeds", default="report", help="tune (1-100), report (1001-1100), A-B or N")
    ap.add_argument("--cases", type=int, default=50, help="per family: the first N seeds of the set (0: all)")
    ap.add_argument("--family", default="all", help="comma-separated, or all: " + ", ".join(generate.FAMILIES))
    ap.add_argument("--keep", help="write the cases (CASE.csv, CASE.json) and results.json here")
    ap.add_argument("--from", dest="src", help="score the cases already in this directory")
    ap.add_argument("--jobs", type=int, default=2, help="analyses at once (at most 2)")
    ap.add_argument("--detail", action="store_true", help="also a line per case")
    ap.add_argument("--evidence", action="store_true",
                    help="give the analysis what a lab knows: --capacity, --cell, --state trimmed")
    a = ap.parse_args()
    fams = list(generate.FAMILIES) if a.family == "all" else a.family.split(",")
    for f in fams:
        if f not in generate.FAMILIES:
            sys.exit(f"unknown family {f}; known: {', '.join(generate.FAMILIES)}")
    jobs = max(1, min(a.jobs, 2))
    t0 = time.time()
    errors = []
    if a.src:
        workdir = a.src
        names = read_cases(workdir, fams)
        what = f"cases read from {workdir}"
    else:
        workdir = a.keep or tempfile.mkdtemp(prefix="slc-curves-")
        os.makedirs(workdir, exist_ok=True)
        seeds = generate.seed_list(a.seeds, a.cases or None)
        names, errors = make_cases(fams, seeds, workdir)
        what = f"seeds {a.seeds} ({seeds[0]}-{seeds[-1]}), {len(seeds)} per family"
    results, errs = evaluate(a.slc, workdir, names, jobs, a.evidence)
    errors += errs
    missing = [f for f in fams if not any(r["family"] == f for r in results)]
    for f in missing:
        errors.append(f"family {f}: no case scored")
    report(results, fams, f"Within tolerance (cache 3%, phase means 5%, onset 5%, no phase kind the truth "
                          f"lacks), {what}; {len(results)} cases"
                          f"{', with capacity, cell type and state' if a.evidence else ', the curve alone'}:")
    if a.detail:
        detail(results)
    if a.keep and not a.src:
        with open(os.path.join(workdir, "results.json"), "w") as f:
            json.dump([{k: v for k, v in r.items() if k != "truth"} for r in results], f, indent=1)
    if not a.keep and not a.src:
        for n in names:
            for ext in (".csv", ".json"):
                os.unlink(os.path.join(workdir, n + ext))
        os.rmdir(workdir)
    print(f"\n{len(results)} cases scored, {len(errors)} errors, {time.time() - t0:.1f} s", file=sys.stderr)
    for e in errors:
        print("error: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

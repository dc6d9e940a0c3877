#!/usr/bin/python3
"""Score the phase analysis against the simulated drives' own ground truth.

For each preset, run the lab's write curves on the simulated drive
(`slcscope run sim:PRESET --plan rand|seq`), analyse the trace
(`slcscope analyze --json`) and compare with the events the drive recorded
(`slcscope export --json`):

- cache size: host bytes at `cache_end_host` (the first write after
  `cache_exhausted`, the first that found no SLC room, whose completion waited
  on the flash: where the host sees the cache end, the write buffer hiding
  the flash-side event until then) vs the analysis's cache size;
- erase-bound onset: host bytes at `free_pool_exhausted` (the first
  foreground GC) vs the start of the first `erase_bound` phase;
- phase mean speeds: per kind (cache, direct-to-TLC, erase-bound,
  throttled), bytes / time over the whole samples between the true
  boundaries (cache_end_host, throttle_on/off, free_pool_exhausted) vs
  bytes / time over the phases of that kind the analysis found.

Tolerances: cache 1%, phase means 3%, onset 5%.  A cache too short for the
interval (the analysis's `cache.bound`) passes when the bound holds the
drive's figure; its mean speed is not scored.  Prints a Markdown
table; a cell is "-" when neither side has the quantity, and an error is
marked FAIL when it exceeds its tolerance.

usage: bench/analysis_vs_sim.py [--slc build/slcscope] [--plan rand,seq]
         [--rand-time 2h] [--rand-bytes 2x] [--interval 1s] [--seed 1]
         [--keep DIR [--reuse]]
         [PRESET ...]
"""
import argparse, json, os, resource, subprocess, sys, tempfile, time

CACHE_TOL, MEAN_TOL, ONSET_TOL = 0.01, 0.03, 0.05
KINDS = ("slc_cache", "direct_to_tlc", "erase_bound", "throttled")
SHORT = {"slc_cache": "cache", "direct_to_tlc": "direct", "erase_bound": "erase-b.",
         "throttled": "throttled"}
LARGE = ["sata240-tlc", "sata256-mlc", "sata480-dramless", "nvme1t-tlc", "nvme2t-qlc",
         "ent960-tlc"]


def sh(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def truth_phases(seg):
    """[(kind, t0, t1)] between the drive's events, and the truth dict."""
    s = seg["samples"]
    end = s["t_s"][-1]
    ev = {}
    for e in seg["events"]:
        ev.setdefault(e["kind"], []).append(e)
    tr = {"cache": None, "onset": None}
    cuts = []  # (t, kind of what follows)
    ce = ev.get("cache_exhausted")
    if ce and ce[0]["host_bytes"] > 0:
        # where the host sees the cache end: the first completion that waits
        # on the flash after it (the write buffer hides the flash-side event)
        ce = ev.get("cache_end_host", ce)
        tr["cache"] = ce[0]["host_bytes"]
        cuts.append((ce[0]["t_s"], "native"))
    fp = ev.get("free_pool_exhausted")
    if fp:
        tr["onset"] = fp[0]["host_bytes"]
        cuts.append((fp[0]["t_s"], "erase_bound"))
    for e in ev.get("throttle_on", []):
        cuts.append((e["t_s"], "throttle_on"))
    for e in ev.get("throttle_off", []):
        cuts.append((e["t_s"], "throttle_off"))
    cuts.sort()
    kind = "slc_cache" if tr["cache"] else "direct_to_tlc"
    base, t0, out = kind, 0.0, []
    for t, what in cuts:
        if t > t0:
            out.append((kind, t0, t))
        t0 = t
        if what == "native":
            base = kind = "direct_to_tlc"
        elif what == "erase_bound":
            base = "erase_bound"
            if kind != "throttled":
                kind = base
        elif what == "throttle_on":
            kind = "throttled"
        else:
            kind = base
    if end > t0:
        out.append((kind, t0, end))
    return out, tr


def truth_means(seg, phases):
    """Bytes / time over the whole samples inside each true phase, per kind."""
    s = seg["samples"]
    acc = {}
    prev = 0
    for t, dt, b in zip(s["t_s"], s["interval_s"], s["bytes_total"]):
        a = t - dt
        for kind, t0, t1 in phases:
            if a >= t0 - 1e-9 and t <= t1 + 1e-9:
                x = acc.setdefault(kind, [0.0, 0.0])
                x[0] += b - prev
                x[1] += dt
        prev = b
    return {k: v[0] / v[1] for k, v in acc.items() if v[1] > 0}


def found_means(an, throttle_truth):
    """Bytes / time per kind over the phases found.  A stall or throttled
    drop is throttling where the drive recorded throttling, else it counts
    with the phase it interrupts (the truth's samples include it)."""
    acc, prev = {}, None
    for p in an["phases"]:
        kind = p["kind"]
        if kind in ("stall", "throttled"):
            kind = "throttled" if throttle_truth else (prev or kind)
        prev = kind
        x = acc.setdefault(kind, [0.0, 0.0])
        x[0] += p["end_bytes"] - p["start_bytes"]
        x[1] += p["end_s"] - p["start_s"]
    return {k: v[0] / v[1] for k, v in acc.items() if v[1] > 0}


def err(found, truth):
    if truth is None and found is None:
        return None
    if truth is None or found is None or truth == 0:
        return float("inf")
    return (found - truth) / truth


def cell(found, truth, tol, scale, unit):
    e = err(found, truth)
    if e is None:
        return "-", "-", True
    f = lambda x: "none" if x is None else f"{x / scale:.3g}{unit}"
    ok = abs(e) <= tol
    es = "n/a" if e == float("inf") else f"{100 * e:+.2f}%"
    return f"{f(truth)} / {f(found)}", es + ("" if ok else " FAIL"), ok


def run_one(slc, preset, plan, a, workdir):
    path = os.path.join(workdir, f"{preset}-{plan}.h5")
    args = [slc, "run", f"sim:{preset}", "--plan", plan, "-o", path, "--quiet",
            "--interval", a.interval, "--seed", str(a.seed)]
    if plan == "rand":
        args += ["--rand-time", a.rand_time, "--rand-bytes", a.rand_bytes]
    else:
        args += ["--seq-bytes", a.seq_bytes]
    cpu = float("nan")
    if not (a.reuse and os.path.exists(path)):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        sh(args)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    trace = json.loads(sh([slc, "export", path, "--json"]))
    seg = next(s for s in trace["segments"] if s["n_samples"] > 0)
    an = json.loads(sh([slc, "analyze", path, "--json", "--segment", str(seg["index"])]))
    if not a.keep:
        os.unlink(path)
    return seg, an, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--slc", default="build/slcscope")
    ap.add_argument("--plan", default="rand,seq")
    ap.add_argument("--rand-time", default="2h")
    ap.add_argument("--rand-bytes", default="2x")
    ap.add_argument("--seq-bytes", default="1x")
    ap.add_argument("--interval", default="1s")
    ap.add_argument("--seed", type=int, default=1, help="offsets, data and simulated noise")
    ap.add_argument("--keep", help="keep the traces in this directory")
    ap.add_argument("--reuse", action="store_true",
                    help="analyse the traces already in --keep DIR instead of running again")
    ap.add_argument("presets", nargs="*")
    a = ap.parse_args()
    presets = a.presets or LARGE
    workdir = a.keep or tempfile.mkdtemp(prefix="slc-avs-")
    os.makedirs(workdir, exist_ok=True)
    print(f"Truth (the drive's events) / found (slcscope analyze); error = found / truth - 1. "
          f"Random: 4 KiB QD32 for {a.rand_time} or {a.rand_bytes} capacity after a TRIM; "
          f"seq: 128 KiB QD32 fill of {a.seq_bytes} capacity after a TRIM; {a.interval} samples. "
          f"Tolerances: cache 1%, phase means 3%, onset 5%; a cache bound passes when it holds the truth.\n")
    print("| preset | plan | cache GB (truth / found) | err | erase-bound onset GB | err | "
          "phase means MB/s (truth / found, err) | phases found | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    fails = 0
    for pr in presets:
        for plan in a.plan.split(","):
            t = time.time()
            seg, an, cpu = run_one(a.slc, pr, plan, a, workdir)
            phases, tr = truth_phases(seg)
            tm = truth_means(seg, phases)
            fm = found_means(an, "throttled" in tm)
            c, ce, ok1 = cell(an["cache"]["size_bytes"], tr["cache"], CACHE_TOL, 1e9, "")
            bnd = an["cache"].get("bound")
            if bnd and tr["cache"] is not None:
                # a cache too short for the interval: a bound, right when it
                # holds the drive's figure; its sample's mean is no cache speed
                ok1 = bnd["min_bytes"] <= tr["cache"] <= bnd["max_bytes"]
                c = f"{tr['cache'] / 1e9:.3g} / {bnd['min_bytes'] / 1e9:.3g}-{bnd['max_bytes'] / 1e9:.3g}"
                ce = "bound holds" if ok1 else "bound FAIL"
            o, oe, ok2 = cell(an["erase_bound_start_bytes"], tr["onset"], ONSET_TOL, 1e9, "")
            ms, ok3 = [], True
            for k in KINDS:
                if k not in tm and k not in fm:
                    continue
                if k == "slc_cache" and bnd:
                    continue
                txt, e, ok = cell(fm.get(k), tm.get(k), MEAN_TOL, 1e6, "")
                ms.append(f"{SHORT[k]} {txt} ({e})")
                ok3 = ok3 and ok
            kinds = " ".join(SHORT.get(p["kind"], p["kind"]) for p in an["phases"])
            fails += not (ok1 and ok2 and ok3)
            print(f"| {pr} | {plan} | {c} | {ce} | {o} | {oe} | {'; '.join(ms)} | {kinds} | {cpu:.0f} |",
                  flush=True)
            print(f"{pr} {plan}: {time.time() - t:.0f} s", file=sys.stderr)
    if not a.keep:
        os.rmdir(workdir)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

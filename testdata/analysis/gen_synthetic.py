#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Deterministic synthetic write curves with known truth for the analysis tests.

Writes NAME.csv (columns second,write_MiB_s: 1 s samples, end-of-interval
time) and NAME.expected (key=value lines read by tests/unit/test_analysis_golden.c)
into this directory, and VARIANTS more of each (other noise, first phase
longer by a fraction of a sample) into variants/NAME.vK.*.  Run: python3 gen_synthetic.py  (no arguments; output is
identical on every run: each case has a fixed seed).

Each case is a list of truth phases (kind, duration_s, speed function of the
time inside the phase, relative noise, optional comb teeth).  A sample that
straddles a phase boundary carries the bytes of each part, so sub-sample
boundaries are exercised.  Truth per phase is computed from the generated
bytes: mean = bytes written inside the phase / its duration; the cache size
is the bytes written until the end of the last slc_cache phase (for a ramp
between cache and native speed: until the ramp midpoint at cache speed, the
byte-equivalent step).
"""
import math
import os
import random

MIB = 1048576.0
SUB = 20  # sub-steps per second to integrate ramps and boundaries
# Variants: the same cases with other noise and the first phase longer by a
# fraction of a sample, written to variants/NAME.vK.* (K = 1..VARIANTS) for
# the baseline scorer, which compares mean errors per case class.
VARIANTS = 3
# Robustness sweeps: SLC_GEN_SEED_OFFSET=k SLC_GEN_OUT=dir regenerate the
# same cases with other noise into dir (the committed files use 0, here).
SEED_OFFSET = int(os.environ.get("SLC_GEN_SEED_OFFSET", "0"))
VARIANT = 0


def flat(v):
    return lambda t: v


def ramp(v0, v1, dur):
    return lambda t: v0 + (v1 - v0) * min(max(t / dur, 0.0), 1.0)


def saw(lo, hi, period):
    return lambda t: lo + (hi - lo) * ((t % period) / period)


def decay(v0, vinf, tau):
    return lambda t: vinf + (v0 - vinf) * math.exp(-t / tau)


def generate(name, seed, phases, note, block=0, outlier_rate=0.0):
    """phases: list of dicts kind, dur, f, noise, comb (prob, lo, hi) or None."""
    rnd = random.Random(seed + SEED_OFFSET + 1000 * VARIANT)
    if VARIANT:
        phases = [dict(p) for p in phases]
        phases[0]["dur"] += (0.31 * VARIANT) % 1.0
        name = "variants/%s.v%d" % (name, VARIANT)
    total = sum(p["dur"] for p in phases)
    n = int(math.floor(total + 1e-9))
    starts = []
    acc = 0.0
    for p in phases:
        starts.append(acc)
        acc += p["dur"]
    pbytes = [0.0] * len(phases)
    rows = []
    for i in range(n):
        # one noise draw per sample and phase present in it
        draws = {}
        sbytes = 0.0
        for k in range(SUB):
            t = i + (k + 0.5) / SUB
            j = max(q for q in range(len(phases)) if starts[q] <= t)
            p = phases[j]
            if j not in draws:
                e = rnd.gauss(0.0, p["noise"])
                comb = p.get("comb")
                if comb and rnd.random() < comb[0]:
                    e = rnd.uniform(comb[1], comb[2]) - 1.0
                if outlier_rate and rnd.random() < outlier_rate:
                    e = rnd.uniform(0.05, 0.4) - 1.0
                draws[j] = max(e, -0.99)
            v = p["f"](t - starts[j]) * (1.0 + draws[j])
            b = v * MIB / SUB
            sbytes += b
            pbytes[j] += b
        rows.append((i + 1, sbytes / MIB))
    with open(name + ".csv", "w") as f:
        f.write("second,write_MiB_s\n")
        for t, v in rows:
            f.write("%d,%.3f\n" % (t, v))
    # truth (bytes rounded the same way as the CSV is not needed: 1e-3 MiB/s)
    exp = ["# truth for %s.csv, written by gen_synthetic.py: %s" % (name, note)]
    exp.append("class=%s" % name.split("/")[-1].split(".")[0])
    if block:
        exp.append("block_bytes=%d" % block)
    kinds = [p["kind"] for p in phases if p["kind"] != "ramp"]
    exp.append("kinds=" + ",".join(kinds))
    means = []
    for j, p in enumerate(phases):
        if p["kind"] != "ramp":
            means.append("%.6g" % (pbytes[j] / p["dur"]))
    exp.append("means_bps=" + ",".join(means))
    cache = None
    cum = 0.0
    for j, p in enumerate(phases):
        if p["kind"] == "slc_cache":
            cache = cum + pbytes[j]
        elif p["kind"] == "ramp" and cache is not None and j > 0 and phases[j - 1]["kind"] == "slc_cache":
            v0 = phases[j - 1]["f"](phases[j - 1]["dur"])
            cache = cum + v0 * MIB * p["dur"] / 2.0
            break
        elif p["kind"] in ("direct_to_tlc", "erase_bound"):
            break
        cum += pbytes[j]
    exp.append("cache_bytes=" + ("none" if cache is None else "%.6e" % cache))
    cum = 0.0
    eb = None
    for j, p in enumerate(phases):
        if p["kind"] == "erase_bound":
            eb = cum
            break
        cum += pbytes[j]
    exp.append("erase_bound_start_bytes=" + ("none" if eb is None else "%.6e" % eb))
    with open(name + ".expected", "w") as f:
        f.write("\n".join(exp) + "\n")


def ph(kind, dur, f, noise, comb=None):
    return {"kind": kind, "dur": dur, "f": f, "noise": noise, "comb": comb}


def main():
    global VARIANT
    os.chdir(os.environ.get("SLC_GEN_OUT") or os.path.dirname(os.path.abspath(__file__)))
    os.makedirs("variants", exist_ok=True)
    for VARIANT in range(VARIANTS + 1):
        cases()


def cases():
    generate("short_cache", 1, [
        ph("slc_cache", 7.4, flat(3000), 0.01),
        ph("direct_to_tlc", 592.6, flat(900), 0.05)],
        "cache of 7.4 samples at 3000 MiB/s, then 900 MiB/s")
    generate("close_ratio", 2, [
        ph("slc_cache", 300.5, flat(2000), 0.02),
        ph("direct_to_tlc", 1200, flat(1400), 0.04)],
        "native/cache speed ratio 0.7")
    generate("two_tier", 3, [
        ph("slc_cache", 60.3, flat(5000), 0.01),
        ph("slc_cache", 120.6, flat(3500), 0.01),
        ph("direct_to_tlc", 1000, flat(500), 0.10)],
        "QLC-like two-tier cache 5000 / 3500 MiB/s, then 500 MiB/s")
    generate("throttle_dip", 4, [
        ph("slc_cache", 150, flat(3000), 0.015),
        ph("throttled", 25, flat(1800), 0.03),
        ph("slc_cache", 225.5, flat(3000), 0.015),
        ph("direct_to_tlc", 1000, flat(1200), 0.08)],
        "a 25 s thermal throttle to 60% inside the cache")
    generate("ramp", 5, [
        ph("slc_cache", 200, flat(3000), 0.015),
        ph("ramp", 10, ramp(3000, 1200, 10), 0.015),
        ph("direct_to_tlc", 1000, flat(1200), 0.08)],
        "a 10 s linear ramp from cache to native speed")
    generate("comb", 6, [
        ph("slc_cache", 120.5, flat(2500), 0.01),
        ph("direct_to_tlc", 1500, flat(800), 0.05, comb=(0.3, 0.05, 0.3)),
        ph("erase_bound", 1000, flat(450), 0.15)],
        "post-cache comb: 30% of samples fall to 5-30% of 800 MiB/s")
    generate("sawtooth", 7, [
        ph("slc_cache", 150.5, flat(3000), 0.01),
        ph("direct_to_tlc", 1800, saw(600, 1400, 20), 0.03)],
        "post-cache sawtooth 600-1400 MiB/s, period 20 s")
    generate("flat_enterprise", 8, [
        ph("direct_to_tlc", 2000, flat(1800), 0.03)],
        "no cache: flat enterprise drive")
    generate("mlc_decay", 9, [
        ph("direct_to_tlc", 700.5, flat(351.6), 0.03),
        ph("erase_bound", 3000, decay(273.4, 50.8, 600), 0.05)],
        "no cache: MLC 90k IOPS flat, then 70k decaying to 13k (4 KiB)", block=4096)
    generate("three_phase_outliers", 10, [
        ph("slc_cache", 200.5, flat(3000), 0.01),
        ph("direct_to_tlc", 1000, flat(1500), 0.15),
        ph("erase_bound", 2000, flat(600), 0.25)],
        "cache, noisy direct-to-TLC, erase-bound; 1% single-sample dips",
        outlier_rate=0.01)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Randomised synthetic write curves with ground truth, for an out-of-sample
accuracy benchmark of the phase analysis.

Each shape family is a function of one random.Random: it draws a drive
(capacity, interface, speeds, noise, sampling interval) within ranges taken
from the reviews and real traces (bench/curves/README.md says where each
range comes from) and returns a plan of segments.  The plan is then
simulated sample by sample, and the truth is read off the simulation's own
segments: where each one started and ended in time and in host bytes, and
the bytes it wrote.  Nothing in the truth comes from an analysis of the
curve.

Segments end after a number of host bytes (a cache holds so many bytes
whatever the speed noise; the erase-bound onset comes when the free pool is
used up) or after a time (a thermal throttle, a GC dip); the last one runs
until its duration is reached, or the run ends at a fixed time (a 60 s
burst) and cuts what is in progress.

usage: bench/curves/generate.py [--family NAME[,NAME]] [--seeds tune|report|A-B|N]
                                [--cases N] --out DIR
Writes DIR/FAMILY-SEED.csv (time_s,bytes_per_s: end-of-interval time, the
mean throughput of the interval) and DIR/FAMILY-SEED.json (the truth).
"""
import argparse
import json
import math
import os
import random
import sys

MB = 1e6
GB = 1e9
SCHEMA = "slcscope.benchcurve/1"
# Seed sets: tuning happens on one, figures are reported on the other.
SEED_SETS = {"tune": range(1, 101), "report": range(1001, 1101)}
INTERVALS_S = (0.1, 0.2, 0.25, 0.5, 1.0)
# The analysis takes milliseconds on a 2-hour 1 s curve (7200 samples);
# 30,000 samples keeps a 400-case run of the benchmark within minutes in
# Python while still allowing the 0.1 s sampling of a long fill.
MAX_SAMPLES = 30000
CAPS_GB = {
    "sata": (120, 240, 256, 480, 500, 960, 1000, 2000),
    "nvme3": (256, 500, 512, 1000, 1024, 2000),
    "nvme4": (500, 512, 1000, 1024, 2000, 2048, 4000),
}
# Cache (SLC) write speed per interface: SATA is capped by the 6 Gb/s link,
# NVMe PCIe 3.0 x4 by ~3.5 GB/s, PCIe 4.0/5.0 drives write their cache at
# 3-7 GB/s (the BIWIN X570 trace: 5.3 GB/s).
CACHE_BPS = {"sata": (400 * MB, 560 * MB), "nvme3": (1500 * MB, 3500 * MB),
             "nvme4": (3000 * MB, 7000 * MB)}


class Seg:
    """One stretch of the true curve.

    kind: the truth phase (slc_cache, direct_to_tlc, erase_bound); tier for
    caches; excursion: None or throttled / stall / gc_dip / cache_recovery,
    with excluded: whether the phase means leave it out (a throttle is not
    the drive's native speed; a GC dip of a flat drive is its texture).
    Speed: bps flat, or decay=(v0, vinf, tau_s) from the segment's start.
    Noise: sigma (CoV of the AR(1) term), comb=(prob, lo, hi) a sample's
    speed factor drawn in [lo, hi] with that probability, saw=(lo, hi,
    period_s) a sawtooth factor.  End: end_bytes (absolute host bytes, flat
    speed only), dur_s, or neither (runs to the end of the trace).
    """

    def __init__(self, kind, bps=None, sigma=0.01, tier=None, decay=None, comb=None, saw=None,
                 end_bytes=None, dur_s=None, excursion=None, excluded=False):
        self.kind, self.bps, self.sigma, self.tier = kind, bps, sigma, tier
        self.decay, self.comb, self.saw = decay, comb, saw
        self.end_bytes, self.dur_s = end_bytes, dur_s
        self.excursion, self.excluded = excursion, excluded
        assert decay is None or end_bytes is None, "a byte-ended segment must be flat"

    def integral(self, a, b):
        """Noise-free bytes between a and b seconds after the segment's start."""
        if self.decay is None:
            return self.bps * (b - a)
        v0, vinf, tau = self.decay
        return vinf * (b - a) + (v0 - vinf) * tau * (math.exp(-a / tau) - math.exp(-b / tau))

    def mean_factor(self):
        """Expected noise factor: the comb's and sawtooth's loss of bytes."""
        f = 1.0
        if self.comb:
            p, lo, hi = self.comb
            f *= 1 - p + p * (lo + hi) / 2
        if self.saw:
            f *= (self.saw[0] + self.saw[1]) / 2
        return f


class Plan:
    """Segments, sampling interval, AR(1) rho of the noise, single-sample
    outlier probability, sampler timing jitter (fraction of the interval),
    and a fixed run length that cuts the plan (None: the plan's own end)."""

    def __init__(self, segs, dt, rho, outlier_p=0.0, jitter=0.0, t_total=None):
        self.segs, self.dt, self.rho = segs, dt, rho
        self.outlier_p, self.jitter, self.t_total = outlier_p, jitter, t_total


def simulate(rnd, plan):
    """Sample the plan: end-of-interval times, throughput per interval and
    the realised segments (start/end time and bytes, bytes written)."""
    segs, dt = plan.segs, plan.dt
    n_fixed = int(round(plan.t_total / dt)) if plan.t_total else None
    times, rates, real = [], [], []
    u = rnd.gauss(0.0, 1.0)
    k, cum, t_prev, seg_t0 = 0, 0.0, 0.0, 0.0
    cur = {"seg": 0, "start_s": 0.0, "start_bytes": 0.0, "bytes": 0.0}
    done = False
    i = 0
    while not done:
        if n_fixed is not None and i >= n_fixed:
            break
        if i >= 4 * MAX_SAMPLES:
            raise RuntimeError("plan does not end")
        # The first two intervals are equal: an importer takes the first
        # interval to be as long as the second.
        t = (i + 1) * dt
        if i >= 2 and plan.jitter:
            t += rnd.uniform(-plan.jitter, plan.jitter) * dt
        u = plan.rho * u + math.sqrt(1 - plan.rho ** 2) * rnd.gauss(0.0, 1.0)
        out = 1.0
        if plan.outlier_p and rnd.random() < plan.outlier_p:
            # mostly a stalled sample (a flush), rarely one that ran ahead
            out = rnd.uniform(0.05, 0.6) if rnd.random() < 0.9 else rnd.uniform(1.1, 1.3)
        teeth = rnd.random(), rnd.random()

        def factor(s):
            """The sample's speed factor in segment s: noise, teeth, outlier."""
            f = 1.0 + s.sigma * u
            if s.comb and teeth[0] < s.comb[0]:
                f = s.comb[1] + (s.comb[2] - s.comb[1]) * teeth[1]
            if s.saw:
                lo, hi, per = s.saw
                f *= lo + (hi - lo) * (((t_prev + t) / 2 - seg_t0) % per) / per
            return max(f * out, 0.02)
        tt, sbytes = t_prev, 0.0
        while tt < t - 1e-12 and not done:
            s = segs[k]
            f = factor(s)
            te, ended, by_bytes = t, False, False
            if s.dur_s is not None and seg_t0 + s.dur_s <= t:
                te, ended = max(seg_t0 + s.dur_s, tt), True
            if s.end_bytes is not None:
                tb = tt + (s.end_bytes - cum) / (s.bps * f)
                if tb <= te:
                    te, ended, by_bytes = tb, True, True
            # a byte-ended segment ends on its byte count exactly, not on a rounded time
            b = s.end_bytes - cum if by_bytes else s.integral(tt - seg_t0, te - seg_t0) * f
            cum += b
            sbytes += b
            cur["bytes"] += b
            tt = te
            if ended:
                cur.update(end_s=te, end_bytes=cum)
                real.append(cur)
                if k + 1 == len(segs):
                    done = True  # the last segment's duration: the trace ends with this sample
                    break
                k += 1
                seg_t0 = te
                cur = {"seg": k, "start_s": te, "start_bytes": cum, "bytes": 0.0}
        if done and tt < t - 1e-12:
            # the rest of the last sample continues the last segment
            s = segs[k]
            b = s.integral(tt - seg_t0, t - seg_t0) * factor(s)
            cum += b
            sbytes += b
            real[-1]["bytes"] += b
            real[-1].update(end_s=t, end_bytes=cum)
        times.append(t)
        rates.append(sbytes / (t - t_prev))
        t_prev = t
        i += 1
    if not done:
        cur.update(end_s=t_prev, end_bytes=cum)
        if cur["end_s"] > cur["start_s"]:
            real.append(cur)
    return times, rates, real


# ---- truth ---------------------------------------------------------------

def _mean(parts):
    b = sum(p["bytes"] for p in parts)
    s = sum(p["end_s"] - p["start_s"] for p in parts)
    return b / s if s > 0 else None


def truth_of(segs, real, relabel=None):
    """Cache size, tiers, phase means and onset from the realised segments.
    relabel maps a segment index to (kind, tier) for an alternative
    reading of the same curve."""
    relabel = relabel or {}
    rows = []
    for r in real:
        s = segs[r["seg"]]
        kind, tier = relabel.get(r["seg"], (s.kind, s.tier))
        rows.append(dict(r, kind=kind, tier=tier, excursion=s.excursion, excluded=s.excluded))
    lead = []
    for r in rows:
        if r["kind"] != "slc_cache":
            break
        lead.append(r)
    cache_end = lead[-1]["end_bytes"] if lead else None
    tiers = {}
    for r in lead:
        if not r["excluded"]:
            tiers.setdefault(r["tier"], []).append(r)
    tier_list = []
    prev_end = 0.0
    for tier in sorted(tiers):
        end = max(p["end_bytes"] for p in tiers[tier])
        tier_list.append({"tier": tier, "bytes": end - prev_end, "end_bytes": end,
                          "mean_bps": _mean(tiers[tier])})
        prev_end = end
    lead_ids = {id(r) for r in lead}
    kept = lambda kind: [r for r in rows if r["kind"] == kind and not r["excluded"]
                         and (kind != "slc_cache" or id(r) in lead_ids)]
    eb = [r for r in rows if r["kind"] == "erase_bound"]
    phases = []
    for r in rows:
        p = {"kind": r["kind"], "start_s": r["start_s"], "end_s": r["end_s"],
             "start_bytes": r["start_bytes"], "end_bytes": r["end_bytes"],
             "mean_bps": r["bytes"] / (r["end_s"] - r["start_s"]) if r["end_s"] > r["start_s"] else None}
        if r["tier"] is not None:
            p["tier"] = r["tier"]
        if r["excursion"]:
            p["excursion"] = r["excursion"]
        phases.append(p)
    return {
        "cache_bytes": cache_end,
        "cache_tiers": tier_list,
        "cache_mean_bps": _mean(kept("slc_cache")) if lead else None,
        "native_mean_bps": _mean(kept("direct_to_tlc")),
        "erase_bound_start_bytes": eb[0]["start_bytes"] if eb else None,
        "erase_bound_mean_bps": _mean(kept("erase_bound")) if eb else None,
        "excursions": [{"kind": r["excursion"], "in_phase": r["kind"], "start_s": r["start_s"],
                        "end_s": r["end_s"], "start_bytes": r["start_bytes"], "end_bytes": r["end_bytes"],
                        "mean_bps": r["bytes"] / (r["end_s"] - r["start_s"]),
                        "excluded_from_means": r["excluded"]} for r in rows if r["excursion"]],
        "phases": phases,
    }


# ---- drawing a drive -----------------------------------------------------

def log_uniform(rnd, lo, hi):
    return math.exp(rnd.uniform(math.log(lo), math.log(hi)))


def drive(rnd, ifaces=("sata", "nvme3", "nvme4")):
    iface = rnd.choice(ifaces)
    cap = rnd.choice(CAPS_GB[iface]) * GB
    vc = rnd.uniform(*CACHE_BPS[iface])
    return iface, cap, vc


def noise(rnd, p):
    """Common noise parameters: AR(1) rho, rare single-sample outliers,
    timing jitter of the sampler."""
    p["rho"] = rnd.uniform(0.0, 0.7)
    p["outlier_p"] = rnd.uniform(0.0, 0.005)
    p["jitter"] = rnd.uniform(0.0, 0.01)
    return p


def pick_dt(rnd, total_s, mins=()):
    """A sampling interval from INTERVALS_S that keeps the trace within
    MAX_SAMPLES and gives every (duration_s, min_samples) enough samples;
    None when no interval does (the family draws again)."""
    ok = [dt for dt in INTERVALS_S if total_s / dt <= MAX_SAMPLES
          and all(d / dt >= m for d, m in mins)]
    return rnd.choice(ok) if ok else None


def native_ratio(rnd, qlc_p=0.2):
    """Direct-to-TLC (or QLC) speed over cache speed: 0.2-0.45 for TLC
    (SP550 19k/80k IOPS = 0.24, BIWIN 1.8/5.1 GB/s = 0.35, a 1 TB drive
    2/4.5 GB/s = 0.44), 0.03-0.12 for QLC (2 TB QLC 130 MB/s after
    3.5 GB/s = 0.04)."""
    if rnd.random() < qlc_p:
        return "qlc", rnd.uniform(0.03, 0.12)
    return "tlc", rnd.uniform(0.2, 0.45)


def retry(builder):
    """Families draw again (same stream) until the constraints hold."""
    def run(rnd):
        for _ in range(2000):
            r = builder(rnd)
            if r is not None:
                return r
        raise RuntimeError(builder.__name__ + ": no draw met the constraints")
    run.__name__ = builder.__name__
    run.__doc__ = builder.__doc__
    return run


def cache_direct_eb(rnd, p, eb="step", cache_sigma=(0.003, 0.03), ratio=None, min_cache=8,
                    direct_tex=None, cache_tex=None, eb_p=1.0, ifaces=("sata", "nvme3", "nvme4")):
    """The three-phase curve of the methodology: cache, direct-to-TLC,
    erase-bound (a step, a decay, or none), with the family's variations."""
    iface, cap, vc = drive(rnd, ifaces)
    kind, r = ratio(rnd) if ratio else native_ratio(rnd)
    vd = r * vc
    cache = log_uniform(rnd, 0.005, 0.30) * cap
    onset = rnd.uniform(0.5, 1.1) * cap
    has_eb = rnd.random() < eb_p
    sig_c = rnd.uniform(*cache_sigma)
    sig_d = rnd.uniform(0.03, 0.15)
    sig_e = rnd.uniform(0.05, 0.2)
    p.update(iface=iface, capacity_bytes=cap, cell=kind, cache_bps=vc, direct_bps=vd,
             cache_sigma=sig_c, direct_sigma=sig_d)
    segs = []
    if cache_tex:
        # the last part of the cache already shows the teeth of folding
        frac = rnd.uniform(0.05, 0.2)
        segs.append(Seg("slc_cache", vc, sig_c, tier=1, end_bytes=cache * (1 - frac)))
        segs.append(Seg("slc_cache", vc, sig_c, tier=1, end_bytes=cache, **cache_tex))
        p["cache_textured_frac"] = frac
    else:
        segs.append(Seg("slc_cache", vc, sig_c, tier=1, end_bytes=cache))
    tex = direct_tex or {}
    mf = Seg("direct_to_tlc", vd, **tex).mean_factor()
    t_cache = cache / vc
    if has_eb:
        segs.append(Seg("direct_to_tlc", vd, sig_d, end_bytes=onset, **tex))
        t_direct = (onset - cache) / (vd * mf)
        after = rnd.uniform(0.2, 0.8) * cap
        if eb == "decay":
            v0 = vd * (1.0 if rnd.random() < 0.5 else rnd.uniform(0.8, 1.0))
            vinf = vd * rnd.uniform(0.15, 0.6)
            t_eb = after / ((v0 + vinf) / 2 * mf)
            tau = t_eb * rnd.uniform(0.1, 0.4)
            segs.append(Seg("erase_bound", sigma=sig_e, decay=(v0, vinf, tau), dur_s=t_eb, **tex))
            p.update(decay_v0_bps=v0, decay_vinf_bps=vinf, decay_tau_s=tau)
        else:
            ve = vd * rnd.uniform(0.25, 0.8)
            t_eb = after / (ve * mf)
            segs.append(Seg("erase_bound", ve, sig_e, dur_s=t_eb, **tex))
            p["erase_bound_bps"] = ve
        p.update(onset_bytes=onset, erase_bound_sigma=sig_e)
    else:
        t_direct = rnd.uniform(0.2, 0.8) * cap / (vd * mf)
        segs.append(Seg("direct_to_tlc", vd, sig_d, dur_s=t_direct, **tex))
        t_eb = 0.0
    total = t_cache + t_direct + t_eb
    p["cache_bytes_param"] = cache
    dt = pick_dt(rnd, total, [(t_cache, min_cache), (t_direct, 100), (t_eb, 150 if has_eb else 0)])
    if dt is None:
        return None
    noise(rnd, p)
    return Plan(segs, dt, p["rho"], outlier_p=p["outlier_p"], jitter=p["jitter"])


# ---- the families --------------------------------------------------------

@retry
def classic(rnd):
    """Cache, direct-to-TLC, erase-bound step."""
    p = {}
    plan = cache_direct_eb(rnd, p)
    return plan and (plan, p, None)


@retry
def decay(rnd):
    """Cache, direct-to-TLC, then a decay towards an asymptote from the onset."""
    p = {}
    plan = cache_direct_eb(rnd, p, eb="decay")
    return plan and (plan, p, None)


@retry
def nocache_decay(rnd):
    """No cache (MLC, the 850 Pro): a flat level, then a decay or a step."""
    if rnd.random() < 0.7:
        iface, cap, v = "sata", rnd.choice((120, 128, 240, 256, 480, 512)) * GB, rnd.uniform(250 * MB, 550 * MB)
    else:
        iface, cap, v = "nvme3", rnd.choice((256, 512, 1000, 1024)) * GB, rnd.uniform(1000 * MB, 2500 * MB)
    onset = rnd.uniform(0.7, 1.1) * cap
    sig_d, sig_e = rnd.uniform(0.01, 0.06), rnd.uniform(0.03, 0.15)
    p = dict(iface=iface, capacity_bytes=cap, cell="mlc", direct_bps=v, onset_bytes=onset,
             direct_sigma=sig_d, erase_bound_sigma=sig_e)
    after = rnd.uniform(0.3, 1.5) * cap
    segs = [Seg("direct_to_tlc", v, sig_d, end_bytes=onset)]
    if rnd.random() < 0.6:
        # 850 Pro: 90k IOPS, 70k right after the onset, an asymptote of 13k
        v0, vinf = v * rnd.uniform(0.7, 1.0), v * rnd.uniform(0.1, 0.5)
        t_eb = after / ((v0 + vinf) / 2)
        tau = t_eb * rnd.uniform(0.1, 0.4)
        segs.append(Seg("erase_bound", sigma=sig_e, decay=(v0, vinf, tau), dur_s=t_eb))
        p.update(shape="decay", decay_v0_bps=v0, decay_vinf_bps=vinf, decay_tau_s=tau)
        alt = None
    else:
        ve = v * rnd.uniform(0.3, 0.8)
        t_eb = after / ve
        segs.append(Seg("erase_bound", ve, sig_e, dur_s=t_eb))
        p.update(shape="step", erase_bound_bps=ve)
        # A flat level and a step down is what a cache then direct-to-TLC
        # writing looks like: only the step's place (about one capacity
        # written, where a cache holds at most 30%) tells them apart, and a
        # CSV does not carry the capacity.
        alt = ("cache + direct-to-TLC", {0: ("slc_cache", 1), 1: ("direct_to_tlc", None)})
    t_d = onset / v
    dt = pick_dt(rnd, t_d + t_eb, [(t_d, 100), (t_eb, 150)])
    if dt is None:
        return None
    noise(rnd, p)
    return Plan(segs, dt, p["rho"], outlier_p=p["outlier_p"], jitter=p["jitter"]), p, alt


@retry
def nocache_gc_dips(rnd):
    """No cache, flat, GC dips of ~-25% that recover; a 60 s run cuts the last."""
    iface = rnd.choice(("sata", "nvme3", "nvme4"))
    v = rnd.uniform(300 * MB, 550 * MB) if iface == "sata" else rnd.uniform(1000 * MB, 3500 * MB)
    t_total = 60.0
    dt = rnd.choice(INTERVALS_S)
    dip_d = lambda: rnd.uniform(max(2.0, 3 * dt), 8.0)
    # Dips are laid from the end backwards so that the last one is cut by the end.
    d_last = dip_d()
    start = t_total - rnd.uniform(max(1.0, 2 * dt), d_last - dt)
    dips = [(start, d_last)]
    while True:
        gap, d = rnd.uniform(8.0, 20.0), dip_d()
        s = dips[0][0] - gap - d
        if s < 5.0:
            break
        dips.insert(0, (s, d))
    sig = rnd.uniform(0.01, 0.05)
    segs, t = [], 0.0
    depths = []
    for s, d in dips:
        segs.append(Seg("direct_to_tlc", v, sig, dur_s=s - t))
        depth = rnd.uniform(0.2, 0.3)
        depths.append(depth)
        segs.append(Seg("direct_to_tlc", v * (1 - depth), sig, dur_s=d, excursion="gc_dip"))
        t = s + d
    p = noise(rnd, dict(iface=iface, capacity_bytes=None, direct_bps=v, direct_sigma=sig,
                        dips=[{"start_s": s, "dur_s": d, "depth": x} for (s, d), x in zip(dips, depths)]))
    p["outlier_p"] = 0.0  # a 60 s run with an outlier would be a dip of its own
    return Plan(segs, dt, p["rho"], jitter=p["jitter"], t_total=t_total), p, None


@retry
def dynamic_recover(rnd):
    """QLC with a dynamic cache: cache, a long slow stretch, fast again."""
    iface, cap, vc = drive(rnd, ("nvme3", "nvme4"))
    cap = max(cap, 1000 * GB)
    cache = rnd.uniform(0.05, 0.3) * cap
    vs = vc * rnd.uniform(0.03, 0.12)
    slow_b = rnd.uniform(0.05, 0.3) * cap
    vf = vc * rnd.uniform(0.5, 1.0)
    fast_b = rnd.uniform(0.01, 0.05) * cap
    sig_c, sig_s = rnd.uniform(0.003, 0.03), rnd.uniform(0.03, 0.15)
    ends_fast = rnd.random() < 0.5
    segs = [Seg("slc_cache", vc, sig_c, tier=1, end_bytes=cache),
            Seg("direct_to_tlc", vs, sig_s, end_bytes=cache + slow_b)]
    t_c, t_s, t_f = cache / vc, slow_b / vs, fast_b / vf
    if ends_fast:
        segs.append(Seg("slc_cache", vf, sig_c, tier=1, dur_s=t_f, excursion="cache_recovery", excluded=True))
        t_tail = 0.0
    else:
        segs.append(Seg("slc_cache", vf, sig_c, tier=1, end_bytes=cache + slow_b + fast_b,
                        excursion="cache_recovery", excluded=True))
        t_tail = t_s * rnd.uniform(0.2, 0.6)
        segs.append(Seg("direct_to_tlc", vs * rnd.uniform(0.9, 1.1), sig_s, dur_s=t_tail))
    dt = pick_dt(rnd, t_c + t_s + t_f + t_tail, [(t_c, 8), (t_s, 100), (t_f, 10)])
    if dt is None:
        return None
    p = noise(rnd, dict(iface=iface, capacity_bytes=cap, cell="qlc", cache_bps=vc, slow_bps=vs,
                        recovered_bps=vf, cache_bytes_param=cache, slow_bytes=slow_b, recovered_bytes=fast_b,
                        ends_fast=ends_fast))
    return Plan(segs, dt, p["rho"], outlier_p=p["outlier_p"], jitter=p["jitter"]), p, None


@retry
def three_levels(rnd):
    """Fast, middle, slow flat levels, no decay: a second cache tier, or
    direct-to-TLC then an erase-bound step."""
    iface, cap, v1 = drive(rnd, ("nvme3", "nvme4"))
    mech = rnd.choice(("tier2", "direct_eb"))
    sig1 = rnd.uniform(0.003, 0.02)
    if mech == "tier2":
        r2, sig2, r3 = rnd.uniform(0.55, 0.85), rnd.uniform(0.005, 0.03), rnd.uniform(0.05, 0.45)
        c1 = rnd.uniform(0.005, 0.05) * cap
        b2 = rnd.uniform(0.08, 0.3) * cap
        b3 = rnd.uniform(0.1, 0.5) * cap
        k2, k3 = ("slc_cache", 2), ("direct_to_tlc", None)
    else:
        r2, sig2, r3 = rnd.uniform(0.2, 0.65), rnd.uniform(0.02, 0.12), rnd.uniform(0.3, 0.8)
        c1 = log_uniform(rnd, 0.01, 0.2) * cap
        b2 = rnd.uniform(0.5, 1.1) * cap
        b3 = rnd.uniform(0.1, 0.5) * cap
        k2, k3 = ("direct_to_tlc", None), ("erase_bound", None)
    if b2 <= c1 * 1.2:
        return None
    v2, v3 = v1 * r2, v1 * r2 * r3
    sig3 = rnd.uniform(0.03, 0.15)
    segs = [Seg("slc_cache", v1, sig1, tier=1, end_bytes=c1),
            Seg(k2[0], v2, sig2, tier=k2[1], end_bytes=b2),
            Seg(k3[0], v3, sig3, tier=k3[1], dur_s=b3 / v3)]
    t1, t2, t3 = c1 / v1, (b2 - c1) / v2, b3 / v3
    dt = pick_dt(rnd, t1 + t2 + t3, [(t1, 8), (t2, 30), (t3, 150)])
    if dt is None:
        return None
    # What the curve shows decides whether the other reading is acceptable:
    # a middle level close to the first and as steady as a cache reads as a
    # tier, a much slower or noisy one as direct-to-TLC writing.
    clear = (r2 >= 0.65 and sig2 <= 0.02) if mech == "tier2" else (r2 <= 0.5 or sig2 >= 0.05)
    alt = None
    if not clear:
        alt = ({1: ("direct_to_tlc", None), 2: ("erase_bound", None)} if mech == "tier2"
               else {1: ("slc_cache", 2), 2: ("direct_to_tlc", None)})
        alt = ("direct + erase-bound" if mech == "tier2" else "second cache tier", alt)
    p = noise(rnd, dict(iface=iface, capacity_bytes=cap, mechanism=mech, level_bps=[v1, v2, v3],
                        level_sigma=[sig1, sig2, sig3], ratio_2_1=r2, ratio_3_2=r3,
                        end_bytes=[c1, b2]))
    return Plan(segs, dt, p["rho"], outlier_p=p["outlier_p"], jitter=p["jitter"]), p, alt


@retry
def noisy_cache(rnd):
    """Cache with a CoV of 0.15-0.3, then direct-to-TLC (and an erase-bound step half the time)."""
    p = {}
    plan = cache_direct_eb(rnd, p, cache_sigma=(0.15, 0.3), min_cache=15, eb_p=0.5,
                           ratio=lambda r: ("tlc", r.uniform(0.15, 0.4)))
    return plan and (plan, p, None)


@retry
def comb(rnd):
    """Comb or sawtooth texture in the direct phase (DRAM-less TR200) and at the cache end."""
    p = {}
    if rnd.random() < 0.6:
        tex = {"comb": (rnd.uniform(0.1, 0.4), rnd.uniform(0.02, 0.1), rnd.uniform(0.2, 0.4))}
    else:
        tex = {"saw": (rnd.uniform(0.3, 0.6), rnd.uniform(1.0, 1.2), rnd.uniform(4.0, 30.0))}
    ctex = None
    if rnd.random() < 0.5:
        ctex = {"comb": (rnd.uniform(0.2, 0.5), rnd.uniform(0.1, 0.3), rnd.uniform(0.3, 0.5))}
    plan = cache_direct_eb(rnd, p, direct_tex=tex, cache_tex=ctex, eb_p=0.5, min_cache=15)
    if plan is None:
        return None
    p["direct_texture"] = {k: list(v) for k, v in tex.items()}
    p["cache_texture"] = {k: list(v) for k, v in ctex.items()} if ctex else None
    return plan, p, None


@retry
def short_cache(rnd):
    """A cache of 2-3 samples in a short trace."""
    iface, cap, vc = drive(rnd)
    dt = rnd.choice(INTERVALS_S)
    k = rnd.uniform(2.0, 3.9)
    cache = vc * dt * k
    if not 0.005 <= cache / cap <= 0.3:
        return None
    _, r = native_ratio(rnd, qlc_p=0.1)
    vd = vc * r
    n = rnd.randint(30, 300)
    sig_c, sig_d = rnd.uniform(0.003, 0.02), rnd.uniform(0.02, 0.1)
    segs = [Seg("slc_cache", vc, sig_c, tier=1, end_bytes=cache),
            Seg("direct_to_tlc", vd, sig_d, dur_s=(n - k) * dt)]
    p = noise(rnd, dict(iface=iface, capacity_bytes=cap, cache_bps=vc, direct_bps=vd, cache_samples=k,
                        cache_bytes_param=cache, cache_sigma=sig_c, direct_sigma=sig_d))
    return Plan(segs, dt, p["rho"], outlier_p=p["outlier_p"], jitter=p["jitter"]), p, None


@retry
def throttle(rnd):
    """Thermal throttling: a flat reduced level for a while, then back (in the cache or after)."""
    iface, cap, vc = drive(rnd, ("nvme3", "nvme4"))
    _, r = native_ratio(rnd, qlc_p=0.0)
    vd = vc * r
    cache = rnd.uniform(0.05, 0.3) * cap
    t_c = cache / vc
    sig_c, sig_d = rnd.uniform(0.003, 0.02), rnd.uniform(0.03, 0.12)
    where = rnd.choice(("cache", "direct"))
    level = rnd.uniform(0.3, 0.7)
    t_d = rnd.uniform(0.1, 0.5) * cap / vd
    host_t = t_c if where == "cache" else t_d
    dur = rnd.uniform(5.0, 60.0)
    if dur > host_t / 4:
        return None
    at = rnd.uniform(0.2, 0.7)
    if where == "cache":
        segs = [Seg("slc_cache", vc, sig_c, tier=1, end_bytes=cache * at),
                Seg("slc_cache", vc * level, sig_c, tier=1, dur_s=dur, excursion="throttled", excluded=True),
                Seg("slc_cache", vc, sig_c, tier=1, end_bytes=cache),
                Seg("direct_to_tlc", vd, sig_d, dur_s=t_d)]
    else:
        segs = [Seg("slc_cache", vc, sig_c, tier=1, end_bytes=cache),
                Seg("direct_to_tlc", vd, sig_d, dur_s=t_d * at),
                Seg("direct_to_tlc", vd * level, sig_d, dur_s=dur, excursion="throttled", excluded=True),
                Seg("direct_to_tlc", vd, sig_d, dur_s=t_d * (1 - at))]
    dt = pick_dt(rnd, t_c + t_d + dur, [(t_c, 20), (dur, 8), (t_d, 100)])
    if dt is None:
        return None
    p = noise(rnd, dict(iface=iface, capacity_bytes=cap, cache_bps=vc, direct_bps=vd, cache_bytes_param=cache,
                        throttle_in=where, throttle_level=level, throttle_s=dur, throttle_at=at))
    return Plan(segs, dt, p["rho"], outlier_p=p["outlier_p"], jitter=p["jitter"]), p, None


@retry
def two_tier(rnd):
    """Two cache tiers (QLC: 54 GB at 5 GB/s, 3.5 GB/s to 460 GB), then direct."""
    iface, cap, v1 = drive(rnd, ("nvme3", "nvme4"))
    c1 = rnd.uniform(0.01, 0.05) * cap
    c2 = rnd.uniform(0.1, 0.3) * cap
    v2 = v1 * rnd.uniform(0.6, 0.8)
    v3 = v2 * rnd.uniform(0.04, 0.35)
    sig1, sig2, sig3 = rnd.uniform(0.003, 0.02), rnd.uniform(0.003, 0.02), rnd.uniform(0.03, 0.15)
    t1, t2 = c1 / v1, (c2 - c1) / v2
    t3 = rnd.uniform(0.1, 0.4) * cap / v3
    segs = [Seg("slc_cache", v1, sig1, tier=1, end_bytes=c1),
            Seg("slc_cache", v2, sig2, tier=2, end_bytes=c2),
            Seg("direct_to_tlc", v3, sig3, dur_s=t3)]
    dt = pick_dt(rnd, t1 + t2 + t3, [(t1, 8), (t2, 8), (t3, 100)])
    if dt is None:
        return None
    p = noise(rnd, dict(iface=iface, capacity_bytes=cap, tier_bps=[v1, v2], direct_bps=v3,
                        tier_end_bytes=[c1, c2]))
    return Plan(segs, dt, p["rho"], outlier_p=p["outlier_p"], jitter=p["jitter"]), p, None


@retry
def flat_enterprise(rnd):
    """One flat level (an enterprise drive, or a mixed workload: the BIWIN 50/50 trace)."""
    iface = rnd.choice(("sata", "nvme3", "nvme4"))
    v = rnd.uniform(400 * MB, 550 * MB) if iface == "sata" else rnd.uniform(1000 * MB, 3500 * MB)
    sig = rnd.uniform(0.005, 0.05)
    dur = rnd.uniform(300.0, 3600.0)
    dt = pick_dt(rnd, dur)
    p = noise(rnd, dict(iface=iface, capacity_bytes=None, direct_bps=v, direct_sigma=sig, run_s=dur))
    return Plan([Seg("direct_to_tlc", v, sig, dur_s=dur)], dt, p["rho"], outlier_p=p["outlier_p"],
                jitter=p["jitter"]), p, None


@retry
def near_ratio(rnd):
    """Cache and direct-to-TLC at a ratio of 0.6-0.8."""
    p = {}
    plan = cache_direct_eb(rnd, p, ratio=lambda r: ("tlc", r.uniform(0.6, 0.8)), eb_p=0.3,
                           cache_sigma=(0.003, 0.02))
    if plan is None:
        return None
    # a close ratio is visible only when the native writing is steady too
    for s in plan.segs:
        if s.kind == "direct_to_tlc":
            s.sigma = rnd.uniform(0.01, 0.05)
    p["direct_sigma"] = plan.segs[1].sigma
    # With an erase-bound step this is three flat levels, and three_levels'
    # rule applies: a middle level that is not clearly direct-to-TLC (at most
    # 0.5 of the cache, or a CoV of 5% or more) could be a second cache tier
    # with native writing after it; only the capacity tells them apart.
    alt = None
    if len(plan.segs) == 3 and plan.segs[2].decay is None:
        r = p["direct_bps"] / p["cache_bps"]
        if not (r <= 0.5 or p["direct_sigma"] >= 0.05):
            alt = ("second cache tier", {1: ("slc_cache", 2), 2: ("direct_to_tlc", None)})
    return plan, p, alt


@retry
def post_cache_stall(rnd):
    """Cache, a stall at about half the native speed, then native (the fresh BIWIN X570 trace)."""
    iface, cap, vc = drive(rnd, ("nvme3", "nvme4"))
    _, r = native_ratio(rnd, qlc_p=0.0)
    vd = vc * r
    cache = log_uniform(rnd, 0.02, 0.2) * cap
    stall = rnd.uniform(10.0, 30.0)
    level = rnd.uniform(0.3, 0.6)
    sig_c, sig_d = rnd.uniform(0.002, 0.01), rnd.uniform(0.04, 0.1)
    t_c, t_d = cache / vc, rnd.uniform(0.05, 0.4) * cap / vd
    segs = [Seg("slc_cache", vc, sig_c, tier=1, end_bytes=cache),
            Seg("direct_to_tlc", vd * level, sig_d, dur_s=stall, excursion="stall", excluded=True),
            Seg("direct_to_tlc", vd, sig_d, dur_s=t_d)]
    dt = pick_dt(rnd, t_c + stall + t_d, [(t_c, 8), (stall, 8), (t_d, 60)])
    if dt is None:
        return None
    p = noise(rnd, dict(iface=iface, capacity_bytes=cap, cache_bps=vc, direct_bps=vd, stall_s=stall,
                        stall_level=level, cache_bytes_param=cache))
    return Plan(segs, dt, p["rho"], outlier_p=p["outlier_p"], jitter=p["jitter"]), p, None


FAMILIES = {f.__name__: f for f in (classic, decay, nocache_decay, nocache_gc_dips, dynamic_recover,
                                    three_levels, noisy_cache, comb, short_cache, throttle, two_tier,
                                    flat_enterprise, near_ratio, post_cache_stall)}


# ---- one case ------------------------------------------------------------

def make_case(family, seed):
    """(name, times, rates, truth) of one case; deterministic in (family, seed)."""
    rnd = random.Random(f"{family}:{seed}")
    plan, params, alt = FAMILIES[family](rnd)
    times, rates, real = simulate(rnd, plan)
    t = truth_of(plan.segs, real)
    name = f"{family}-{seed}"
    truth = {"schema": SCHEMA, "case": name, "family": family, "seed": seed,
             "doc": FAMILIES[family].__doc__.strip(), "interval_s": plan.dt,
             "n_samples": len(times), "duration_s": times[-1], "total_bytes": real[-1]["end_bytes"]}
    truth.update(t)
    truth["ambiguous"] = alt is not None
    truth["alternatives"] = []
    if alt:
        a = truth_of(plan.segs, real, relabel=alt[1])
        a.pop("phases")
        a.pop("excursions")
        a["label"] = alt[0]
        truth["alternatives"].append(a)
    truth["params"] = params
    return name, times, rates, truth


def write_case(out, name, times, rates, truth):
    with open(os.path.join(out, name + ".csv"), "w") as f:
        f.write("time_s,bytes_per_s\n")
        for t, v in zip(times, rates):
            f.write("%.6f,%.10g\n" % (t, v))
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(truth, f, indent=1, sort_keys=False)
        f.write("\n")


def validate_truth(t):
    """Problems with one truth document (an empty list when it is sound)."""
    bad = []
    need = ("schema", "case", "family", "seed", "interval_s", "n_samples", "total_bytes", "cache_bytes",
            "cache_tiers", "cache_mean_bps", "native_mean_bps", "erase_bound_start_bytes",
            "erase_bound_mean_bps", "excursions", "phases", "ambiguous", "alternatives", "params")
    for k in need:
        if k not in t:
            bad.append("missing " + k)
    if bad:
        return bad
    if t["schema"] != SCHEMA or t["family"] not in FAMILIES:
        bad.append("schema or family")
    if not 0.1 <= t["interval_s"] <= 1.0 or t["n_samples"] < 20:
        bad.append("interval or sample count")
    if not t["native_mean_bps"] or t["native_mean_bps"] <= 0:
        bad.append("no native level")
    c = t["cache_bytes"]
    if c is not None and not (0 < c < t["total_bytes"] and t["cache_mean_bps"] and t["cache_tiers"]):
        bad.append("cache")
    if c is None and (t["cache_tiers"] or t["cache_mean_bps"] is not None):
        bad.append("tiers without a cache")
    o = t["erase_bound_start_bytes"]
    if o is not None and not ((c or 0) < o < t["total_bytes"] and t["erase_bound_mean_bps"]):
        bad.append("erase-bound onset")
    prev = 0.0
    for ph in t["phases"]:
        if abs(ph["start_bytes"] - prev) > 1e-6 * max(1.0, prev) or ph["end_bytes"] < ph["start_bytes"]:
            bad.append("phases not contiguous")
            break
        prev = ph["end_bytes"]
    if abs(prev - t["total_bytes"]) > 1e-6 * t["total_bytes"]:
        bad.append("phases do not reach the end")
    if t["ambiguous"] != bool(t["alternatives"]):
        bad.append("ambiguous without alternatives")
    return bad


def seed_list(spec, cases=None):
    """tune, report, A-B or a single number; the first `cases` of them."""
    if spec in SEED_SETS:
        seeds = list(SEED_SETS[spec])
    elif "-" in spec:
        a, b = spec.split("-", 1)
        seeds = list(range(int(a), int(b) + 1))
    else:
        seeds = [int(spec)]
    return seeds[:cases] if cases else seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--family", default="all", help="comma-separated names, or all: " + ", ".join(FAMILIES))
    ap.add_argument("--seeds", default="tune", help="tune (1-100), report (1001-1100), A-B or N")
    ap.add_argument("--cases", type=int, help="only the first N seeds of the set, per family")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    fams = list(FAMILIES) if a.family == "all" else a.family.split(",")
    for f in fams:
        if f not in FAMILIES:
            sys.exit(f"unknown family {f}; known: {', '.join(FAMILIES)}")
    os.makedirs(a.out, exist_ok=True)
    for f in fams:
        for s in seed_list(a.seeds, a.cases):
            name, times, rates, truth = make_case(f, s)
            bad = validate_truth(truth)
            if bad:
                sys.exit(f"{name}: invalid truth: {', '.join(bad)}")
            write_case(a.out, name, times, rates, truth)
            print(name, truth["n_samples"], "samples")


if __name__ == "__main__":
    main()

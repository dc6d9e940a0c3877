#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""bench/sweeps: the sweep plans run by slcscope and by fio on one loop device, step by step.

For each plan (qd-sweep, bs-sweep, mixed, basic, short) slcscope writes the
plan's fio job file (`slcscope run DEV --plan P --fio-job FILE`, the same
sizes, depths, jobs and step time), then each round runs the plan with
slcscope (a trace, analysed for its sweep table) and the job file with fio
(its JSON report, one entry per section), on a loop device over a file in a
private tmpfs (bench/engine.py's machinery; root only).  The device is
discarded before every run.  Each sweep point's throughput (reads and writes
together) is compared: the ratio slcscope/fio per round, paired by plan and
round, and its median.  CPU per I/O is the process tree's user+sys time
(getrusage) over every read and write it completed, the preparation
included, per plan and tool; it leaves out the loop driver's kernel worker.
Output: Markdown tables on stdout, progress on stderr.
"""
import argparse
import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import engine  # noqa: E402  (Loop, timed, find_slcscope, parse_size, loadavg)

PLANS = ["qd-sweep", "bs-sweep", "mixed", "basic", "short"]


def die(msg):
    print(f"sweeps: {msg}", file=sys.stderr)
    sys.exit(2)


def section_step(name):
    """fio section 'NN-step' back to the plan's step name."""
    return name.split("-", 1)[1].replace("pct", "%")


def run_slcscope(a, plan, dev, work, log, point=None):
    out = os.path.join(work, "s.h5")
    cmd = [a.slcscope, "run", dev, "--destructive", "--force", "--no-probe", "--plan", plan,
           "--step-time", a.step_time, "--trim-wait", "0", "--region", a.region, "-o", out, "--quiet"]
    if point:
        cmd += ["--points", point]
    _, cpu, _, wall, _ = engine.timed(cmd, log)
    js = subprocess.run([a.slcscope, "analyze", "--json", out], stdout=subprocess.PIPE, text=True, check=True)
    steps = {p["step"]: p["read_bps"] + p["write_bps"] for p in json.loads(js.stdout)["sweep"]}
    exp = subprocess.run([a.slcscope, "export", out, "--csv"], stdout=subprocess.PIPE, text=True, check=True)
    rows = [r for r in csv.reader(io.StringIO(exp.stdout)) if r and not r[0].startswith("#")]
    i = rows[0].index("ios")
    ios = sum(int(r[i]) for r in rows[1:])
    os.unlink(out)
    return {"steps": steps, "cpu": cpu, "ios": ios, "wall": wall}


def run_fio(a, job, log):
    outp, cpu, _, wall, _ = engine.timed([a.fio, "--output-format=json", job], log)
    d = json.loads(outp[outp.index("{"):])
    steps, ios = {}, 0
    for j in d["jobs"]:
        name = j["jobname"]
        if name.endswith("-wait") or j["trim"]["total_ios"]:
            continue
        ios += j["read"]["total_ios"] + j["write"]["total_ios"]
        steps[section_step(name)] = j["read"]["bw_bytes"] + j["write"]["bw_bytes"]
    return {"steps": steps, "cpu": cpu, "ios": ios, "wall": wall}


def job_points(job):
    """The sweep points of a job file slcscope wrote: its sections but the TRIMs (trim, trim_between,
    trim_POINT), preparations (prepare, prepare_seq, prepare_rand, prep_POINT), settles (settle_POINT)
    and waits."""
    pts = []
    for line in open(job):
        line = line.strip()
        if line.startswith("[") and line != "[global]":
            step = section_step(line[1:-1])
            if not step.startswith(("trim", "prep", "settle_")) and not step.endswith("wait"):
                pts.append(step)
    return pts


def per_point(a, plan, job, loop, work, log, res):
    """Each round: every point run by both tools back to back (the order alternating from point to
    point and round to round), summed into one result per tool and round."""
    pts = job_points(job)
    for rnd in range(a.rounds):
        acc = {t: {"steps": {}, "cpu": 0.0, "ios": 0, "wall": 0.0} for t in ("slcscope", "fio")}
        for k, pt in enumerate(pts):
            pjob = os.path.join(work, f"{plan}-point.fio")
            subprocess.run([a.slcscope, "run", loop.dev, "--plan", plan, "--points", pt, "--step-time",
                            a.step_time, "--trim-wait", "0", "--region", a.region, "--fio-job", pjob, "--quiet"],
                           check=True)
            for tool in (["slcscope", "fio"] if (rnd + k) % 2 == 0 else ["fio", "slcscope"]):
                loop.discard()
                r = run_slcscope(a, plan, loop.dev, work, log, pt) if tool == "slcscope" else run_fio(a, pjob, log)
                acc[tool]["steps"].update(r["steps"])
                for f in ("cpu", "ios", "wall"):
                    acc[tool][f] += r[f]
        for tool in ("slcscope", "fio"):
            res[tool].append(acc[tool])
            r = acc[tool]
            print(f"sweeps: {plan} round {rnd + 1}/{a.rounds}: {tool}: {len(r['steps'])} points one by one, "
                  f"{r['cpu'] / max(r['ios'], 1) * 1e6:.2f} µs CPU/IO, wall {r['wall']:.1f} s", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(
        prog="bench/sweeps.sh",
        description="The sweep plans with slcscope and with fio (the job file slcscope writes for the plan) "
                    "on one loop device over a tmpfs file (root): throughput per sweep point, ratio "
                    "slcscope/fio per paired round, CPU per I/O per plan; Markdown on stdout.",
        epilog="Ratios above 1: slcscope moved more data per second (throughput) or spent more CPU per I/O.")
    ap.add_argument("--plans", default=",".join(PLANS), help="comma list (default: all five sweeps)")
    ap.add_argument("--rounds", type=int, default=2, help="paired rounds per plan (default 2)")
    ap.add_argument("--step-time", default="3s", help="each point's length (default 3s; the plans' own is 30s)")
    ap.add_argument("--region", default="1GiB", help="the test region (default 1GiB, as the plans)")
    ap.add_argument("--loop-size", default="2GiB", help="the tmpfs file behind the loop device (default 2GiB)")
    ap.add_argument("--per-point", action="store_true",
                    help="pair the tools point by point (each point its own run of both, 'run --points'), "
                         "not plan by plan: a machine whose speed drifts over a plan's minutes then "
                         "hits both tools of a point alike")
    engine.add_tool_args(ap)
    a = ap.parse_args()
    engine.tool_setup(a, die)
    if os.geteuid() != 0:
        die("needs root (losetup, mount of a private tmpfs)")
    plans = [p.strip() for p in a.plans.split(",") if p.strip()]
    if not plans or set(plans) - set(PLANS):
        die(f"--plans takes some of {', '.join(PLANS)}")
    if a.rounds < 1:
        die("--rounds must be at least 1")

    work = tempfile.mkdtemp(prefix="slc-sweeps-")
    logpath = a.log or os.path.join(work, "sweeps.log")
    log = open(logpath, "w")
    fio_ver = subprocess.run([a.fio, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    load0 = engine.loadavg()
    loop = engine.Loop(engine.parse_size(a.loop_size), True)
    res = {}
    try:
        for plan in plans:
            job = os.path.join(work, f"{plan}.fio")
            subprocess.run([a.slcscope, "run", loop.dev, "--plan", plan, "--step-time", a.step_time,
                            "--trim-wait", "0", "--region", a.region, "--fio-job", job, "--quiet"], check=True)
            res[plan] = {"slcscope": [], "fio": []}
            if a.per_point:
                per_point(a, plan, job, loop, work, log, res[plan])
                continue
            for rnd in range(a.rounds):
                order = ["slcscope", "fio"] if rnd % 2 == 0 else ["fio", "slcscope"]
                for tool in order:
                    loop.discard()
                    r = run_slcscope(a, plan, loop.dev, work, log) if tool == "slcscope" else run_fio(a, job, log)
                    res[plan][tool].append(r)
                    print(f"sweeps: {plan} round {rnd + 1}/{a.rounds}: {tool}: {len(r['steps'])} points, "
                          f"{r['cpu'] / max(r['ios'], 1) * 1e6:.2f} µs CPU/IO, wall {r['wall']:.1f} s",
                          file=sys.stderr)
    finally:
        loop.close()
    load1 = engine.loadavg()

    out = ["### Sweeps against fio, step by step", "",
           f"- plans {', '.join(plans)}; --step-time {a.step_time} (the plans' default is 30 s), --region "
           f"{a.region}, TRIM waits 0; {a.rounds} paired round(s) per plan, "
           + ("each point run by both tools back to back (`run --points`, each with the plan's "
              "preparation), the order alternating from point to point and round to round"
              if a.per_point else "the order of the tools alternating from round to round"),
           f"- a loop device (direct I/O {'on' if loop.dio else 'off'}) over a {a.loop_size} tmpfs file, "
           "discarded before every run; fio runs the job file `slcscope run DEV --plan P --fio-job FILE` "
           "wrote for the same options",
           f"- {os.cpu_count()} CPUs, kernel {os.uname().release}, {fio_ver}; load average (1/5/15 min) "
           f"{load0} at start, {load1} at end", "",
           "| plan | point | slcscope MB/s | fio MB/s | slcscope/fio (median) | per round |",
           "|---|---|---:|---:|---:|---|"]
    within = total = 0
    worst = (9.9, "")
    for plan in plans:
        s_runs, f_runs = res[plan]["slcscope"], res[plan]["fio"]
        for step in s_runs[0]["steps"]:
            sv = [r["steps"].get(step) for r in s_runs]
            fv = [r["steps"].get(step) for r in f_runs]
            if None in sv or None in fv:
                out.append(f"| {plan} | {step} | | | — | not in both reports |")
                continue
            rr = [x / y if y else float("inf") for x, y in zip(sv, fv)]
            m = statistics.median(rr)
            total += 1
            within += m >= 0.9
            if m < worst[0]:
                worst = (m, f"{plan} {step}")
            out.append(f"| {plan} | {step} | {statistics.median(sv) / 1e6:,.1f} | {statistics.median(fv) / 1e6:,.1f} "
                       f"| **{m:.2f}** | {', '.join(f'{x:.2f}' for x in rr)} |")
    out += ["", f"{within} of {total} points within 10% of fio's throughput or ahead (median of the paired "
            f"rounds); the lowest: {worst[0]:.2f} ({worst[1]}).", "",
            "| plan | slcscope CPU µs/IO | fio CPU µs/IO | slcscope/fio CPU per I/O | wall s slcscope / fio |",
            "|---|---:|---:|---:|---|"]
    for plan in plans:
        sc = statistics.median(r["cpu"] / max(r["ios"], 1) for r in res[plan]["slcscope"])
        fc = statistics.median(r["cpu"] / max(r["ios"], 1) for r in res[plan]["fio"])
        sw = statistics.median(r["wall"] for r in res[plan]["slcscope"])
        fw = statistics.median(r["wall"] for r in res[plan]["fio"])
        out.append(f"| {plan} | {sc * 1e6:.2f} | {fc * 1e6:.2f} | **{sc / fc:.2f}** | {sw:.0f} / {fw:.0f} |")
    out.append("")
    print("\n".join(out))
    log.close()
    print(f"sweeps: commands and their stderr are in {logpath}", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""bench/engine: slcscope's write engine against fio, same target, same run.

4 KiB random writes at queue depth 32, time based, alternating runs
(slcscope, fio, slcscope, fio, ...), medians and slcscope/fio ratios printed
as a Markdown table.  Two targets:

  null  slcscope's null:SIZE target (completes at once, no syscalls) against
        fio's null engine: each tool's own per-I/O overhead.
  loop  a loop device over a file in a private tmpfs (direct I/O if the
        kernel allows it), against fio's io_uring engine with its defaults
        and with --fixedbufs --registerfiles; slcscope also with
        --reap-batch 1 (refill after every completion, like fio's default
        iodepth_batch_complete_min=1).  Needs root; skipped otherwise.

  qemu  the polled path: QEMU's emulated NVMe controller with a poll queue in a
        guest (tests/probes/qemu_hipri.sh, QEMU's own emulation, TCG): slcscope
        --hipri, --sqpoll and neither against fio's io_uring engine with
        --hipri, --sqthread_poll and neither.  Not in the default targets.
        The device is QEMU's code on the host's CPU, so the figures compare
        the tools and the modes, never a drive.

CPU per I/O is user+sys time of the tool's whole process tree (getrusage of
the waited-for child) divided by the I/Os it completed.  It does not include
the loop driver's kernel workers, which do the copy into tmpfs for both tools.
Context switches per I/O (voluntary and involuntary, same source) show how
often a tool went to sleep waiting for completions.
The per-round ratios pair each slcscope run with the fio run right after it,
which is less sensitive to other work on the machine than a ratio of medians.

--jobs 1,2,4 instead runs each target at those job counts: slcscope --jobs J
(a writer thread per job) against fio --numjobs=J --group_reporting (a
process per job; on the loop device with --fixedbufs --registerfiles), and
prints one row per J: both rates, their ratio, and each tool's CPU per I/O.
"""
import argparse
import csv
import io
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def die(msg):
    print(f"engine: {msg}", file=sys.stderr)
    sys.exit(2)


def add_tool_args(ap):
    """--slcscope, --fio and --log, as every fio comparison takes them."""
    ap.add_argument("--slcscope", help="the slcscope binary (default: $SLCSCOPE, build/slcscope, PATH)")
    ap.add_argument("--fio", default=shutil.which("fio") or "fio", help="the fio binary (default: from PATH)")
    ap.add_argument("--log", help="log every command and its stderr here (default: a temp file)")


def tool_setup(a, fail=None):
    """SIGTERM/SIGHUP unwind like Ctrl-C (so a loop device and its tmpfs go
    away); the slcscope binary found; fio there.  @fail: the caller's die."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: sys.exit(143))
    a.slcscope = find_slcscope(a.slcscope)
    if not shutil.which(a.fio):
        (fail or die)("fio not found: apt-get install fio (or --fio PATH)")


def parse_size(s):
    mult = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    s = s.strip().lower().removesuffix("ib").removesuffix("b")
    unit = s[-1] if s and s[-1] in "kmg" else ""
    return int(float(s[: len(s) - len(unit)]) * mult[unit])


def find_slcscope(arg):
    cands = [arg] if arg else [os.environ.get("SLCSCOPE"), os.path.join(REPO, "build", "slcscope"),
                               shutil.which("slcscope")]
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    die("no slcscope binary: build it (cmake -S . -B build && cmake --build build) "
        "or pass --slcscope PATH")


def host_busy_s():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal (guest is inside user)
    busy = v[0] + v[1] + v[2] + v[5] + v[6] + (v[7] if len(v) > 7 else 0)
    return busy / os.sysconf("SC_CLK_TCK")


def wait_idle(cpus, max_s):
    """Wait until the host had at least @cpus CPUs idle over 2 s; seconds waited (None: gave up)."""
    t0 = time.monotonic()
    while True:
        b0, w0 = host_busy_s(), time.monotonic()
        time.sleep(2)
        idle = (os.cpu_count() or 1) - (host_busy_s() - b0) / (time.monotonic() - w0)
        if idle >= cpus:
            return time.monotonic() - t0
        if time.monotonic() - t0 > max_s:
            return None


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def timed(cmd, log):
    """Run cmd; return (stdout, process-tree CPU s, host busy s, wall s)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    h0, w0 = host_busy_s(), time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    h1, w1 = host_busy_s(), time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("$ " + " ".join(cmd), file=log)
    if p.stderr:
        print(p.stderr.rstrip(), file=log)
    log.flush()
    if p.returncode:
        die(f"{cmd[0]} failed (exit {p.returncode}):\n{p.stderr.strip()}\ncommand: {' '.join(cmd)}")
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    cs = (r1.ru_nvcsw - r0.ru_nvcsw) + (r1.ru_nivcsw - r0.ru_nivcsw)
    return p.stdout, cpu, h1 - h0, w1 - w0, cs


def run_slcscope(a, target, extra, work, log, jobs=1):
    out = os.path.join(work, "slc.h5")
    cmd = [a.slcscope, "run", target, *extra, "--jobs", str(jobs), "--plan", "rand", "--rand-time", f"{a.time}s",
           "--trim-wait", "0", "--qd", str(a.qd), "--bs-rand", a.bs, "-o", out, "--quiet"]
    _, cpu, host, wall, cs = timed(cmd, log)
    exp = subprocess.run([a.slcscope, "export", out, "--csv"], stdout=subprocess.PIPE, text=True, check=True)
    rows = [r for r in csv.reader(io.StringIO(exp.stdout)) if r and not r[0].startswith("#")]
    hdr, rows = rows[0], rows[1:]
    seg, ts, ios = hdr.index("segment"), hdr.index("t_s"), hdr.index("ios")
    rows = [r for r in rows if r[seg] == "1"]          # segment 0 is the TRIM
    n = sum(int(r[ios]) for r in rows)
    secs = float(rows[-1][ts])
    os.unlink(out)
    return {"iops": n / secs, "ios": n, "cpu": cpu, "host": host, "wall": wall, "cs": cs}


def run_fio(a, fio_args, work, log):
    cmd = [a.fio, "--name=bench", "--rw=randwrite", f"--bs={a.bs}", f"--iodepth={a.qd}", "--direct=1",
           "--time_based", f"--runtime={a.time}", "--output-format=json", *fio_args]
    outp, cpu, host, wall, cs = timed(cmd, log)
    d = json.loads(outp[outp.index("{"):])
    w = d["jobs"][0]["write"]
    n = int(w["total_ios"])
    return {"iops": n / (w["runtime"] / 1000.0), "ios": n, "cpu": cpu, "host": host, "wall": wall, "cs": cs}


class Loop:
    """A tmpfs of our own, a file in it and a loop device over the file."""

    def __init__(self, size, dio):
        self.mnt = tempfile.mkdtemp(prefix="slc-engine-")
        self.dev = None
        self.mounted = False
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size + (64 << 20)}", "slc-engine", self.mnt],
                       check=True)
        self.mounted = True
        f = os.path.join(self.mnt, "backing")
        with open(f, "wb") as fh:
            fh.truncate(size)
        self.dio = False
        if dio:
            p = subprocess.run(["losetup", "-f", "--show", "--direct-io=on", f], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
            if p.returncode == 0:
                self.dev = p.stdout.strip()
        if not self.dev:
            self.dev = subprocess.run(["losetup", "-f", "--show", f], stdout=subprocess.PIPE, text=True,
                                      check=True).stdout.strip()
        try:
            with open(f"/sys/block/{os.path.basename(self.dev)}/loop/dio") as fh:
                self.dio = fh.read().strip() == "1"
        except OSError:
            pass

    def discard(self):
        subprocess.run(["blkdiscard", self.dev], check=True)

    def close(self):
        if self.dev:
            subprocess.run(["losetup", "-d", self.dev])
            self.dev = None
        if self.mounted:
            # the loop device lets go of its file asynchronously after losetup -d
            for i in range(20):
                if subprocess.run(["umount", self.mnt], stderr=None if i == 19 else subprocess.DEVNULL
                                  ).returncode == 0:
                    break
                time.sleep(0.25)
            self.mounted = False
        try:
            os.rmdir(self.mnt)
        except OSError:
            pass


def run_qemu(a, log):
    """One guest boot of tests/probes/qemu_hipri.sh: {(tool, mode): (iops, cpu_us_per_io)}, or the skip reason."""
    env = dict(os.environ, SLCSCOPE_HIPRI_TIME=str(a.time), SLCSCOPE_HIPRI_QD=str(a.qd),
               SLCSCOPE_HIPRI_CPUS=str(a.guest_cpus))
    p = subprocess.run(["bash", os.path.join(REPO, "tests", "probes", "qemu_hipri.sh"), a.slcscope], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log.write(p.stdout)
    log.flush()
    if p.returncode == 77:
        return p.stdout.strip().splitlines()[-1]
    if p.returncode:
        die("qemu_hipri.sh failed (exit %d): %s" % (p.returncode, (p.stdout.strip().splitlines() or ["?"])[-1]))
    figs = {}
    for m in re.finditer(r"^figure (\S+) (\S+) iops=(\S+) cpu_us_per_io=(\S+)$", p.stdout, re.M):
        figs[(m.group(1), m.group(2))] = (float(m.group(3)), float(m.group(4)))
    return figs


def qemu_table(a, rounds):
    lines = [f"### polled I/O: QEMU's emulated NVMe controller with a poll queue (TCG guest, {a.guest_cpus} "
             f"CPU{'s' if a.guest_cpus > 1 else ''}, QD{a.qd})", "",
             "| mode | slcscope IOPS | fio IOPS | slcscope/fio IOPS | slcscope CPU µs/IO | fio CPU µs/IO | "
             "slcscope/fio CPU per I/O |", "|---|---:|---:|---:|---:|---:|---:|"]
    words = {"irq": "interrupts (neither)", "iopoll": "--hipri (IOPOLL)", "sqpoll": "--sqpoll / --sqthread_poll",
             "iopoll+sqpoll": "--hipri --sqpoll"}
    for mode, name in words.items():
        def m(tool, k):
            v = [r[(tool, mode)][k] for r in rounds if (tool, mode) in r]
            return statistics.median(v) if v else None
        si, sc, fi, fc = m("slcscope", 0), m("slcscope", 1), m("fio", 0), m("fio", 1)
        if si is None:
            continue
        f = lambda v, fmt: fmt.format(v) if v is not None else "—"
        lines.append(f"| {name} | {si:,.0f} | {f(fi, '{:,.0f}')} | "
                     f"{f(si / fi if fi else None, '**{:.2f}**')} | {sc:.1f} | {f(fc, '{:.1f}')} | "
                     f"{f(sc / fc if fc else None, '**{:.2f}**')} |")
    lines += ["", f"4 KiB random writes at QD{a.qd}, {a.time} s per run, one guest boot per round, "
              f"{len(rounds)} round(s); medians.  The guest's CPUs and its NVMe controller are all QEMU's "
              f"emulation on the host's {os.cpu_count()} CPUs, so a polling writer competes for them with the "
              "device it polls: the figures show that polling works and how the tools compare, not what "
              "polling gains on a drive.  Under emulation every entry into the guest kernel is dear, so a "
              "tool that enters it less often (slcscope reaps a batch; fio by default refills after each "
              "completion) gains more than it would on hardware.  CPU per I/O: slcscope's writer thread "
              "(the trace's writer_cpu over the job step), fio's usr+sys of its job process; with an SQ "
              "thread fio's figure includes that thread and slcscope's does not.", ""]
    return "\n".join(lines)


def jobs_configs(a, tgt, dev):
    """slcscope --jobs J and fio --numjobs=J for every J of --jobs."""
    configs = []
    for j in a.jobs:
        if tgt == "null":
            s = (lambda j=j: run_slcscope(a, "null:4GiB", [], a.work, a.logf, j))
            f = ["--ioengine=null", "--size=4g"]
        else:
            s = (lambda j=j: run_slcscope(a, dev, ["--destructive", "--force"], a.work, a.logf, j))
            f = ["--ioengine=io_uring", f"--filename={dev}", "--fixedbufs", "--registerfiles"]
        configs.append((f"slcscope --jobs {j}", s))
        configs.append((f"fio --numjobs={j}",
                        (lambda f=f, j=j: run_fio(a, f + [f"--numjobs={j}", "--group_reporting"], a.work, a.logf))))
    return configs


def jobs_table(title, a, results, note):
    lines = [f"### {title}", "",
             "| jobs | slcscope IOPS (median) | fio IOPS (median) | slcscope/fio (per-round median) | "
             "slcscope CPU µs/IO | fio CPU µs/IO |",
             "|---:|---:|---:|---:|---:|---:|"]
    for j in a.jobs:
        s, f = results[f"slcscope --jobs {j}"], results[f"fio --numjobs={j}"]
        rr = statistics.median(x["iops"] / y["iops"] for x, y in zip(s, f))
        lines.append(f"| {j} | {med(s, 'iops'):,.0f} | {med(f, 'iops'):,.0f} | {rr:.2f} | "
                     f"{statistics.median(r['cpu'] / r['ios'] for r in s) * 1e6:.3f} | "
                     f"{statistics.median(r['cpu'] / r['ios'] for r in f) * 1e6:.3f} |")
    busy = statistics.median(r["host"] / r["wall"] for rs in results.values() for r in rs)
    lines += ["", note + f"  All CPUs together were busy {busy:.2f} of {os.cpu_count()} during the runs "
              "(median; the tools plus anything else running).", ""]
    return "\n".join(lines)


def med(runs, k):
    return statistics.median(r[k] for r in runs)


def table(title, configs, results, note):
    lines = [f"### {title}", "",
             "| tool | IOPS (median) | IOPS per run | CPU µs/IO (median) | context switches/IO | "
             "slcscope/this IOPS | per-round IOPS ratios | slcscope/this CPU per I/O |",
             "|---|---:|---|---:|---:|---:|---|---:|"]
    s = results[configs[0][0]]
    s_iops = med(s, "iops")
    s_cpu = statistics.median(r["cpu"] / r["ios"] for r in s)
    for name, _ in configs:
        rs = results[name]
        iops = med(rs, "iops")
        cpu = statistics.median(r["cpu"] / r["ios"] for r in rs)
        cs = statistics.median(r["cs"] / r["ios"] for r in rs)
        runs = ", ".join(f"{r['iops'] / 1e3:,.0f}k" for r in rs)
        if rs is s:
            ri, pr, rc = "—", "—", "—"
        else:
            ri, rc = f"**{s_iops / iops:.2f}**", f"**{s_cpu / cpu:.2f}**"
            rr = [x["iops"] / y["iops"] for x, y in zip(s, rs)]
            pr = (", ".join(f"{r:.2f}" for r in rr) +
                  f" (median {statistics.median(rr):.2f}; slcscope ahead in {sum(r >= 1 for r in rr)} of {len(rr)})")
        lines.append(f"| {name} | {iops:,.0f} | {runs} | {cpu * 1e6:.3f} | {cs:.3f} | {ri} | {pr} | {rc} |")
    busy = statistics.median(r["host"] / r["wall"] for rs in results.values() for r in rs)
    lines += ["", note + f"  All CPUs together were busy {busy:.2f} of {os.cpu_count()} during the runs "
              "(median; the tools plus anything else running).", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(
        prog="bench/engine.sh",
        description="slcscope's write engine against fio: 4 KiB QD32 random writes, alternating runs, "
                    "medians and slcscope/fio ratios as a Markdown table.  'null': slcscope's null target "
                    "vs fio's null engine.  'loop' (root only): a loop device over a tmpfs file vs fio's "
                    "io_uring engine, with its defaults and with --fixedbufs --registerfiles.  'qemu': slcscope --hipri/"
                    "--sqpoll vs fio --hipri/--sqthread_poll in a QEMU guest's NVMe controller with a poll queue.",
        epilog="Ratios above 1 mean slcscope does more IOPS (good) or spends more CPU per I/O (bad).")
    ap.add_argument("--time", type=int, default=10, help="seconds per run (default 10)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of alternating runs (default 3)")
    ap.add_argument("--targets", default="null,loop", help="comma list of null, loop, qemu (default null,loop; "
                    "qemu: the polled path in a QEMU guest)")
    ap.add_argument("--qd", type=int, default=32, help="queue depth (default 32)")
    ap.add_argument("--bs", default="4k", help="block size (default 4k)")
    ap.add_argument("--guest-cpus", type=int, default=1, help="qemu: the guest's CPUs (default 1)")
    ap.add_argument("--jobs", help="comma list of job counts, as 1,2,4: slcscope --jobs J against fio "
                    "--numjobs=J, one row per J (default: one job, the tables of fio's variants)")
    ap.add_argument("--loop-size", default="2GiB", help="size of the tmpfs file behind the loop device "
                    "(default 2GiB; held in RAM)")
    ap.add_argument("--no-loop-dio", action="store_true", help="do not ask for direct I/O on the loop device")
    ap.add_argument("--wait-idle", type=float, metavar="CPUS", help="before each round, wait until at least "
                    "CPUS CPUs were idle over 2 s (on a shared machine: rounds in its quieter moments)")
    ap.add_argument("--wait-max", type=int, default=900, metavar="S",
                    help="with --wait-idle: run the round anyway after S seconds (default 900)")
    add_tool_args(ap)
    a = ap.parse_args()
    tool_setup(a)
    targets = [t.strip() for t in a.targets.split(",") if t.strip()]
    if set(targets) - {"null", "loop", "qemu"}:
        die("--targets takes null, loop and/or qemu")
    if a.rounds < 1 or a.time < 1:
        die("--rounds and --time must be at least 1")
    try:
        a.jobs = [int(j) for j in a.jobs.split(",")] if a.jobs else None
    except ValueError:
        die("--jobs takes a comma list of job counts, as 1,2,4")
    if a.jobs is not None and not all(1 <= j <= 64 for j in a.jobs):
        die("--jobs takes job counts of 1 to 64")

    work = tempfile.mkdtemp(prefix="slc-engine-work-")
    logpath = a.log or os.path.join(work, "engine.log")
    log = open(logpath, "w")
    a.work, a.logf = work, log
    fio_ver = subprocess.run([a.fio, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    slc_ver = subprocess.run([a.slcscope, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True).stdout.strip().splitlines()
    load0 = loadavg()
    out = ["## Write engine vs fio", "",
           f"- {a.bs} random writes, QD{a.qd}, {a.time} s per run, {a.rounds} rounds of alternating runs; "
           "medians",
           f"- {os.cpu_count()} CPUs, kernel {os.uname().release}, {fio_ver}, "
           f"{slc_ver[0] if slc_ver else 'slcscope ?'} ({a.slcscope})",
           f"- load average (1/5/15 min) at start: {load0}"]
    sections = []
    gated = []
    loop = None
    try:
        for tgt in targets:
            if tgt == "qemu":
                rounds = []
                for rnd in range(a.rounds):
                    r = run_qemu(a, log)
                    if isinstance(r, str):
                        sections.append(f"### polled I/O in a QEMU guest\n\nskipped: {r}\n")
                        break
                    rounds.append(r)
                    print(f"engine: qemu round {rnd + 1}/{a.rounds}: " +
                          ", ".join(f"{t} {m} {v[0]:,.0f} IOPS {v[1]:.1f} µs CPU/IO" for (t, m), v in r.items()),
                          file=sys.stderr)
                if rounds:
                    sections.append(qemu_table(a, rounds))
                continue
            if tgt == "null":
                configs = [("slcscope null:4GiB", lambda: run_slcscope(a, "null:4GiB", [], work, log)),
                           ("fio null engine", lambda: run_fio(a, ["--ioengine=null", "--size=4g"], work, log))]
                note = ("slcscope's null target completes I/Os in-process (no syscalls); fio's null engine "
                        "also does no I/O.  Both measure the tool's own cost per I/O.")
                title = "null target"
                prep = None
            else:
                if os.geteuid() != 0:
                    print("engine: skipping the loop device part: it needs root (losetup, mount)",
                          file=sys.stderr)
                    sections.append("### loop device over tmpfs\n\nskipped: needs root\n")
                    continue
                loop = Loop(parse_size(a.loop_size), not a.no_loop_dio)
                dev = loop.dev
                u = ["--ioengine=io_uring", f"--filename={dev}"]
                configs = [("slcscope", lambda: run_slcscope(a, dev, ["--destructive", "--force"], work, log)),
                           ("fio io_uring (defaults)", lambda: run_fio(a, u, work, log)),
                           ("fio io_uring --fixedbufs --registerfiles",
                            lambda: run_fio(a, u + ["--fixedbufs", "--registerfiles"], work, log)),
                           ("slcscope --reap-batch 1",
                            lambda: run_slcscope(a, dev, ["--destructive", "--force", "--reap-batch", "1"],
                                                 work, log))]
                title = (f"loop device over a {a.loop_size} tmpfs file "
                         f"(direct I/O {'on' if loop.dio else 'off'})")
                note = ("The whole device is discarded before every run (slcscope's plan TRIMs it anyway), so "
                        "every run starts on an empty tmpfs file.  slcscope's process CPU includes that "
                        "TRIM and writing its HDF5 trace.")
                prep = loop.discard
            if a.jobs:
                configs = jobs_configs(a, tgt, None if tgt == "null" else dev)
            results = {n: [] for n, _ in configs}
            for rnd in range(a.rounds):
                if a.wait_idle:
                    waited = wait_idle(a.wait_idle, a.wait_max)
                    gated.append(waited is not None)
                    print(f"engine: {tgt} round {rnd + 1}/{a.rounds}: " +
                          (f"waited {waited:.0f} s for {a.wait_idle:g} idle CPUs" if waited is not None else
                           f"{a.wait_idle:g} CPUs were not idle within {a.wait_max} s: running anyway"),
                          file=sys.stderr)
                for name, fn in configs:
                    if prep:
                        prep()
                    r = fn()
                    results[name].append(r)
                    print(f"engine: {tgt} round {rnd + 1}/{a.rounds}: {name}: {r['iops']:,.0f} IOPS, "
                          f"{r['cpu'] / r['ios'] * 1e6:.3f} µs CPU/IO, {r['cs'] / r['ios']:.3f} context "
                          f"switches/IO, wall {r['wall']:.1f} s, "
                          f"host busy {r['host'] / r['wall']:.2f} CPUs",
                          file=sys.stderr)
            if a.jobs:
                sections.append(jobs_table(title, a, results, note))
            else:
                sections.append(table(title, configs, results, note))
            if loop:
                loop.close()
                loop = None
    finally:
        if loop:
            loop.close()
    out.append(f"- load average at end: {loadavg()}")
    if a.wait_idle:
        out.append(f"- each round started after at least {a.wait_idle:g} CPUs had been idle for 2 s "
                   f"({sum(gated)} of {len(gated)} rounds; the others waited {a.wait_max} s and ran anyway)")
    out.append("")
    out += sections
    print("\n".join(out))
    log.close()
    print(f"engine: commands and their stderr are in {logpath}", file=sys.stderr)


if __name__ == "__main__":
    main()

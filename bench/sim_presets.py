#!/usr/bin/env python3
"""Run every simulated drive preset through the lab's two write curves (4 KiB
QD32 random for a given virtual time, and a sequential 128 KiB fill of one
capacity) and report, per phase delimited by the model's own events, the
mean / p5 / p95 speed, the cache size, the erase-bound onset, the CPU time
and the peak memory.  Prints a Markdown table for BENCHMARKS.md.

usage: bench/sim_presets.py [--slc BUILD/slcscope] [--time 2h] [PRESET ...]
"""
import argparse, csv, io, re, resource, subprocess, sys, time

def run(slc, preset, args):
    t0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(["/usr/bin/time", "-f", "MAXRSS %M", slc, "sim", "run", preset] + args,
                       capture_output=True, text=True)
    t1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        sys.exit(f"{preset}: slcscope failed: {p.stderr.strip()}")
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    ev = {}
    for line in p.stderr.splitlines():
        m = re.match(r"event (\S+)\s+at\s+([\d.]+) s, ([\d.]+) (\S*B) written", line)
        if m and m.group(1) not in ev:
            mult = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}[m.group(4)]
            ev[m.group(1)] = (float(m.group(2)), float(m.group(3)) * mult)
    rss = int(re.search(r"MAXRSS (\d+)", p.stderr).group(1)) * 1024
    cpu = (t1.ru_utime - t0.ru_utime) + (t1.ru_stime - t0.ru_stime)
    return rows, ev, cpu, rss

def phase(rows, a, b, per_io):
    xs = []
    for r in rows:
        t, dt = float(r["time_s"]), float(r["interval_s"])
        if a + 2 <= t - dt and t <= b - 2 and dt > 0:
            xs.append(int(r["ios"]) / dt if per_io else 0)
    if not xs:
        return None
    xs.sort()
    return sum(xs) / len(xs), xs[len(xs) // 20], xs[len(xs) * 19 // 20]

def seq_phase(rows, a, b):
    xs, prev = [], 0
    for r in rows:
        t, dt, bt = float(r["time_s"]), float(r["interval_s"]), int(r["bytes_total"])
        if a + 2 <= t - dt and t <= b - 2 and dt > 0:
            xs.append((bt - prev) / dt)
        prev = bt
    if not xs:
        return None
    xs.sort()
    return sum(xs) / len(xs), xs[len(xs) // 20], xs[len(xs) * 19 // 20]

def fmt(p, unit):
    if not p:
        return "-"
    if unit == "k":
        return f"{p[0]/1e3:.1f}k ({p[1]/1e3:.1f}-{p[2]/1e3:.1f}k)"
    return f"{p[0]/1e6:.0f} ({p[1]/1e6:.0f}-{p[2]/1e6:.0f})"

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--slc", default="build/slcscope")
    ap.add_argument("--time", default="2h")
    ap.add_argument("presets", nargs="*")
    a = ap.parse_args()
    presets = a.presets or [l.split()[0] for l in subprocess.run([a.slc, "sim", "list"], capture_output=True, text=True).stdout.splitlines()]
    print(f"4 KiB QD32 random writes for {a.time} of virtual time or two capacities, whichever comes first, after a TRIM; IOPS mean (p5-p95 of 1 s samples)\n")
    print("| preset | cache (GB) | cache IOPS | direct IOPS | erase-bound onset (GB) | erase-bound IOPS | written (GB) | writes/CPU-s | CPU s | memory |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    seqrows = []
    for pr in presets:
        rows, ev, cpu, rss = run(a.slc, pr, ["-w", "rand", "-t", a.time, "-s", "2x"])
        end = float(rows[-1]["time_s"])
        ce = ev.get("cache_exhausted", (0, 0))
        fe = ev.get("free_pool_exhausted", (end, None))
        ios = sum(int(r["ios"]) for r in rows)
        print(f"| {pr} | {ce[1]/1e9:.2f} | {fmt(phase(rows, 0, ce[0], True), 'k')} | "
              f"{fmt(phase(rows, ce[0], fe[0], True), 'k')} | {fe[1]/1e9 if fe[1] is not None else float('nan'):.0f} | "
              f"{fmt(phase(rows, fe[0], end, True), 'k')} | {int(rows[-1]['bytes_total'])/1e9:.0f} | "
              f"{ios/cpu/1e6:.1f}M | {cpu:.1f} | {rss/2**20:.0f} MiB |")
        rows, ev, cpu, rss = run(a.slc, pr, ["-w", "seq", "-s", "1x"])
        end = float(rows[-1]["time_s"])
        ce = ev.get("cache_exhausted", (0, 0))
        fe = ev.get("free_pool_exhausted", (end, None))
        seqrows.append(f"| {pr} | {ce[1]/1e9:.1f} | {fmt(seq_phase(rows, 0, ce[0]), 'M')} | {fmt(seq_phase(rows, ce[0], fe[0]), 'M')} | "
                       f"{fe[1]/1e9 if fe[1] is not None else float('nan'):.0f} | {fmt(seq_phase(rows, fe[0], end), 'M')} | {end:.0f} | {cpu:.1f} |")
    print("\nSequential 128 KiB QD32 fill of one capacity after a TRIM; MB/s mean (p5-p95 of 1 s samples)\n")
    print("| preset | cache (GB) | cache MB/s | direct MB/s | free pool exhausted (GB) | after MB/s | virtual s | CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(seqrows))

if __name__ == "__main__":
    main()

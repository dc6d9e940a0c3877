#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Manual stress test (not in ctest): kill a trace writer that flushes after
every sample, so nearly every SIGKILL lands inside a flush, and count the files
slcscope and a plain h5py open cannot read.  Figures in BENCHMARKS.md.

Usage: stress_crash.py TRACE_WRITER SLCSCOPE [ROUNDS]
"""
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

writer, slcscope = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 300
try:
    import h5py
except ImportError:
    h5py = None

unreadable = plain_fail = cut = 0
worst_lost = 0
with tempfile.TemporaryDirectory() as d:
    for r in range(rounds):
        path = os.path.join(d, f"s{r}.h5")
        p = subprocess.Popen([writer, path, "loop", "0", "0"], stdout=subprocess.PIPE, text=True)
        time.sleep(random.uniform(0.3, 1.5))
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        appended = [int(l.split()[1]) for l in p.stdout.read().splitlines() if l.startswith("appended")]
        res = subprocess.run([slcscope, "export", path, "--csv"], capture_output=True, text=True)
        if res.returncode != 0:
            unreadable += 1
            print("unreadable:", res.stderr.strip())
            continue
        cut += "trailing samples never written" in res.stdout
        n = sum(1 for l in res.stdout.splitlines() if l and l[0].isdigit())
        worst_lost = max(worst_lost, (appended[-1] if appended else 0) - n)
        if h5py:
            try:
                with h5py.File(path, "r") as f:
                    f["segments/0000/t_s"][:]
            except Exception:
                plain_fail += 1
        os.unlink(path)
print(f"{rounds} kills: unreadable by slcscope {unreadable}, plain h5py open failed {plain_fail}"
      f"{'' if h5py else ' (h5py missing)'}, trailing unwritten samples dropped {cut}, "
      f"most samples lost after the last printed count {worst_lost}")

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A mutation campaign against the trace reader: damaged traces through
`slcscope analyze`, `export --json` and `report`.

    mutate_trace.py SLCSCOPE TRACE... [--count N] [--seed S] [--timeout T]
                    [--max-rss-mib M] [--kinds K,K] [--commands C,C]
                    [--jobs J] [--keep DIR] [--max-failures F] [--verbose]

Each mutant is a copy of one of the TRACEs (in turn) changed in one way,
drawn from a seeded PRNG so that a run is reproducible (mutant k of seed S
is always the same):

  byte     one byte set to another value (half of them outside the samples'
           chunks, where a byte changes the file's structure, not a value)
  trunc    the file cut short at a random length
  attr     a numeric attribute (root, segment, snapshot) set with h5py to
           NaN, +-inf, -5, 2^64-1, +-1e300 (nonsense for every attribute:
           the commands must refuse the trace, exit 1, naming the attribute)
           or to 0, 1, 2^32-1 or a string (edge values: a crash, hang or
           more than one line of error is a failure, a refusal or a read is
           not)
  struct   a dataset or attribute deleted, a column's length or type
           changed, a column declaring 10^9 samples it does not hold, a
           segment copied to extra ones, a group put where a column was

Every mutant goes through each command under a time limit (--timeout,
5 s) and a memory watch (the child's peak RSS from wait4(), and its VmRSS
polled every 10 ms: killed past --max-rss-mib, 1024).  Outcomes:

  read      exit 0
  refused   exit 1 with a one-line reason
  crash     a signal, or AddressSanitizer/UBSan's report on stderr
  hang      still running after --timeout
  overmem   over --max-rss-mib
  noisy     exit 1 with more than one line on stderr (HDF5's error stack)
  badexit   any other exit status
  accepted  an out-of-range attribute not refused by name

SLCSCOPE_MUTANTS in the environment overrides --count (ctest trace_mutants).
Exit status 1 when crash + hang + overmem + noisy + badexit + accepted exceeds
--max-failures (default 0).  The mutants that failed are kept in --keep.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

FAILURES = ("crash", "hang", "overmem", "noisy", "badexit", "accepted")
NONSENSE = ("nan", "inf", "-inf", "-5", "2^64-1", "1e300", "-1e300")
EDGE = ("0", "1", "2^32-1", "str")

_h5lock = threading.Lock()        # h5py is not to be used from two threads at once


def raw_ranges(path):
    """(offset, length) of every allocated chunk and contiguous block."""
    import h5py

    ranges = []

    def visit(_name, obj):
        if not isinstance(obj, h5py.Dataset):
            return
        if obj.chunks is None:
            off = obj.id.get_offset()
            if off is not None:
                ranges.append((off, obj.id.get_storage_size()))
            return
        for i in range(obj.id.get_num_chunks()):
            info = obj.id.get_chunk_info(i)
            ranges.append((info.byte_offset, info.size))

    with h5py.File(path, "r") as f:
        f.visititems(visit)
    return ranges


class Seed:
    """One input trace: its bytes, metadata positions and numeric attributes."""

    def __init__(self, path):
        import h5py
        import numpy as np

        self.path = path
        self.data = open(path, "rb").read()
        raw = bytearray(len(self.data))
        for off, n in raw_ranges(path):
            raw[off:off + n] = b"\x01" * len(raw[off:off + n])
        self.meta = [i for i in range(len(self.data)) if not raw[i]]
        self.attrs = []          # (object path, attribute name)
        self.columns = []        # dataset paths under /segments
        self.segments = []
        with h5py.File(path, "r") as f:
            def visit(name, obj):
                if isinstance(obj, h5py.Dataset) and name.startswith("segments/"):
                    self.columns.append(name)
                if isinstance(obj, h5py.Group) and name.count("/") == 1 and name.startswith("segments/"):
                    self.segments.append(name)
                for k, v in obj.attrs.items():
                    if isinstance(v, (np.integer, np.floating, int, float)):
                        self.attrs.append((name, k))
            for k, v in f.attrs.items():
                if isinstance(v, (np.integer, np.floating, int, float)):
                    self.attrs.append(("/", k))
            f.visititems(visit)
        # read_pct and poll_us are absent from older traces: added, so that they are mutated too
        for g in self.segments:
            for k in ("read_pct", "poll_us"):
                if (g, k) not in self.attrs:
                    self.attrs.append((g, k))


def set_attr(f, obj, name, value):
    import numpy as np

    o = f[obj]
    if name in o.attrs:
        del o.attrs[name]
    if value == "2^64-1":
        o.attrs.create(name, np.uint64(2**64 - 1))
    elif value == "2^32-1":
        o.attrs.create(name, np.uint32(2**32 - 1))
    elif value == "-5":
        o.attrs.create(name, np.int64(-5))
    elif value == "str":
        o.attrs[name] = "12"
    else:
        o.attrs.create(name, np.float64(float(value)))


def mutate(seed, kind, rng, path):
    """Write the mutant to @path; returns (description, attribute name that must be refused or None)."""
    import h5py
    import numpy as np

    data = seed.data
    if kind == "byte":
        pos = rng.choice(seed.meta) if rng.random() < 0.5 else rng.randrange(len(data))
        value = rng.randrange(255)
        value = value if value < data[pos] else value + 1
        buf = bytearray(data)
        buf[pos] = value
        open(path, "wb").write(buf)
        return f"byte {pos} = 0x{value:02x}", None
    if kind == "trunc":
        n = rng.randrange(len(data))
        open(path, "wb").write(data[:n])
        return f"cut to {n} bytes", None
    open(path, "wb").write(data)
    with _h5lock, h5py.File(path, "r+") as f:
        if kind == "attr":
            obj, name = rng.choice(seed.attrs)
            nonsense = rng.random() < 0.75
            value = rng.choice(NONSENSE if nonsense else EDGE)
            # seed is any uint64: 2^64-1 is a seed
            if name == "seed" and value == "2^64-1":
                nonsense = False
            # snapshot segment -1 means "outside a segment"; -5 is not
            set_attr(f, obj, name, value)
            return f"attribute {obj.rstrip('/')}/{name} = {value}", name if nonsense else None
        # structure
        what = rng.randrange(8)
        col = rng.choice(seed.columns)
        if what == 0:
            del f[col]
            return f"{col} deleted", None
        if what == 1:
            obj, name = rng.choice(seed.attrs)
            if name in f[obj].attrs:
                del f[obj].attrs[name]
            return f"attribute {obj.rstrip('/')}/{name} deleted", None
        if what == 2:
            old = f[col][()]
            n = rng.choice((0, 1, max(len(old) // 2, 0), len(old) + 1, len(old) * 3 + 7))
            new = np.resize(old, n) if len(old) else np.zeros(n, dtype=old.dtype)
            del f[col]
            f.create_dataset(col, data=new, chunks=(256,), maxshape=(None,))
            return f"{col} length {len(old)} -> {n}", None
        if what == 3:
            old = f[col][()]
            dt = rng.choice(("i1", "f4", "u2", "S4", "c16"))
            del f[col]
            if dt == "S4":
                f.create_dataset(col, data=np.array([b"ab"] * len(old), dtype="S4"))
            else:
                f.create_dataset(col, data=np.zeros(len(old), dtype=dt))
            return f"{col} as {dt}", None
        if what == 4:
            dt = f[col].dtype
            del f[col]
            f.create_dataset(col, shape=(10**9,), dtype=dt, chunks=(4096,), maxshape=(None,))
            return f"{col} declares 10^9 samples", None
        if what == 5:
            seg = rng.choice(seed.segments)
            k = rng.choice((2, 5, 20))
            base = len(seed.segments)
            for i in range(k):
                f.copy(seg, f"segments/{base + i:04d}")
            return f"{seg} copied to {k} more segments", None
        if what == 6:
            del f[col]
            f.create_group(col)
            return f"{col} a group", None
        seg = rng.choice(seed.segments)
        del f[seg]
        return f"{seg} deleted", None


def run(cmd, timeout, max_rss, env):
    """(outcome fields) of one command: returncode or None on timeout, peak RSS KiB, stderr, overmem."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env, start_new_session=True)
        t0 = time.monotonic()
        status = ru = None
        overmem = False
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            try:
                with open(f"/proc/{p.pid}/status") as s:
                    for line in s:
                        if line.startswith("VmRSS:") and int(line.split()[1]) > max_rss:
                            overmem = True
            except OSError:
                pass
            if overmem or time.monotonic() - t0 > timeout:
                os.killpg(p.pid, signal.SIGKILL)
                _, status, ru = os.wait4(p.pid, 0)
                p.returncode = -9
                err.seek(0)
                return None if not overmem else -9, ru.ru_maxrss, err.read().decode(errors="replace"), overmem
            time.sleep(0.01)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return p.returncode, ru.ru_maxrss, err.read().decode(errors="replace"), ru.ru_maxrss > max_rss


def classify(rc, stderr, overmem, must_refuse):
    if overmem:
        return "overmem"
    if rc is None:
        return "hang"
    if rc < 0 or "ERROR: AddressSanitizer" in stderr or "runtime error:" in stderr or "ERROR: LeakSanitizer" in stderr:
        return "crash"
    if must_refuse and not (rc == 1 and must_refuse in stderr):
        return "accepted"
    if rc == 0:
        return "read"
    if rc == 1:
        return "refused" if len(stderr.strip().splitlines()) == 1 else "noisy"
    return "badexit"


def one(args, seeds, work, k):
    rng = random.Random(f"{args.seed}:{k}")
    kind = args.kinds[k % len(args.kinds)]
    seed = seeds[k % len(seeds)]
    path = os.path.join(work, f"m{k}.h5")
    desc, must_refuse = mutate(seed, kind, rng, path)
    results = []
    for c in args.commands:
        if c == "analyze":
            cmd = [args.slcscope, "analyze", path]
        elif c == "export":
            cmd = [args.slcscope, "export", "--json", path]
        else:
            cmd = [args.slcscope, "report", path, "-o", os.path.join(work, f"r{k}"), "--quiet"]
        t0 = time.monotonic()
        rc, rss, stderr, overmem = run(cmd, args.timeout, args.max_rss_mib * 1024, args.env)
        results.append((c, classify(rc, stderr, overmem, must_refuse), rss, time.monotonic() - t0,
                        stderr.strip().splitlines()[-1][:300] if stderr.strip() else ""))
        shutil.rmtree(os.path.join(work, f"r{k}"), ignore_errors=True)
    bad = [r for r in results if r[1] in FAILURES]
    if bad and args.keep:
        os.makedirs(args.keep, exist_ok=True)
        shutil.copy(path, os.path.join(args.keep, f"{bad[0][1]}_{kind}_{k:05d}.h5"))
    os.unlink(path)
    return k, kind, desc, results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("slcscope")
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--max-rss-mib", type=int, default=1024)
    ap.add_argument("--kinds", default="byte,byte,trunc,attr,attr,struct")
    ap.add_argument("--commands", default="analyze,export,report")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep")
    ap.add_argument("--max-failures", type=int, default=0)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if os.environ.get("SLCSCOPE_MUTANTS"):
        args.count = int(os.environ["SLCSCOPE_MUTANTS"])
    args.kinds = args.kinds.split(",")
    args.commands = args.commands.split(",")
    env = dict(os.environ)
    # ASan's report goes to stderr and the process ends with a signal-like status either way
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0")
    args.env = env

    try:
        import h5py  # noqa: F401
    except ImportError:
        print("SKIP: h5py missing (use Debian's /usr/bin/python3)")
        return 77
    seeds = [Seed(t) for t in args.traces]
    counts = {}
    by_kind = {}
    peak = 0
    slowest = 0.0
    failures = 0
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as work, ThreadPoolExecutor(args.jobs) as ex:
        for k, kind, desc, results in ex.map(lambda k: one(args, seeds, work, k), range(args.count)):
            for c, outcome, rss, dt, last in results:
                counts[outcome] = counts.get(outcome, 0) + 1
                by_kind.setdefault(kind, {}).setdefault(outcome, 0)
                by_kind[kind][outcome] += 1
                peak = max(peak, rss)
                slowest = max(slowest, dt)
                if outcome in FAILURES:
                    failures += 1
                    print(f"{outcome}: mutant {k} ({desc}), {c}: {last}", flush=True)
                elif args.verbose:
                    print(f"{outcome}: mutant {k} ({desc}), {c}: {last}", flush=True)
    elapsed = time.monotonic() - t0
    runs = sum(counts.values())
    summary = ", ".join(f"{counts.get(o, 0)} {o}" for o in ("read", "refused") + FAILURES)
    print(f"{args.count} mutants of {', '.join(os.path.basename(t) for t in args.traces)} (seed {args.seed}), "
          f"{runs} runs of {'/'.join(args.commands)}: {summary}; peak RSS {peak / 1024:.0f} MiB, "
          f"slowest {slowest:.2f} s, {elapsed:.0f} s in all")
    for kind in sorted(by_kind):
        print(f"  {kind}: " + ", ".join(f"{n} {o}" for o, n in sorted(by_kind[kind].items())))
    return 1 if failures > args.max_failures else 0


if __name__ == "__main__":
    sys.exit(main())

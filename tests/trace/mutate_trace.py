#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Single-byte mutations of a real trace against `slcscope analyze`.

    mutate_trace.py SLCSCOPE TRACE [--count N] [--seed S] [--timeout T]
                    [--metadata] [--jobs J] [--keep DIR] [--max-crashes C]
                    [--max-hangs H]

Each round copies TRACE, changes one byte (position and new value drawn
from a seeded PRNG, so a run is reproducible), runs `SLCSCOPE analyze` on
the copy with a timeout and sorts the outcome: a signal exit is a crash, a
run longer than --timeout seconds is a hang, anything else (0 read, 1
refused) is fine.  --metadata draws positions only outside the raw chunk
data of the datasets (found with h5py), where a byte changes the file's
structure rather than a sample's value.  The files that crashed or hung are
kept in --keep.  Exit status 1 when the crashes or hangs exceed --max-crashes
or --max-hangs (default 0 each).
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor


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


def positions(size, ranges, metadata):
    if not metadata:
        return list(range(size))
    raw = bytearray(size)
    for off, n in ranges:
        raw[off:off + n] = b"\x01" * len(raw[off:off + n])
    return [i for i in range(size) if not raw[i]]


def run_one(args, data, work, k, pos, value):
    path = os.path.join(work, f"m{k}.h5")
    buf = bytearray(data)
    buf[pos] = value
    with open(path, "wb") as f:
        f.write(buf)
    t0 = time.monotonic()
    try:
        p = subprocess.run([args.slcscope, "analyze", path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=args.timeout)
        kind = "crash" if p.returncode < 0 else "ok" if p.returncode == 0 else "refused"
        detail = f"signal {-p.returncode}" if p.returncode < 0 else p.stderr.decode(errors="replace").strip()
    except subprocess.TimeoutExpired:
        kind, detail = "hang", f"over {args.timeout} s"
    dt = time.monotonic() - t0
    if kind in ("crash", "hang") and args.keep:
        os.makedirs(args.keep, exist_ok=True)
        shutil.copy(path, os.path.join(args.keep, f"{kind}_{pos:07d}_{value:02x}.h5"))
    os.unlink(path)
    return kind, pos, value, dt, detail


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("slcscope")
    ap.add_argument("trace")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--metadata", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep")
    ap.add_argument("--max-crashes", type=int, default=0)
    ap.add_argument("--max-hangs", type=int, default=0)
    args = ap.parse_args()

    data = open(args.trace, "rb").read()
    pool = positions(len(data), raw_ranges(args.trace) if args.metadata else [], args.metadata)
    rng = random.Random(args.seed)
    todo = []
    for _ in range(args.count):
        pos = rng.choice(pool)
        value = rng.randrange(255)
        todo.append((pos, value if value < data[pos] else value + 1))   # never the old byte
    counts = {"ok": 0, "refused": 0, "crash": 0, "hang": 0}
    slowest = 0.0
    with tempfile.TemporaryDirectory() as work, ThreadPoolExecutor(args.jobs) as ex:
        for kind, pos, value, dt, detail in ex.map(lambda a: run_one(args, data, work, *a),
                                                   [(k, p, v) for k, (p, v) in enumerate(todo)]):
            counts[kind] += 1
            slowest = max(slowest, dt)
            if kind in ("crash", "hang"):
                print(f"{kind}: byte {pos} = 0x{value:02x}: {detail}", flush=True)
    where = f"{len(pool)} metadata bytes" if args.metadata else f"all {len(data)} bytes"
    print(f"{args.count} single-byte mutations of {os.path.basename(args.trace)} ({where}, seed {args.seed}): "
          f"{counts['ok']} read, {counts['refused']} refused, {counts['crash']} crashes, "
          f"{counts['hang']} hangs over {args.timeout:g} s; slowest {slowest:.2f} s")
    return 1 if counts["crash"] > args.max_crashes or counts["hang"] > args.max_hangs else 0


if __name__ == "__main__":
    sys.exit(main())

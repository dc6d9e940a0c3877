#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Read a slcscope trace with h5py alone (no slcscope code) and check values.

Usage: test_h5py.py TRACE_WRITER
Exit 77 (skipped) when h5py is missing: install Debian's python3-h5py.
"""
import math
import os
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as e:
    print(f"SKIP: h5py not available ({e}); install the Debian package python3-h5py")
    sys.exit(77)

writer = sys.argv[1]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "fixed.h5")
    subprocess.run([writer, path, "fixed"], check=True)
    with h5py.File(path, "r") as f:
        a = f.attrs
        check(a["schema"] == "slcscope-trace", "schema attribute")
        check(int(a["schema_version"]) == 1, "schema_version")
        check(a["target"] == "sim:sata240-tlc", "target")
        check(a["device_serial"] == "SIM0001", "device_serial")
        check(int(a["capacity_bytes"]) == 240057409536, "capacity_bytes")
        check(int(a["logical_block_bytes"]) == 512, "logical_block_bytes")
        check(a["created_utc"].endswith("Z"), "created_utc in UTC")
        check(sorted(f["segments"].keys()) == ["0000", "0001"], "segment names")
        g0, g1 = f["segments/0000"], f["segments/0001"]
        check(g0.attrs["step"] == "seq_fill" and g0.attrs["workload"] == "seq_write", "segment 0 step/workload")
        check(int(g0.attrs["block_bytes"]) == 131072 and int(g0.attrs["queue_depth"]) == 32, "segment 0 block/qd")
        check(g1.attrs["data_pattern"] == "compressible:2.0", "segment 1 data_pattern")
        check(float(g1.attrs["idle_before_s"]) == 900.5 and int(g1.attrs["jobs"]) == 4, "segment 1 idle/jobs")
        check(int(g1.attrs["reap_batch"]) == 16, "segment 1 reap_batch")
        check(int(g1.attrs["poll_us"]) == 20 and int(g0.attrs["poll_us"]) == 0, "poll_us")
        check(g1.attrs["io_mode"] == "irq" and g0.attrs["io_mode"] == "", "io_mode")
        check(int(g1.attrs["offset_bytes"]) == 4096 and int(g1.attrs["range_bytes"]) == 1 << 30, "segment 1 region")
        check(g1.attrs["clock"] == "monotonic" and float(g1.attrs["interval_s"]) == 0.5, "segment 1 clock/interval")
        n = 10000
        i = np.arange(n)
        check(g0["t_s"].shape == (n,) and g0["t_s"].dtype == np.float64, "t_s shape and type")
        check(g0["bytes_total"].dtype == np.uint64, "bytes_total is uint64")
        check(np.array_equal(g0["t_s"][:], i + 1.0), "t_s values")
        check(np.array_equal(g0["bytes_total"][:], (i + 1) * 4096), "bytes_total values")
        check(np.array_equal(g0["ios"][:], i), "ios values")
        check(np.array_equal(g0["lat_p999_us"][:], i * 2.0), "lat_p999_us values")
        t = g0["temp_c"][:]
        check(np.isnan(t[::3]).all() and np.array_equal(t[1::3], 40.0 + (i[1::3] % 10)), "temp_c with NaN unknowns")
        for col, unit in [("t_s", "s"), ("bytes_total", "bytes"), ("lat_p50_us", "us"), ("temp_c", "degC")]:
            check(g0[col].attrs["units"] == unit, f"units of {col}")
        check(g0["t_s"].compression == "gzip" and g0["t_s"].chunks is not None, "chunked + deflate")
        check(g1["t_s"].shape == (5,), "segment 1 length")
        ev = g0["events"]
        check(ev["kind"][0] == b"cache_exhausted", "event kind")
        check(ev["t_s"][0] == 123.25 and int(ev["host_bytes"][0]) == 3000000000 and ev["value"][0] == 3e9,
              "event values")
        check(g1["events/kind"][0] == b"fold_done", "segment 1 event")
        phases = f["analysis/phases"][()]
        phases = phases.decode() if isinstance(phases, bytes) else phases
        check(phases == '{"cache_bytes": 2300000000}', "analysis JSON")
        check(f["analysis/phases"].attrs["content_type"] == "application/json", "analysis content_type")
        snaps = f["device/snapshots"]
        check(sorted(snaps.keys()) == ["0000", "0001"], "two device snapshots")
        s1 = snaps["0001"]
        check(s1.attrs["kind"] == "smart" and int(s1.attrs["segment"]) == 1 and float(s1.attrs["t_s"]) == 0.0,
              "snapshot attributes")
        text = s1[()].decode() if isinstance(s1[()], bytes) else s1[()]
        check('"temperature_c": 41' in text, "snapshot JSON")

print(f"{'ok' if not fails else 'FAILED'}: h5py {h5py.version.version}, HDF5 {h5py.version.hdf5_version}, "
      f"{len(fails)} failure(s)")
sys.exit(1 if fails else 0)

#!/usr/bin/python3
"""Phase analysis on measured traces of real drives, in their own formats.

Every trace is imported with `slcscope import` and analysed with
`slcscope analyze --json`; the cache found is compared with the truth read
by hand from the numbers (the `*.truth.json` beside each public trace, the
README table of testdata/analysis/realdata/ for the BIWIN runs).

Right means, as ../shared/realdata/public/README.md defines it: the cache
size within max(5%, 0.15 GiB) of the truth's range; for a drive without a
cache, no cache reported, or one under 0.5 GiB where the truth notes a
short fast start (its `cache_verdict` is "ambiguous").  The cache speed is
checked too where the truth gives it (within 10%: the truth is a median of
chunks, the analysis a mean of bytes over time).

The cases are split in two sets: `tune` (changes to the analysis may look
at them) and `report` (quoted in BENCHMARKS.md, looked at only to score).
The public SsdSlowMark files have no licence and are read from the shared
folder, never copied into the project.

  /usr/bin/python3 bench/realdata/score.py [--slc BIN] [--shared DIR]
        [--set tune|report|all] [--detail]

Without the shared folder only the BIWIN runs (in the repository) are
scored, and the output says so.  Exit status: 0 when every case was read
(whatever the score), 1 when an input, a truth file or the analysis's
output cannot be read, 2 on usage errors.  --all-right turns any case
read wrong into exit 1 (the ctest uses it).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GIB = 2.0 ** 30

# Tuning set: the three Samsung 860 PRO logs (garbage-collection dips, the
# class the analysis misread), the Intel 660p run whose cache comes back
# under continued writing, the 850 EVO cliff and the ADATA start-up bump.
# Everything else is the reporting set.
TUNE = {
    "s860pro-m1015__randwrite-iodepth-16-numjobs-1_bw.1",
    "s860pro-m1015__randwrite-iodepth-32-numjobs-1_bw.1",
    "s860pro-m1015__randwrite-iodepth-32-numjobs-1_iops.1",
    "intel-660p-1t-a__INTEL_SSDPEKNW010T8_(Write-50gb)_Chunks",
    "samsung-850evo-500__Samsung_SSD_850_EVO_500GB_(Write-50gb)_Chunks",
    "adata-sp550-240__ADATA_SP550NS38_(Write-50gb)_Chunks",
    "biwin_x570_1tb_fresh_200g_seqwrite_1s",
}

# BIWIN X570 1 TB (testdata/analysis/realdata/README.md): GiB ranges read
# by hand; speeds in MiB/s.
BIWIN = [
    ("biwin_x570_1tb_fresh_200g_seqwrite_1s", (71, 76), 5079),
    ("biwin_x570_1tb_postprecond_200g_seqwrite_1s", (92, 97), 5073),
    ("biwin_x570_1tb_mixed5050_nocliff_1s", None, None),
]


def cases(shared):
    """(name, input file, truth dict) for every case; the public ones only
    when @shared holds them.  Raises ValueError on a bad truth file."""
    out = []
    pub = os.path.join(shared, "realdata", "public")
    for f in sorted(os.listdir(pub)) if os.path.isdir(pub) else []:
        if not f.endswith(".truth.json"):
            continue
        try:
            with open(os.path.join(pub, f)) as fh:
                t = json.load(fh)
            cache = t["truth"]["cache"]
            truth = {
                "range_gib": [float(x) for x in cache["size_gib_range"]] if cache else None,
                "speed_mib_s": cache.get("cache_speed_mib_s") if cache else None,
                "ambiguous": t["truth"].get("cache_verdict") == "ambiguous",
            }
            out.append((f[:-len(".truth.json")], os.path.join(pub, t["file"]), truth))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise ValueError("%s: %s" % (f, e if str(e) else type(e).__name__))
    for name, rng, speed in BIWIN:
        out.append((name, os.path.join(ROOT, "testdata", "analysis", "realdata", name + ".csv"),
                    {"range_gib": rng, "speed_mib_s": speed, "ambiguous": False}))
    return out


def last_line(r):
    """The last line of a failed command's stderr, or how it ended."""
    lines = r.stderr.strip().splitlines()
    return lines[-1] if lines else "exit status %d, nothing on stderr" % r.returncode


def analyse(binary, path, tmp):
    """The last segment of the analysis of @path imported, or an error."""
    h5 = os.path.join(tmp, "t.h5")
    if os.path.exists(h5):
        os.unlink(h5)
    r = subprocess.run([binary, "import", path, "-o", h5], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("import: " + last_line(r))
    r = subprocess.run([binary, "analyze", "--json", h5], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("analyze: " + last_line(r))
    return json.loads(r.stdout)["segments"][-1]


def judge(seg, truth):
    """(right, what was found, why not) for one case."""
    cache = seg.get("cache") or {}
    size = cache.get("size_bytes")
    found = "none" if size is None else "%.2f GiB" % (size / GIB)
    if truth["range_gib"] is None:
        if size is None:
            return True, found, ""
        if truth["ambiguous"] and size < 0.5 * GIB:
            return True, found + " (short start)", ""
        return False, found, "a cache where the drive has none"
    lo, hi = truth["range_gib"]
    if size is None:
        return False, found, "no cache"
    g = size / GIB
    if not (lo - max(0.05 * lo, 0.15) <= g <= hi + max(0.05 * hi, 0.15)):
        return False, found, "cache size"
    want = truth["speed_mib_s"]
    got = cache.get("speed_bps")
    if want and not got:
        return False, found, "no cache speed"
    if want and abs(got / 2 ** 20 / want - 1) > 0.10:
        return False, found, "cache speed %.0f MiB/s for %d" % (got / 2 ** 20, want)
    return True, found, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--slc", default=os.path.join(ROOT, "build", "slcscope"))
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(ROOT), "shared"))
    ap.add_argument("--set", choices=("tune", "report", "all"), default="all")
    ap.add_argument("--detail", action="store_true")
    ap.add_argument("--all-right", action="store_true", help="exit 1 when any case is read wrong")
    a = ap.parse_args()
    if not os.access(a.slc, os.X_OK):
        print("error: %s: no such program (build first, or give --slc)" % a.slc, file=sys.stderr)
        return 1
    try:
        all_cases = cases(a.shared)
    except ValueError as e:
        print("error: truth: %s" % e, file=sys.stderr)
        return 1
    unknown = TUNE - {c[0] for c in all_cases}
    if len(all_cases) > len(BIWIN) and unknown:
        print("error: tune set names no case: %s" % ", ".join(sorted(unknown)), file=sys.stderr)
        return 1
    if len(all_cases) == len(BIWIN):
        print("note: no %s/realdata/public (the shared real traces): the BIWIN runs only" % a.shared)
    score = {"tune": [0, 0], "report": [0, 0]}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, path, truth in all_cases:
            which = "tune" if name in TUNE else "report"
            if a.set != "all" and a.set != which:
                continue
            try:
                seg = analyse(a.slc, path, tmp)
            except (RuntimeError, ValueError, KeyError, IndexError) as e:
                print("error: %s: %s" % (name, e), file=sys.stderr)
                return 1
            right, found, why = judge(seg, truth)
            score[which][0] += right
            score[which][1] += 1
            rng = "none" if truth["range_gib"] is None else "%.2f-%.2f GiB" % tuple(truth["range_gib"])
            conf = (seg.get("model") or {}).get("confidence")
            rows.append((which, name, rng, found, conf, right, why))
    print("| set | trace | truth | slcscope | model sure | right |")
    print("|---|---|---|---|---|---|")
    for which, name, rng, found, conf, right, why in rows:
        print("| %s | %s | %s | %s | %s | %s |" % (which, name[:60], rng, found,
              "-" if conf is None else "%.0f%%" % (100 * conf), "yes" if right else "**no**: " + why))
    total = [score["tune"][0] + score["report"][0], score["tune"][1] + score["report"][1]]
    for k in ("tune", "report"):
        if score[k][1]:
            print("%s: %d/%d right" % (k, score[k][0], score[k][1]))
    print("all: %d/%d right" % tuple(total))
    if a.all_right and total[0] < total[1]:
        print("%d of %d read wrong" % (total[1] - total[0], total[1]), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

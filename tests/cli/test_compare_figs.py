#!/usr/bin/env python3
"""Comparison figures as a reader sees them: a cliff drawn as a drop (not a
ramp the width of the moving average), on the comparison chart, the small
multiples and with --x fraction; every drive's line with markers along it
and in the legend, colour and dash distinct; the legend off the data and
at most a quarter of the width; small multiples of 6, 8 and 12 drives on a
grid without overlaps; a bar chart's legend swatches in its bars' colours;
sweep graphs with a marker on every measured point.  Found through
--layout-json, the SVG's paths and the PNG's pixels.

usage: test_compare_figs.py SLCSCOPE
"""
import json, os, re, shutil, subprocess, sys, tempfile
from collections import Counter

try:
    from PIL import Image
except ImportError:
    print("SKIP: python3-pil missing (Debian package python3-pil)")
    sys.exit(77)

slc = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="slcscope-cmpfigs.")
passed = failed = 0


def check(cond, what):
    global passed, failed
    passed, failed = (passed + 1, failed) if cond else (passed, failed + 1)
    print("ok:" if cond else "FAIL:", what)
    return cond


def run(*args, rc=0):
    p = subprocess.run([slc] + [str(a) for a in args], capture_output=True, text=True)
    if p.returncode != rc:
        print(f"  slcscope {' '.join(map(str, args))} exited {p.returncode}, expected {rc}: {p.stderr.strip()}")
    return p


def overlap(a, b):
    return a["w"] > 0 and b["w"] > 0 and a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and \
        a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def draw(name, inputs, *extra):
    """Draw as PNG, SVG and layout; (layout, SVG text, PNG image) or None."""
    png, svg, lay = (os.path.join(tmp, f"{name}.{e}") for e in ("png", "svg", "json"))
    if run("plot", *inputs, "-o", png, "--layout-json", lay, *extra).returncode or \
            run("plot", *inputs, "-o", svg, *extra).returncode:
        check(False, f"{name}: drawn")
        return None
    return json.load(open(lay)), open(svg).read(), Image.open(png).convert("RGB")


def stroked_paths(svg):
    """The SVG's stroked lines: (style, [(x, y), ...]) in drawing order."""
    out = []
    for m in re.finditer(r'<path style="([^"]*)" d="([^"]*)"', svg):
        style, d = m.groups()
        if "fill:none" not in style or "stroke:rgb" not in style:
            continue
        nums = [float(v) for v in re.findall(r"-?[0-9.]+", d)]
        if "C" in d or len(nums) < 6:
            continue
        out.append((style, list(zip(nums[0::2], nums[1::2]))))
    return out


def stroke_rgb(style):
    r, g, b = (float(v) for v in re.search(r"stroke:rgb\(([0-9.]+)%,([0-9.]+)%,([0-9.]+)%\)", style).groups())
    return "#%02x%02x%02x" % (round(r * 2.55), round(g * 2.55), round(b * 2.55))


def close(a, b, tol=2):
    if not (a.startswith("#") and b.startswith("#")):
        return False
    return abs(int(a[1:3], 16) - int(b[1:3], 16)) <= tol and abs(int(a[3:5], 16) - int(b[3:5], 16)) <= tol and \
        abs(int(a[5:7], 16) - int(b[5:7], 16)) <= tol


def ramp(pts):
    """The x distance over which a line falls from its first level to its last (within 5% of the fall)."""
    hi, lo = pts[0][1], pts[-1][1]   # canvas y: the fast level is the smaller y
    fall = lo - hi
    last_hi = max(x for x, y in pts if y <= hi + 0.05 * fall)
    first_lo = min(x for x, y in pts if y >= lo - 0.05 * fall)
    return first_lo - last_hi


def step_csv(path, fast, slow, at, n=600):
    with open(path, "w") as f:
        f.write("second,write_MiB_s\n")
        for t in range(1, n + 1):
            f.write(f"{t},{fast if t <= at else slow}\n")


try:
    # ---- cliffs: a step in the data stays a step in the drawing ----
    steps = []
    for name, fast, slow, at in (("stepA", 2000, 400, 200), ("stepB", 1500, 300, 300)):
        step_csv(os.path.join(tmp, name + ".csv"), fast, slow, at)
        steps.append(os.path.join(tmp, name + ".h5"))
        run("import", os.path.join(tmp, name + ".csv"), "-o", steps[-1], "--capacity", "500GB", "--cell", "tlc")
    # one sample of stepA at its fast speed, as a share of its whole curve (600 samples)
    total_a = (2000 * 200 + 400 * 400) * 1048576.0
    one_fast = 2000 * 1048576.0 / total_a
    for mode in ((), ("--x", "fraction")):
        got = draw("cliff-compare" + "".join(mode), steps, *mode)
        if got:
            lay, svg, _ = got
            want = lay["series"][0].get("colour", "#0072b2")  # the palette's first
            lines = [pts for style, pts in stroked_paths(svg) if close(stroke_rgb(style), want)]
            if check(len(lines) >= 1, f"compare {' '.join(mode)}: drive 1's line found in the SVG"):
                pts = lines[0]
                width = pts[-1][0] - pts[0][0]
                r, sample = ramp(pts), one_fast * width
                check(r <= sample + 1, f"compare {' '.join(mode)}: the cliff falls within one sample "
                      f"({r:.1f} px, a sample {sample:.1f} px)")
    for kind in ("multiples", "curve"):
        got = draw(f"cliff-{kind}-fraction", steps[:1], "--kind", kind, "--x", "fraction")
        if got:
            lay, svg, _ = got
            lines = [pts for style, pts in stroked_paths(svg) if stroke_rgb(style) == "#000000"]
            if check(len(lines) >= 1, f"{kind} --x fraction: the moving average found in the SVG"):
                pts = max(lines, key=len)
                width = pts[-1][0] - pts[0][0]
                r, sample = ramp(pts), one_fast * width
                check(r <= sample + 1, f"{kind} --x fraction: the average keeps the cliff "
                      f"({r:.1f} px, a sample {sample:.1f} px)")

    # ---- eight drives, twelve for the small multiples ----
    presets = ("tiny-tlc", "tiny-mlc", "tiny-qlc2", "tiny-dramless", "thermal-nvme")
    drives = []
    for i in range(12):
        t = os.path.join(tmp, f"d{i}.h5")
        run("run", f"sim:{presets[i % len(presets)]}", "--plan", "rand", "--rand-time", "60s", "--trim-wait", "0",
            "--interval", "1s", "--seed", i + 1, "-o", t, "--quiet")
        drives.append(t)
    long_labels = [x for i in range(12) for x in ("--label", f"Vendor {i + 1} Extreme Pro NVMe 2 TB, firmware 3B2QGXA7")]

    for name, extra in (("compare-8", ()), ("compare-8-long", long_labels[:16]), ("compare-8-log", ("--y", "log"))):
        got = draw(name, drives[:8], *extra)
        if not got:
            continue
        lay, svg, im = got
        W, leg, plot = lay["width"], lay["legend"], lay["plot"]
        check(not overlap(leg, plot), f"{name}: the legend {leg} lies outside the data {plot}")
        check(0 < leg["w"] <= 0.25 * W, f"{name}: the legend {leg['w']:.0f} px wide, at most a quarter of {W}")
        check(leg["x"] + leg["w"] <= W + 1 and leg["y"] + leg["h"] <= lay["height"] + 1, f"{name}: legend on the canvas")
        series = lay["series"]
        check(len(series) == 8, f"{name}: 8 series drawn")
        marks = [s.get("markers", 0) for s in series]
        check(all(m >= 3 for m in marks), f"{name}: markers along every line ({marks})")
        colours = [s.get("colour", "none") for s in series]
        check(len(set(colours)) == 8, f"{name}: 8 distinct colours ({colours})")
        # dash patterns: the lines differ in grey print too
        # (the lines: every stroked path of many points but the grey frame)
        grey = lambda c: c[1:3] == c[3:5] == c[5:7] != "00"
        dashes = {re.search(r"stroke-dasharray:([^;]*)", st).group(1) if "dasharray" in st else "solid"
                  for st, pts in stroked_paths(svg) if not grey(stroke_rgb(st))}
        check(len(dashes) >= 6, f"{name}: {len(dashes)} dash patterns among the lines")
        # the legend's keys: each drive's colour, as drawn, inside the legend box (its marker)
        px = im.load()
        box = [(x, y) for x in range(int(leg["x"]), int(leg["x"] + leg["w"]))
               for y in range(int(leg["y"]), int(leg["y"] + leg["h"]))]
        hist = Counter("#%02x%02x%02x" % px[x, y] for x, y in box)
        shown = [sum(n for c2, n in hist.items() if close(c, c2, 3)) for c in colours]
        check(all(n >= 15 for n in shown), f"{name}: every drive's key in the legend ({shown} pixels)")

    # a curve a hundredth of the axis long still shows its marker, one, not a pile of them
    got = draw("compare-short", [steps[0], drives[0], drives[3]])
    if got:
        marks = [x.get("markers", 0) for x in got[0]["series"]]
        check(len(marks) == 3 and min(marks) >= 1 and max(marks[1:]) <= 2,
              f"compare-short: a marker on every line, a short line's not piled up ({marks})")

    # ---- small multiples: 6, 8 and 12 panels on a grid, titles apart and readable ----
    for n in (6, 8, 12):
        got = draw(f"multiples-{n}", drives[:n], "--kind", "multiples", *long_labels[:2 * n])
        if not got:
            continue
        lay, svg, _ = got
        panels, titles = lay["panels"], lay["labels"]
        check(len(panels) == n, f"multiples {n}: {len(panels)} panels")
        check(all(not overlap(a, b) for i, a in enumerate(panels) for b in panels[i + 1:]), f"multiples {n}: panels apart")
        check(len(titles) == n and all(not overlap(a, b) for i, a in enumerate(titles) for b in titles[i + 1:]),
              f"multiples {n}: {len(titles)} panel titles apart")
        check(all(not overlap(t, p) for t in titles for p in panels), f"multiples {n}: titles off the data")
        tall = min((t["h"] for t in titles), default=0)
        check(tall >= 8, f"multiples {n}: titles readable ({tall:.1f} px high)")
        check(all(0 <= p["x"] and p["x"] + p["w"] <= lay["width"] and p["y"] + p["h"] <= lay["height"] for p in panels),
              f"multiples {n}: panels on the canvas")
    p = run("plot", *drives, drives[0], "--kind", "multiples", "-o", os.path.join(tmp, "x.png"), rc=2)
    check("at most 12" in p.stderr, "multiples: 13 inputs refused")

    # ---- bars: the legend's swatches in the bars' colours ----
    got = draw("bars-8", drives[:8], "--kind", "bars")
    if got:
        lay, _, im = got
        px = im.load()
        def colours_in(r, step=1):
            return Counter(px[x, y] for x in range(int(r["x"]) + 2, int(r["x"] + r["w"]) - 2, step)
                           for y in range(int(r["y"]) + 2, int(r["y"] + r["h"]) - 2, step))
        # each bar's fill: the pixel at the middle of its slot, just above the panel's floor
        fills = set()
        for r in lay["panels"]:
            for i in range(8):
                c = px[int(r["x"] + (i + 0.5) * r["w"] / 8), int(r["y"] + r["h"] - 3)]
                if c != (255, 255, 255):
                    fills.add(c)
        legend = colours_in(lay["legend"])
        check(len(fills) >= 6, f"bars: {len(fills)} bar colours found")
        missing = [c for c in fills if legend[c] < 30]
        check(not missing, f"bars: every bar colour is a legend swatch's (missing {missing})")

    # ---- sweeps: a marker on every measured point ----
    q = os.path.join(tmp, "q.h5")
    run("run", "sim:tiny-tlc", "--plan", "qd-sweep", "--step-time", "200ms", "--trim-wait", "1s", "-o", q, "--quiet")
    for name, inputs in (("sweep-1", [q]), ("sweep-2", [q, q])):
        got = draw(name, inputs, "--kind", "qd-sweep")
        if got:
            s = got[0]["series"]
            check(len(s) == 2 * len(inputs) and all(x.get("markers") == x["points"] > 1 for x in s),
                  f"{name}: a marker on every point ({[(x['points'], x.get('markers')) for x in s]})")
except Exception as e:  # a missing key is a failed check, not a crash
    import traceback
    traceback.print_exc()
    check(False, f"ran through ({e!r})")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

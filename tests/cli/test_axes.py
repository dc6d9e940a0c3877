#!/usr/bin/env python3
"""Every axis of every graph in the reports a user gets: the main job's
report, a comparison of six drives, a block size sweep (log2 axis), a
queue depth sweep on a log y axis, the lab plans' figures and a short CSV whose ranges once had
their labels rounded ("0.0 0.2 0.5 0.8").  The SVGs carry their texts as <text>
elements; the tick labels of an axis are the numeric texts in the tick
colour sharing a column (y: right-aligned) or a row (x: centred).  On every
axis the labels are distinct, their values an arithmetic progression or a
clean logarithmic sequence (1, 2, 5 x 10^k or powers of two), and their
positions evenly spaced (in value or in its logarithm) to within a pixel.

usage: test_axes.py SLCSCOPE
"""
import glob, math, os, re, shutil, subprocess, sys, tempfile
import xml.dom.minidom

slc = sys.argv[1] if len(sys.argv) > 1 else ""
if not os.access(slc, os.X_OK):
    print(f"SKIP: no slcscope binary at '{slc}'")
    sys.exit(77)

TICK_FILL = "rgb(51,51,51)"   # the plotter's tick label grey (0.2)
PIXEL = 1.0
passed = failed = 0


def check(cond, what):
    global passed, failed
    passed, failed = (passed + 1, failed) if cond else (passed, failed + 1)
    if not cond:
        print("FAIL:", what)
    return cond


def run(*args):
    p = subprocess.run([slc] + [str(a) for a in args], capture_output=True, text=True)
    check(p.returncode == 0, f"slcscope {' '.join(map(str, args))}: exit {p.returncode} {p.stderr.strip()[:300]}")
    return p.returncode == 0


SUP = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
NUM = r"-?\d+(?:\.\d+)?"


def value(s, binary):
    """The number a tick label stands for, or None when it is no number."""
    s = s.strip()
    if re.fullmatch(NUM, s):
        return float(s)
    m = re.fullmatch(rf"({NUM}) (µs|ms|s)", s)
    if m:
        return float(m.group(1)) * {"µs": 1, "ms": 1e3, "s": 1e6}[m.group(2)]
    m = re.fullmatch(rf"({NUM})([kKMGTP])", s)
    if m:
        p = "KMGTP".index(m.group(2).upper()) + 1
        return float(m.group(1)) * (1024.0 ** p if binary else 1000.0 ** p)
    m = re.fullmatch(rf"(?:({NUM})×)?10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)", s)
    if m:
        return float(m.group(1) or 1) * 10.0 ** int(m.group(2).translate(SUP))
    return None


def labels(path):
    doc = xml.dom.minidom.parse(path)
    out = []
    for t in doc.getElementsByTagName("text"):
        if not t.firstChild or t.getAttribute("fill") != TICK_FILL or t.getAttribute("transform") or \
                t.getAttribute("font-weight") == "bold":
            continue
        out.append((t.firstChild.data, t.getAttribute("text-anchor"), float(t.getAttribute("x")),
                    float(t.getAttribute("y"))))
    return out


def cluster(items, key):
    """Items whose @key lies within 1.5 px of the group's first, in groups."""
    groups = []
    for it in sorted(items, key=key):
        if groups and key(it) - key(groups[-1][0]) <= 1.5:
            groups[-1].append(it)
        else:
            groups.append([it])
    return groups


def axes(path):
    """The axes of one SVG: lists of (text, value, position), position growing with value."""
    texts = labels(path)
    binary = any(re.fullmatch(rf"{NUM}K", t[0]) for t in texts)
    num = [(t, value(t[0], binary)) for t in texts]
    num = [(t, v) for t, v in num if v is not None]
    found = []
    for anchor, across, along, sign in (("end", 2, 3, -1), ("middle", 3, 2, 1)):
        for g in cluster([x for x in num if x[0][1] == anchor], lambda x: x[0][across]):
            run_ = []
            # going along the axis the values grow; where they fall, another panel's axis begins
            for t, v in sorted(g, key=lambda x: sign * x[0][along]):
                if run_ and v <= run_[-1][1]:
                    found.append(run_)
                    run_ = []
                run_.append((t[0], v, sign * t[along]))
            found.append(run_)
    return [a for a in found if len(a) >= 2]


def linear_fit(xs, ps):
    """The largest distance (px) of the positions from the line through the first and last."""
    x0, x1, p0, p1 = xs[0], xs[-1], ps[0], ps[-1]
    return max(abs(p - (p0 + (p1 - p0) * (x - x0) / (x1 - x0))) for x, p in zip(xs, ps))


def clean_log(v):
    e2 = math.log2(v)
    if abs(e2 - round(e2)) < 1e-9:
        return True
    m = v / 10 ** math.floor(math.log10(v) + 1e-12)
    return any(abs(m - c) < 1e-9 * c for c in (1, 2, 5, 10))


def check_axis(name, ax):
    texts = [t for t, _, _ in ax]
    vals = [v for _, v, _ in ax]
    pos = [p for _, _, p in ax]
    what = f"{name}: axis {' '.join(texts)}"
    check(len(set(texts)) == len(texts), f"{what}: labels distinct")
    if len(ax) < 3:
        return "short"
    d = [b - a for a, b in zip(vals, vals[1:])]
    if all(abs(x - d[0]) <= 1e-9 * max(abs(v) for v in vals) for x in d):
        check(linear_fit(vals, pos) <= PIXEL, f"{what}: evenly spaced (off by {linear_fit(vals, pos):.2f} px)")
        check(4 <= len(ax) <= 10, f"{what}: 4 to 10 ticks")
        return "linear"
    if check(all(v > 0 and clean_log(v) for v in vals), f"{what}: an arithmetic progression or a clean log sequence"):
        lv = [math.log(v) for v in vals]
        check(linear_fit(lv, pos) <= PIXEL, f"{what}: log-spaced (off by {linear_fit(lv, pos):.2f} px)")
    return "log"


tmp = tempfile.mkdtemp(prefix="slcscope-axes.")
try:
    os.chdir(tmp)
    reports = []
    # the main job, as quick as the report test runs it
    if run("run", "sim:tiny-tlc", "--trim-wait", "0", "--rand-time", "60s", "--idle", "20s", "--burst", "5s",
           "--interval", "100ms", "-o", "t.h5", "--report", "main", "--quiet"):
        reports.append("main")
    six = []
    for preset in ("tiny-tlc", "tiny-mlc", "tiny-qlc2", "tiny-dramless", "thermal-nvme", "sata240-tlc"):
        if run("run", f"sim:{preset}", "--plan", "rand", "--trim-wait", "0", "--rand-time", "60s",
               "-o", f"six-{preset}.h5", "--quiet"):
            six.append(f"six-{preset}.h5")
    if len(six) == 6 and run("report", *six, "-o", "six", "--quiet"):
        reports.append("six")
        # an axis starting above zero (degrees)
        run("plot", six[4], "--kind", "temperature", "-o", "six/temperature.svg")
    if run("run", "sim:tiny-tlc", "--plan", "bs-sweep", "--step-time", "100ms", "--trim-wait", "1s", "-o", "b.h5",
           "--report", "bs", "--quiet"):
        reports.append("bs")
    os.mkdir("qd")
    if run("run", "sim:tiny-tlc", "--plan", "qd-sweep", "--step-time", "100ms", "--trim-wait", "1s", "-o", "q.h5",
           "--quiet"):
        run("plot", "q.h5", "--kind", "qd-sweep", "--y", "log", "-o", "qd/qd-log.svg")
        reports.append("qd")

    # the lab plans' figures (each under a second on the small drive)
    os.mkdir("lab")
    for plan, kind, extra in (("idle-sweep", "idle", ()), ("fill-levels", "fill-levels", ()),
                              ("compress", "compress", ()), ("trim-response", "trim-response", ("--trim-bytes", "256M"))):
        if run("run", "sim:tiny-tlc", "--plan", plan, "--interval", "100ms", *extra, "-o", f"{plan}.h5", "--quiet"):
            run("plot", f"{plan}.h5", "--kind", kind, "-o", f"lab/{kind}.svg")
    reports.append("lab")
    # 1.9 s at 12-13 MB/s: the ranges whose ticks were printed "0.0 0.2 0.5 0.8" and "0 2 5 8 10"
    os.mkdir("csv")
    with open("q.csv", "w") as f:
        f.write("second,write_MiB_s\n")
        f.writelines(f"{i * 0.01:.2f},{12 + (i * 7919 % 11) / 10}\n" for i in range(1, 191))
    run("plot", "q.csv", "--x", "time", "-o", "csv/time.svg")
    run("plot", "q.csv", "-o", "csv/bytes.svg")
    reports.append("csv")

    kinds = {"linear": 0, "log": 0, "short": 0}
    svgs = sorted(f for r in reports for f in glob.glob(os.path.join(r, "*.svg")))
    check(len(svgs) >= 15, f"{len(svgs)} SVGs drawn")
    for svg in svgs:
        found = axes(svg)
        # a bar chart has a y axis only
        check(len(found) >= (1 if "compress" in svg or "bars" in svg else 2), f"{svg}: its axes found ({len(found)})")
        for ax in found:
            kinds[check_axis(svg, ax)] += 1
            if os.environ.get("VERBOSE"):
                print(f"{svg}: {' '.join(t for t, _, _ in ax)}")
    check(kinds["linear"] >= 20 and kinds["log"] >= 3, f"axes checked: {kinds}")
    print(f"{len(svgs)} SVGs, axes: {kinds}")
finally:
    os.chdir("/")
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

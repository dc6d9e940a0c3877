#!/usr/bin/env python3
"""Every graph kind's structure, from the drawing's own layout (--layout-json):
PNG of the size asked, SVG well-formed with real <text> elements carrying the
labels a reader needs, the legend and every band label outside the data
area and apart from each other; a comparison of six presets where every curve
spans at least 5% of the plot height and the legend covers no data point; a
large input giving a file bounded by the canvas, not by the samples.

usage: test_figures.py SLCSCOPE
"""
import json, os, shutil, subprocess, sys, tempfile
import xml.dom.minidom

try:
    from PIL import Image
except ImportError:
    print("SKIP: python3-pil missing (Debian package python3-pil)")
    sys.exit(77)

slc = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="slcscope-figures.")
passed = failed = 0


def check(cond, what):
    global passed, failed
    passed, failed = (passed + 1, failed) if cond else (passed, failed + 1)
    print("ok:" if cond else "FAIL:", what)


def run(*args, rc=0):
    p = subprocess.run([slc] + [str(a) for a in args], capture_output=True, text=True)
    if p.returncode != rc:
        print(f"  slcscope {' '.join(map(str, args))} exited {p.returncode}, expected {rc}: {p.stderr.strip()}")
    return p


def inside(a, b):
    return a["w"] > 0 and b["w"] > 0 and a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and \
        a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def figure(name, inputs, kind, labels, *extra, png_size=None):
    """Draw @kind as PNG and SVG; check the layout and the SVG's texts."""
    png, svg, lay = (os.path.join(tmp, f"{name}.{e}") for e in ("png", "svg", "json"))
    p = run("plot", *inputs, "--kind", kind, "-o", png, "--layout-json", lay, *extra)
    if p.returncode:
        check(False, f"{name}: drawn")
        return None
    size = Image.open(png).size
    check(size == (png_size or size), f"{name}: PNG {size}")
    l = json.load(open(lay))
    panels = l["panels"] or [l["plot"]]
    for r in [l["legend"]] + l["labels"]:
        check(not any(inside(r, p) for p in panels), f"{name}: legend/label {r} outside the data areas")
    labs = l["labels"]
    check(all(not inside(a, b) for i, a in enumerate(labs) for b in labs[i + 1:]), f"{name}: {len(labs)} labels apart")
    check(l["legend"]["x"] >= 0 and l["legend"]["x"] + l["legend"]["w"] <= l["width"] + 1 and
          l["legend"]["y"] + l["legend"]["h"] <= l["height"] + 1, f"{name}: legend on the canvas")
    run("plot", *inputs, "--kind", kind, "-o", svg, *extra)
    text = open(svg).read()
    try:
        doc = xml.dom.minidom.parseString(text)
        texts = [t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild]
    except Exception as e:
        check(False, f"{name}: SVG well-formed ({e})")
        return l
    check("<path" not in text or "glyph" not in text, f"{name}: no glyph outlines in the SVG")
    joined = "\n".join(texts)
    for want in labels:
        check(want in joined, f"{name}: SVG <text> has '{want}'")
    return l


try:
    rand = os.path.join(tmp, "rand.h5")
    run("run", "sim:tiny-tlc", "--plan", "rand", "--rand-time", "120s", "--trim-wait", "0", "--interval", "100ms",
        "-o", rand, "--quiet")
    lab = os.path.join(tmp, "lab.h5")
    run("run", "sim:tiny-tlc", "--rand-time", "60s", "--idle", "20s", "--burst", "5s", "--trim-wait", "1s",
        "--interval", "100ms", "-o", lab, "--quiet")

    l = figure("curve", [rand], "curve", ["Simulated 4 GiB TLC", "4 KiB random writes, QD32", "data written (GB)",
               "write speed (MB/s)", "moving average over", "centred", "SLC cache", "direct to TLC", "erase-bound"],
               "--width", "1000", "--height", "600", png_size=(1000, 600))
    check(l and l["zoom"]["w"] > 0, "curve: a 256 MB cache on a GB axis gets the zoomed panel")
    check(l and l["series"][0]["points"] > 1000, "curve: every sample drawn")
    figure("curve-iops-time", [rand], "curve", ["write speed (thousand IOPS)", "time (seconds)"], "--y", "iops", "--x", "time")
    figure("curve-title", [rand], "curve", ["My drive, 4 GB"], "--title", "My drive, 4 GB")
    figure("latency", [rand], "latency", ["write latency", "median (p50)", "p99 to p99.9", "p99.9 to maximum", "ms"])
    figure("latency-cdf", [rand], "latency-cdf", ["write latency by phase", "share of the phase's intervals (%)",
           "SLC cache"])
    figure("recovery", [lab], "recovery", ["recovery", "SLC cache found (GB)", "burst speed (MB/s)", "after a TRIM",
           "idle"])
    for plan, kind, want in (("idle-sweep", "idle", "idle recovery"), ("fill-levels", "fill-levels", "% full"),
                             ("compress", "compress", "repeating data"), ("hir", "hir", "host idle recovery")):
        t = os.path.join(tmp, f"{plan}.h5")
        extra = ("--hir-rounds", "2") if plan == "hir" else ()
        p = run("run", "sim:tiny-tlc", "--plan", plan, "--interval", "100ms", *extra, "-o", t, "--quiet")
        if p.returncode and plan == "hir":
            run("run", "sim:tiny-tlc", "--plan", plan, "--interval", "100ms", "-o", t, "--quiet")
        figure(kind, [t], kind, [want])
    t = os.path.join(tmp, "trim.h5")
    run("run", "sim:tiny-tlc", "--plan", "trim-response", "--trim-bytes", "256M", "-o", t, "--quiet")
    figure("trim-response", [t], "trim-response", ["reads right after a TRIM", "read throughput", "read latency"])
    t = os.path.join(tmp, "hot.h5")
    run("run", "sim:thermal-nvme", "--plan", "rand", "--rand-time", "120s", "-o", t, "--quiet")
    figure("temperature", [t], "temperature", ["temperature (°C)", "warning temperature", "throttled"])
    p = run("plot", rand, "--kind", "temperature", "-o", os.path.join(tmp, "x.png"), rc=1)
    check("no temperature readings" in p.stderr, "temperature: says so when the input has none")

    # six presets compared: every curve visible, the legend off the data
    six = []
    for preset, extra in (("tiny-tlc", ()), ("tiny-mlc", ()), ("tiny-qlc2", ()), ("tiny-dramless", ()),
                          ("sata240-tlc", ("--rand-time", "600s")), ("thermal-nvme", ("--rand-time", "120s"))):
        t = os.path.join(tmp, f"six-{preset}.h5")
        run("run", f"sim:{preset}", "--plan", "rand", "--trim-wait", "0", *(extra or ("--rand-time", "120s")),
            "-o", t, "--quiet")
        six.append(t)
    for mode in (("--y", "log", "--x", "fraction"), ("--y", "log")):
        l = figure("compare" + "".join(mode), six, "compare", ["Write curves compared", "tiny-qlc2", "sata240-tlc"], *mode)
        if l:
            h = l["plot"]["h"]
            spans = [(s["y_max"] - s["y_min"]) / h for s in l["series"]]
            check(len(spans) == 6 and min(spans) >= 0.05, f"compare {' '.join(mode)}: every curve spans >= 5% "
                  f"of the plot height ({', '.join(f'{x:.0%}' for x in spans)})")
            check(not inside(l["legend"], l["plot"]), f"compare {' '.join(mode)}: the legend is off the data")
    labels = [x for i in range(6) for x in ("--label", f"drive {chr(65 + i)}")]
    figure("compare-labels", six, "compare", ["drive A", "drive F", "Six drives"], *labels, "--title", "Six drives")
    figure("multiples", six, "multiples", ["Write curves side by side", "tiny-mlc", "SLC cache"])
    figure("bars", six, "bars", ["SLC cache (GB)", "cache speed", "direct-to-TLC speed", "erase-bound speed",
           "data written in", "n/a"])
    p = run("plot", rand, "--kind", "compare", "-o", os.path.join(tmp, "x.png"), rc=1)
    check(p.returncode == 1 and "2 to 8" in p.stderr, "compare needs two inputs")
    p = run("plot", rand, "--kind", "nonsense", "-o", os.path.join(tmp, "x.png"), rc=2)
    check(p.returncode == 2, "unknown kind is a usage error")

    # a million samples: the SVG grows with the canvas, not the samples
    big = os.path.join(tmp, "big.csv")
    with open(big, "w") as f:
        f.write("second,write_MiB_s\n")
        for i in range(1, 1000001):
            f.write(f"{i * 0.01:.2f},{(500 if i < 100000 else 80) + (i * 7919 % 97)}\n")
    out = os.path.join(tmp, "big.svg")
    run("plot", big, "-o", out)
    size = os.path.getsize(out) if os.path.exists(out) else 1 << 40
    check(size < 8 << 20, f"1 M samples: SVG of {size / 1e6:.1f} MB")
    rep = os.path.join(tmp, "bigrep")
    run("report", big, "-o", rep, "--quiet")
    size = os.path.getsize(os.path.join(rep, "index.html")) if os.path.exists(os.path.join(rep, "index.html")) else 1 << 40
    check(size < 20 << 20, f"1 M samples: report page of {size / 1e6:.1f} MB")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
"""Graphs and reports from the command line: PNG size as asked, the plot
area not blank, the moving-average line present along the curve, phase
bands where the analysis put them (found through the drawing's layout);
SVG well-formed with its axis labels and legend as <text>; the report
directory complete; analyze's JSON and errors.

usage: test_graphs.py SLCSCOPE TESTDATA_DIR
"""
import json, os, shutil, subprocess, sys, tempfile
import xml.dom.minidom

try:
    from PIL import Image
except ImportError:
    print("SKIP: python3-pil missing (Debian package python3-pil)")
    sys.exit(77)

slc, testdata = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(prefix="slcscope-graphs.")
passed = failed = 0

def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok:", what)
    else:
        failed += 1
        print("FAIL:", what)

def run(*args, rc=0):
    p = subprocess.run([slc] + list(args), capture_output=True, text=True)
    if p.returncode != rc:
        print(f"  slcscope {' '.join(args)} exited {p.returncode}, expected {rc}: {p.stderr.strip()}")
    return p

try:
    trace = os.path.join(tmp, "t.h5")
    run("run", "sim:tiny-tlc", "--plan", "rand", "--rand-time", "120s", "--trim-wait", "0",
        "--interval", "100ms", "-o", trace, "--quiet")

    # analyze --json: the documented schema, the cache the model had
    p = run("analyze", "--json", trace)
    doc = json.loads(p.stdout)
    check(doc["schema"] == "slcscope.phases/2", "analyze --json schema")
    size = doc["cache"]["size_bytes"]
    check(size is not None and abs(size - 268435456) / 268435456 < 0.02, f"cache size {size} near 268 MB")
    kinds = [ph["kind"] for ph in doc["phases"]]
    check(kinds[0] == "slc_cache" and "erase_bound" in kinds, f"phases {kinds}")

    # PNG: size as asked, not blank, black moving-average pixels, bands
    png = os.path.join(tmp, "c.png")
    lay = os.path.join(tmp, "c.json")
    run("plot", trace, "-o", png, "--width", "1000", "--height", "600", "--layout-json", lay)
    im = Image.open(png).convert("RGB")
    check(im.size == (1000, 600), f"PNG is 1000x600 ({im.size})")
    w, h = im.size
    px = im.load()
    colours = {px[x, y] for x in range(0, w, 7) for y in range(0, h, 7)}
    check(len(colours) > 20, f"plot not blank ({len(colours)} colours)")
    # the plot area from the drawing's own layout (a zoomed panel may sit right of it)
    area = json.load(open(lay))["plot"]
    x0, x1, y0, y1 = area["x"], area["x"] + area["w"], area["y"], area["y"] + area["h"]
    # the moving average is drawn in black: count black pixels by column,
    # they must run along most of the plot width
    dark = lambda c: max(c) < 70
    cols = sum(1 for x in range(int(x0 + 3), int(x1 - 3))
               if any(dark(px[x, y]) for y in range(int(y0 + 3), int(y1 - 3))))
    check(cols > 0.8 * (x1 - x0), f"moving-average line across the plot ({cols} columns)")
    # phase bands: the shade differs between the cache/direct side and the erase-bound side
    ph = doc["phases"]
    eb = next(p for p in ph if p["kind"] == "erase_bound")
    total = max(p["end_bytes"] for p in ph)
    def shade(bytes_):
        x = int(x0 + bytes_ / total * (x1 - x0))
        return px[x, int(y0 + 0.05 * (y1 - y0))]
    a, b = shade((eb["start_bytes"] + 0) / 2), shade((eb["start_bytes"] + eb["end_bytes"]) / 2)
    check(a != b and a != (255, 255, 255) and b != (255, 255, 255), f"two phase shades {a} {b}")

    # SVG: well-formed, axis labels and legend as real text
    svg = os.path.join(tmp, "c.svg")
    run("plot", trace, "-o", svg)
    text = open(svg).read()
    try:
        xml.dom.minidom.parseString(text)
        check(True, "SVG well-formed")
    except Exception as e:
        check(False, f"SVG well-formed: {e}")
    check(subprocess.run(["xmllint", "--noout", svg]).returncode == 0, "xmllint accepts the SVG")
    # the plotter writes every label as an SVG <text> element, not glyph outlines
    t = "\n".join(e.firstChild.data for e in xml.dom.minidom.parseString(text).getElementsByTagName("text")
                  if e.firstChild)
    for label in ("data written (GB)", "write speed (MB/s)", "moving average over", "SLC cache", "erase-bound"):
        check(label in t, f"SVG carries the text '{label}'")
    pdf = os.path.join(tmp, "c.pdf")
    run("plot", trace, "-o", pdf)
    check(open(pdf, "rb").read(5) == b"%PDF-", "PDF written")

    # comparison of several inputs
    trace2 = os.path.join(tmp, "m.h5")
    run("run", "sim:tiny-mlc", "--plan", "rand", "--rand-time", "60s", "--trim-wait", "0", "-o", trace2, "--quiet")
    run("plot", trace, trace2, os.path.join(testdata, "analysis", "realdata",
        "biwin_x570_1tb_fresh_200g_seqwrite_1s.csv"), "-o", os.path.join(tmp, "cmp.png"))
    check(os.path.getsize(os.path.join(tmp, "cmp.png")) > 10000, "comparison chart")

    # latency and recovery charts
    lat = os.path.join(tmp, "lat.png")
    run("plot", trace, "--kind", "latency", "-o", lat)
    check(os.path.exists(lat) and Image.open(lat).size == (1200, 700), "latency chart")
    p = run("plot", trace, "--kind", "recovery", "-o", os.path.join(tmp, "r.png"), rc=1)
    check(p.returncode == 1 and "no recovery to show" in p.stderr, "recovery needs bursts")
    lab = os.path.join(tmp, "lab.h5")
    run("run", "sim:tiny-tlc", "--rand-time", "60s", "--idle", "20s", "--burst", "5s", "--trim-wait", "1s",
        "--interval", "100ms", "-o", lab, "--quiet")
    rec = os.path.join(tmp, "rec.svg")
    run("plot", lab, "--kind", "recovery", "-o", rec)
    desc = "\n".join(e.firstChild.data for e in xml.dom.minidom.parse(rec).getElementsByTagName("text") if e.firstChild)
    check("after a TRIM" in desc and "SLC cache found (GB)" in desc and "burst speed (MB/s)" in desc,
          "recovery chart: fresh, after idle, after TRIM")
    p = run("plot", trace, trace, "--kind", "latency", "-o", os.path.join(tmp, "x.png"), rc=2)
    check(p.returncode == 2, "latency takes one input")

    # report directory
    rep = os.path.join(tmp, "rep")
    run("report", trace, "-o", rep, "--quiet")
    files = set(os.listdir(rep))
    for f in ("index.html", "summary.md", "phases.json", "phases.csv", "samples.csv"):
        check(f in files, f"report has {f}")
    html = open(os.path.join(rep, "index.html")).read()
    check("<svg" in html and "src=" not in html and "href=\"http" not in html, "index.html is self-contained")

    # errors: one line, the right exit code
    p = run("plot", trace, "-o", os.path.join(tmp, "x.gif"), rc=2)
    check(p.returncode == 2 and ".png, .svg or .pdf" in p.stderr, "plot refuses .gif")
    p = run("analyze", os.path.join(tmp, "nope.h5"), rc=1)
    check(p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1, "analyze: missing file, one line")
    junk = os.path.join(tmp, "junk.csv")
    open(junk, "w").write("hello,world\n1,2\n")
    p = run("analyze", junk, rc=1)
    check(p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1, f"analyze: foreign CSV, one line ({p.stderr.strip()})")
    p = run("analyze", "--penalty", "huge", trace, rc=2)
    check(p.returncode == 2, "analyze: bad --penalty is a usage error")
    p = run("analyze", "--store", trace)
    ex = json.loads(run("export", trace, "--json").stdout)
    check("phases" in json.dumps(ex.get("analysis", "")), "analyze --store keeps the JSON in the trace")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
"""--theme: the print theme draws every graph in grays (a page printed in
black and white loses nothing to colour), the default one in colour; the
report takes the theme for all its graphs; an unknown theme is refused in
one line.  usage: test_theme.py SLCSCOPE"""
import glob
import os
import re
import subprocess
import sys
import tempfile

RGB = re.compile(r"rgb\(\s*([\d.]+)(%?)\s*,\s*([\d.]+)(%?)\s*,\s*([\d.]+)(%?)\s*\)")
fails = []


def colours(svg):
    out = set()
    for m in RGB.finditer(open(svg, encoding="utf-8").read()):
        v = [float(m.group(i)) * (2.55 if m.group(i + 1) else 1) for i in (1, 3, 5)]
        out.add(tuple(round(x) for x in v))
    return out


def grays_only(svg):
    bad = [c for c in colours(svg) if max(c) - min(c) > 2]
    if bad:
        fails.append(f"{os.path.basename(svg)}: colours in the print theme: {sorted(bad)[:4]}")


def main():
    slc = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="slcscope-theme.") as d:
        run = lambda *a: subprocess.run([slc, *a], capture_output=True, text=True)
        r = run("run", "sim:tiny-tlc", "--plan", "lab", "--rand-time", "60s", "--idle", "10s", "--burst", "5s",
                "--trim-wait", "0", "--interval", "200ms", "-o", f"{d}/t.h5", "--quiet")
        if r.returncode:
            print("FAIL: run:", r.stderr)
            return 1
        r2 = run("run", "sim:tiny-mlc", "--plan", "rand", "--rand-time", "60s", "--trim-wait", "0",
                 "--interval", "200ms", "-o", f"{d}/u.h5", "--quiet")
        for args, name in ((["--theme", "print"], "print.svg"), ([], "default.svg")):
            r = run("plot", f"{d}/t.h5", f"{d}/u.h5", "--kind", "compare", *args, "-o", f"{d}/{name}")
            if r.returncode:
                fails.append(f"plot {args}: {r.stderr.strip()}")
        if os.path.exists(f"{d}/print.svg"):
            grays_only(f"{d}/print.svg")
        if os.path.exists(f"{d}/default.svg"):
            if not any(max(c) - min(c) > 40 for c in colours(f"{d}/default.svg")):
                fails.append("default theme: no colour in a two-drive comparison")
        # the print theme's text a tenth larger and its data lines half as thick again, the rest alike
        for name, args in (("dp.svg", ["--theme", "print"]), ("dd.svg", [])):
            run("plot", f"{d}/t.h5", *args, "-o", f"{d}/{name}")
        if os.path.exists(f"{d}/dp.svg") and os.path.exists(f"{d}/dd.svg"):
            fsz = lambda f: sorted(float(x) for x in re.findall(r'font-size="([\d.]+)"', open(f).read()))
            lw = lambda f: sorted({float(x) for x in re.findall(r"stroke-width:([\d.]+)", open(f).read())})
            fp, fd = fsz(f"{d}/dp.svg"), fsz(f"{d}/dd.svg")
            if len(fp) != len(fd) or not fd or any(abs(a / b - 1.1) > 0.01 for a, b in zip(fp, fd)):
                fails.append(f"print theme text: {fp[:5]} against the default's {fd[:5]}")
            wp, wd = lw(f"{d}/dp.svg"), lw(f"{d}/dd.svg")
            if not wd or max(wp) < 1.45 * max(wd) or min(wp) != min(wd):
                fails.append(f"print theme lines: {wp} against the default's {wd}")
        r = run("report", f"{d}/t.h5", "--theme", "print", "-o", f"{d}/rep", "--quiet")
        svgs = glob.glob(f"{d}/rep/*.svg")
        if r.returncode or len(svgs) < 3:
            fails.append(f"report --theme print: rc {r.returncode}, {len(svgs)} graphs: {r.stderr.strip()}")
        for svg in svgs:
            grays_only(svg)
        r = run("plot", f"{d}/t.h5", "--theme", "neon", "-o", f"{d}/x.svg")
        if r.returncode != 2 or "--theme: 'neon' is not default or print" not in r.stderr or os.path.exists(f"{d}/x.svg"):
            fails.append(f"--theme neon: rc {r.returncode} {r.stderr.strip()}")
        n = 5 + len(svgs)
    for f in fails:
        print("FAIL:", f)
    print(f"{n - len(fails)} of {n} theme checks passed" if not fails else f"{len(fails)} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Every number a reader sees agrees with phases.json: each of the 13 plans on
two simulated drives and two imported logs, analysed on the console and made
into a report; the console text, summary.md, index.html's text and the SVGs'
<text> elements are read back and each value found is compared with the
phases.json member it stands for, rounded the way slcscope prints it
(core/units.c).  Also the contradictions users reported: a recovery over 100%,
"all of the cache back" under 90%, no cache recovered while the same burst
shows one, a folding rate below what a wait that brought the whole cache back
implies, a p99 latency under the mean.

usage: test_consistency.py SLCSCOPE TESTDATA
"""
import html, json, math, os, re, shutil, subprocess, sys, tempfile, time

slc, testdata = sys.argv[1], sys.argv[2]
writer = sys.argv[3] if len(sys.argv) > 3 else None
tmp = tempfile.mkdtemp(prefix="slcscope-consistency.")
passed = failed = 0
PLANS = ["lab", "seq", "rand", "trim-response", "fill-levels", "compress", "hir", "idle-sweep",
         "qd-sweep", "bs-sweep", "mixed", "basic", "short"]
# another set of drives to look at by hand: SLCSCOPE_CONSISTENCY_PRESETS=tiny-mlc,tiny-dramless
PRESETS = os.environ.get("SLCSCOPE_CONSISTENCY_PRESETS", "tiny-tlc,tiny-qlc2").split(",")
SHORT = ["--rand-time", "60s", "--idle", "20s", "--burst", "5s", "--trim-wait", "1s", "--interval", "100ms",
         "--step-time", "1s", "--region", "64MiB", "--point-bytes", "32MiB", "--idle-list", "5s,30s,2m",
         "--hir-rounds", "3", "--read-time", "2s", "--no-probe"]
IMPORTS = [os.path.join(testdata, "import", "realdata", "biwin_x570_1tb_fresh_200g_seqwrite_1s.csv"),
           os.path.join(testdata, "import", "chunks.csv")]


def check(cond, what):
    global passed, failed
    passed, failed = (passed + 1, failed) if cond else (passed, failed + 1)
    if not cond:
        print("FAIL:", what)
    return cond


def run(*args):
    p = subprocess.run([slc] + [str(a) for a in args], capture_output=True, text=True)
    if p.returncode:
        print(f"  slcscope {' '.join(map(str, args))} exited {p.returncode}: {p.stderr.strip()[:500]}")
    return p


# --- the project's number formats (core/units.c) ---------------------------

def fmt_scaled(v, suffix="", dec=True):
    if v is None or not math.isfinite(v):
        return "- B" + suffix
    names = ["B", "kB", "MB", "GB", "TB", "PB", "EB"] if dec else ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    base = 1000.0 if dec else 1024.0
    a, i = abs(v), 0
    while a >= base and i < 6:
        a /= base
        v /= base
        i += 1
    if i == 0 or v == math.floor(v):
        return f"{v:.0f} {names[i]}{suffix}"
    if a < 10:
        return f"{v:.2f} {names[i]}{suffix}"
    if a < 100:
        return f"{v:.1f} {names[i]}{suffix}"
    return f"{v:.0f} {names[i]}{suffix}"


# --binary: sizes and rates in powers of 1024 everywhere (a second pass, below)
BIN = False


def mb():
    return 1048576.0 if BIN else 1e6


def gb():
    return 1073741824.0 if BIN else 1e9


def unit(name):
    return {"MB/s": "MiB/s", "GB": "GiB"}[name] if BIN else name


def fb(v):
    return fmt_scaled(v, dec=not BIN)


def fr(v):
    return fmt_scaled(v, "/s", dec=not BIN)


def fi(v, unit=True):
    if v is None or not math.isfinite(v):
        s = "-"
    elif v >= 1e6:
        s = f"{v / 1e6:.2f}M"
    elif v >= 1e4:
        s = f"{v / 1e3:.1f}k"
    else:
        s = f"{v:.0f}"
    return s + " IOPS" if unit and s != "-" else s


def fdur(s):
    ns = int(round(s * 1e9))
    if ns < 1000000000:
        return f"{ns / 1e6:.1f} ms"
    if ns < 60000000000:
        return f"{ns / 1e9:.1f} s"
    t = ns // 1000000000
    return f"{t // 60}m {t % 60:02d}s" if t < 3600 else f"{t // 3600}h {t // 60 % 60:02d}m {t % 60:02d}s"


def parse_size(s):
    """'270 MB' -> bytes (decimal and binary units)."""
    m = re.fullmatch(r"(-?[\d.]+) ?(B|kB|MB|GB|TB|KiB|MiB|GiB|TiB)", s.strip())
    mult = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3,
            "TiB": 1024**4}
    return float(m.group(1)) * mult[m.group(2)] if m else None


def pct(frac):
    return f"{frac * 100:.0f}%"


# --- reading the outputs ----------------------------------------------------

def html_text(path):
    t = open(path, encoding="utf-8").read()
    # the inlined figures are the *.svg files, read by check_svgs()
    t = re.sub(r"<(script|style|svg)[^>]*>.*?</\1>", " ", t, flags=re.S)
    t = re.sub(r"<br\s*/?>|</(p|li|tr|h\d|div|pre|table)>", "\n", t)
    t = re.sub(r"</t[dh]>", " | ", t)
    return html.unescape(re.sub(r"<[^>]+>", "", t))


def svg_texts(path):
    return [html.unescape(re.sub(r"<[^>]+>", "", m)) for m in
            re.findall(r"<text[^>]*>(.*?)</text>", open(path, encoding="utf-8").read(), flags=re.S)]


def segs_of(j):
    return {s["segment"]: s for s in j.get("segments", []) if "segment" in s} or {0: j}


def all_phases(j):
    out = list(j.get("phases", []))
    for s in j.get("segments", []):
        out += s.get("phases", [])
    return out


# --- the checks ---------------------------------------------------------------

CON_ROW = re.compile(r"^  (\w+(?: tier \d+)?)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+ \w+)\s+(-?[\d.]+ \w+)\s+"
                     r"(\S+ \S+/s)\s+(\S+ \S+/s)\s+(\S+ \S+/s)\s+(\S+ \S+/s)\s+([\d.]+|-)\s+(\S+)$")


def console_blocks(text):
    """{segment number: its lines} from the analyze output."""
    blocks, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"segment (\d+): ", line)
        if m:
            cur = int(m.group(1))
            blocks[cur] = []
        elif cur is not None:
            if line and not line.startswith(" "):
                cur = None
            else:
                blocks[cur].append(line)
    return blocks


def jitter(p):
    """@p and @p with every number a hair lower and higher: phases.json keeps 10
    significant digits, so a value printed on a rounding edge may round
    either way from it."""
    def scaled(k):
        return {a: (b * k if isinstance(b, float) else b) for a, b in p.items()}
    return [p, scaled(1 - 1e-9), scaled(1 + 1e-9)]


def con_row(p):
    # the console names the phase after the cell it writes to (direct_to_qlc) or native without a cell
    name = "direct" if p["kind"] == "direct_to_tlc" else p["kind"] + (f" tier {p['tier']}" if "tier" in p else "")
    cov = "-" if p.get("cov") is None else f"{p['cov']:.3f}"
    return (name, f"{p['start_s']:.1f}", f"{p['end_s']:.1f}", fb(p["start_bytes"]), fb(p["end_bytes"]),
            fr(p["mean_bps"]), fr(p["median_bps"]), fr(p["p5_bps"]), fr(p["p95_bps"]), cov,
            fi(p.get("iops_mean"), False))


def check_console(tag, text, j):
    segs = segs_of(j)
    for n, lines in console_blocks(text).items():
        s = segs.get(n)
        if not check(s is not None, f"{tag}: console segment {n} in phases.json"):
            continue
        rows = {con_row(q) for p in s.get("phases", []) for q in jitter(p)}
        cache = s.get("cache") or {}
        for line in lines:
            m = CON_ROW.match(line)
            if m:
                g = m.groups()
                g = (("direct" if re.fullmatch(r"direct_to_\w+|native(?:_\w+)?", g[0]) else g[0]),) + g[1:]
                check(g in rows, f"{tag}: segment {n} phase row {m.groups()} is one of phases.json's "
                      f"{sorted(rows)}")
            m = re.match(r"  SLC cache: (\S+ \S+) at (\S+ \S+/s)", line)
            if m:
                check((m.group(1), m.group(2)) == (fb(cache.get("size_bytes")), fr(cache.get("speed_bps"))),
                      f"{tag}: segment {n} '{line.strip()}' vs cache {cache}")
            m = re.match(r"  erase-bound from ([\d.]+) s, (\S+ \S+) written", line)
            if m:
                check((m.group(1), m.group(2)) == (f"{s['erase_bound_start_s']:.1f}",
                                                     fb(s["erase_bound_start_bytes"])),
                      f"{tag}: segment {n} '{line.strip()}' vs {s['erase_bound_start_s']} s, "
                      f"{s['erase_bound_start_bytes']} B")
            m = re.match(r"  SLC cache: ended inside the first (\d+) samples: at least (\S+ [A-Za-z]+), at most "
                         r"(\S+ [A-Za-z]+)", line)
            if m:
                b = cache.get("bound") or {}
                check(m.groups() == (str(b.get("samples")), fb(b.get("min_bytes")), fb(b.get("max_bytes"))),
                      f"{tag}: segment {n} '{line.strip()}' vs cache.bound {b}")
            m = re.match(r"  the model: (\d+)% sure", line)
            if m:
                check(m.group(1) == pct(s["model"]["confidence"])[:-1], f"{tag}: segment {n} '{line.strip()}' vs "
                      f"confidence {s['model']['confidence']}")
            m = re.match(r"  runner-up \(odds ([\d.e+]+) : 1 against\): (.*)", line)
            if m:
                ru = s["model"].get("runner_up") or {}
                c = re.search(r"a cache of (\S+ [A-Za-z]+)", m.group(2))
                check(c is None or c.group(1) == fb(ru.get("cache_bytes")),
                      f"{tag}: segment {n} '{line.strip()}' vs runner-up cache {ru.get('cache_bytes')}")
                e = re.search(r"erase-bound from (\S+ [A-Za-z]+)", m.group(2))
                check(e is None or e.group(1) == fb(ru.get("erase_bound_start_bytes")),
                      f"{tag}: segment {n} '{line.strip()}' vs runner-up onset {ru.get('erase_bound_start_bytes')}")
            m = re.search(r"SNIA steady state: not reached \(counted after (\S+ \S+) written", line)
            if m:
                check(m.group(1) == fb(s["steady_state"].get("from_bytes")),
                      f"{tag}: segment {n} '{line.strip()}' vs from_bytes {s['steady_state'].get('from_bytes')}")
            if "recovery:" in line:
                check_recovery_words(f"{tag}: segment {n}", line, s)
                check_recovery_member(f"{tag}: segment {n}", line, s.get("recovery"))
            m = re.match(r"  SLC cache: .* used up at ([\d.]+) s \(ends within (\S+ \S+)-(\S+ \S+)\)", line)
            if m and s.get("phases"):
                cp = [p for p in s["phases"] if p["kind"] == "slc_cache"]
                check(m.group(1) == f"{cache.get('end_s'):.1f}" and cp and
                      (m.group(2), m.group(3)) == tuple(fb(x) for x in cp[-1]["end_range_bytes"]),
                      f"{tag}: segment {n} '{line.strip()}' vs end {cache.get('end_s')} s, "
                      f"{cp and cp[-1]['end_range_bytes']}")


def check_recovery_words(tag, line, s):
    cache = s.get("cache") or {}
    size = cache.get("size_bytes")
    for p in re.findall(r"(\d+)% of the (?:first measure|cache back|fresh cache)", line):
        check(int(p) <= 100, f"{tag}: recovery over 100%: '{line.strip()}'")
        if "all of the cache back" in line:
            check(int(p) >= 90, f"{tag}: 'all of the cache back' at {p}%: '{line.strip()}'")
    m = re.search(r"\((\S+ \S+)(?:,|\))", line)
    # a segment's own line (it has phases) names its cache, 0 B when none; a
    # line read without its segment (the headline) is compared elsewhere
    if m and parse_size(m.group(1)) is not None and (size is not None or s.get("phases") is not None):
        check(m.group(1) == fb(size or 0), f"{tag}: recovered {m.group(1)} vs the segment's cache {size}")
    has_cache = bool(size) or bool(s.get("phases") and s["phases"][0]["kind"] == "slc_cache")
    if re.search(r"\b0% of the cache back|\(0 B\)", line):
        check(not has_cache, f"{tag}: no cache recovered while the segment shows one: '{line.strip()}'")


def check_recovery_member(tag, line, r):
    """The recovery words against the segment's "recovery" member."""
    if not check(r is not None, f"{tag}: '{line.strip()}' has a recovery member"):
        return
    check(f"burst {fr(r['burst_bps'])}" in line, f"{tag}: '{line.strip()}' burst vs {r['burst_bps']}")
    check(fb(r["cache_bytes"]) in line, f"{tag}: '{line.strip()}' cache vs {r['cache_bytes']}")
    f = r.get("cache_frac")
    check(f is None or 0 <= f <= 1.0, f"{tag}: recovery.cache_frac {f} over 100%")
    if f is not None and "at least" not in line:
        check(pct(f) in line, f"{tag}: '{line.strip()}' vs cache_frac {f}")
        check(("all of the cache back" in line) == (f >= 0.9), f"{tag}: '{line.strip()}' words vs cache_frac {f}")


def near(printed, x):
    """@printed (a bar or axis number) is @x rounded at the printed precision."""
    d = len(printed.split(".")[1]) if "." in printed else 0
    return x is not None and abs(float(printed) - x) <= 0.5 * 10 ** -d * 1.0001 + 1e-12


def bars(texts, axis):
    """(category, value) pairs after the axis title @axis of a bar chart."""
    out, on, cat = [], False, None
    for t in texts:
        if t == axis:
            on, cat = True, None
            continue
        if on and re.fullmatch(r"[\d.]+", t):
            if cat is not None:
                out.append((cat, t))
                cat = None
        elif on and re.search(r"\([^)]*\)$", t) and t != axis:
            on = False
        elif on:
            cat = t
    return out


def check_bar_charts(tag, d, j):
    def svg(name):
        f = os.path.join(d, name)
        return svg_texts(f) if os.path.exists(f) else None
    t = svg("compress.svg")
    cm = j.get("compressibility")
    if t and cm:
        b = bars(t, f"mean write speed ({unit('MB/s')})")
        check(len(b) == 2 and near(b[0][1], cm["random_bps"] / mb()) and near(b[1][1], cm["repeating_bps"] / mb()),
              f"{tag}: compress.svg bars {b} vs {cm}")
    t = svg("fill-levels.svg")
    fl = j.get("fill_levels")
    if t and fl:
        c, v = bars(t, f"SLC cache found ({unit('GB')})"), bars(t, f"burst speed ({unit('MB/s')})")
        check(len(c) == len(fl) and all(near(x[1], e["cache_bytes"] / gb()) for x, e in zip(c, fl)),
              f"{tag}: fill-levels.svg caches {c} vs {[e['cache_bytes'] for e in fl]}")
        check(len(v) == len(fl) and all(near(x[1], e["mean_bps"] / mb()) for x, e in zip(v, fl)),
              f"{tag}: fill-levels.svg speeds {v} vs {[e['mean_bps'] for e in fl]}")
    t = svg("hir.svg")
    hir = j.get("host_idle_recovery")
    if t and hir:
        b = bars(t, "write speed in the 5 s windows (thousand IOPS)")
        check(len(b) == len(hir) and all(near(x[1], e["iops"] / 1e3) for x, e in zip(b, hir)),
              f"{tag}: hir.svg bars {b} vs {hir}")
    t = svg("recovery.svg")
    if t:
        segs = segs_of(j).values()
        caches = [0.0] + [c["size_bytes"] for c in (s.get("cache") or {} for s in segs) if c.get("size_bytes")]
        caches += [s["recovery"]["cache_bytes"] for s in segs if s.get("recovery")]
        caches += [s["cache"]["bound"]["min_bytes"] for s in segs if (s.get("cache") or {}).get("bound")]
        speeds = [s["recovery"]["burst_bps"] for s in segs if s.get("recovery")]
        speeds += [s["phases"][0]["mean_bps"] for s in segs if s.get("phases")]
        for cat, v in bars(t, f"SLC cache found ({unit('GB')})"):
            check(any(near(v, x / gb()) for x in caches), f"{tag}: recovery.svg '{cat}' {v} GB is a cache found")
        for cat, v in bars(t, f"burst speed ({unit('MB/s')})"):
            check(any(near(v, x / mb()) for x in speeds), f"{tag}: recovery.svg '{cat}' {v} MB/s is a burst speed")


def dur_words(x):
    """session/words.c slc_duration_words() below 2 minutes; None above (not compared)."""
    return f"{x:.3g} s" if x < 120 else None


def md_rows(text):
    """Phase rows of the Markdown/HTML phase tables: (from, to, lasts, iops, rate, median, p5, p95, cov)."""
    return [(a, b, l.strip(), c or "-", d, e, f, g, v) for a, b, l, c, d, e, f, g, v in
            re.findall(r"\|\s*(-?[\d.]+ \w+) \| (-?[\d.]+ \w+) \| ([^|]+) \| (?:(\S+ IOPS) \()?(\S+ \S+/s)\)? \| "
                       r"(\S+ \S+/s) \| (\S+ \S+/s) to (\S+ \S+/s) \| ([\d.]*) ?\|", text)]


def check_report_text(tag, text, j):
    phases = all_phases(j)
    rows = set()
    for p in (q for ph in phases for q in jitter(ph)):
        iops = fi(p["iops_mean"]) if p.get("iops_mean") is not None else "-"
        cov = "" if p.get("cov") is None else f"{p['cov']:.2f}"
        r = (fb(p["start_bytes"]), fb(p["end_bytes"]), dur_words(p["end_s"] - p["start_s"]), iops,
             fr(p["mean_bps"]), fr(p["median_bps"]), fr(p["p5_bps"]), fr(p["p95_bps"]), cov)
        rows |= {r, r[:3] + ("-",) + r[4:]}
    found = md_rows(text)
    for r in found:
        # durations of 2 minutes and more are words in minutes: compared without them
        r2 = r if r[2].endswith(" s") else r[:2] + (None,) + r[3:]
        check(r2 in rows or r in rows or (r2[:2] + r2[3:]) in {x[:2] + x[3:] for x in rows if not r[2].endswith(" s")},
              f"{tag}: phase row {r} is one of phases.json's")
    bounds = {(str(b.get("samples")), fb(b.get("min_bytes")), fb(b.get("max_bytes"))) for b in
              ((sg.get("cache") or {}).get("bound") for sg in segs_of(j).values()) if b}
    for m in re.finditer(r"ended inside the first (\d+) samples: at least (\S+ [A-Za-z]+), at most (\S+ [A-Za-z]+)", text):
        check(m.groups() in bounds, f"{tag}: '{m.group(0)}' is a segment's cache.bound {bounds}")
    for m in re.finditer(r"\| (\S+ [A-Za-z]+) to (\S+ [A-Za-z]+) \((?:too short|its end hidden)", text):
        check(m.groups() in {b[1:] for b in bounds}, f"{tag}: headline bound '{m.group(0)}' vs {bounds}")
    # the headline's post-cache and erase-bound speeds: a phase's mean or a
    # segment's time-weighted mean over its phases of that kind
    means = {"direct": set(), "erase_bound": set()}
    for sg in segs_of(j).values():
        for kind in means:
            ps = [p for p in sg.get("phases", []) if (p["kind"].startswith("direct") or p["kind"] == "native")
                  == (kind == "direct") and (kind == "direct" or p["kind"] == "erase_bound")]
            t = sum(p["end_s"] - p["start_s"] for p in ps)
            means[kind] |= {fr(p["mean_bps"]) for p in ps}
            if t > 0:
                means[kind].add(fr(sum(p["mean_bps"] * (p["end_s"] - p["start_s"]) for p in ps) / t))
    for m in re.finditer(r"\| (?:Direct to \w+|Native) speed \(cache full\) \| (?:\S+ IOPS \()?(\S+ \S+/s)\)? \|", text):
        check(m.group(1) in means["direct"], f"{tag}: headline post-cache speed {m.group(1)} in {means['direct']}")
    for m in re.finditer(r"\| erase-bound speed \| (?:\S+ IOPS \()?(\S+ \S+/s)\)? \|", text):
        check(m.group(1) in means["erase_bound"], f"{tag}: headline erase-bound speed {m.group(1)} in "
              f"{means['erase_bound']}")
    for m in re.finditer(r"\| erase-bound from \(data written\) \| (\S+ \S+) \|", text):
        check(m.group(1) in {fb(sg.get("erase_bound_start_bytes")) for sg in segs_of(j).values()},
              f"{tag}: headline erase-bound onset {m.group(1)}")
    caches = {(fb(s["cache"]["size_bytes"]), fr(s["cache"]["speed_bps"])) for s in segs_of(j).values()
              if s.get("cache") and s["cache"].get("size_bytes") is not None}
    # a curve's band label (inlined SVG) names its cache phase, also when the cache itself is only bounded
    caches |= {(fb(p["end_bytes"]), fr(p["mean_bps"])) for p in phases if p["kind"] == "slc_cache"}
    for m in re.finditer(r"SLC cache: \**(\S+ \S+?)\** at (\S+ \S+/s)", text):
        check(m.groups() in caches, f"{tag}: 'SLC cache: {m.group(1)} at {m.group(2)}' is a segment's cache")
    # the headline names the plan's main curve, which need not be the first segment
    for m in re.finditer(r"SLC cache \(host data written at cache speed\) \| (\S+ \S+) \|", text):
        check(m.group(1) in {c[0] for c in caches} or m.group(1) == "none seen",
              f"{tag}: headline cache {m.group(1)} is a segment's cache {caches}")
    for m in re.finditer(r"\| cache speed \| (?:\S+ IOPS \()?(\S+ \S+/s)\)? \|", text):
        check(m.group(1) in {c[1] for c in caches}, f"{tag}: headline cache speed {m.group(1)} is a segment's")
    recs = [sg["recovery"] for sg in segs_of(j).values() if sg.get("recovery")]
    for m in re.finditer(r"\| recovery after [^|]+ \| ([^|]+) \|", text):
        w = m.group(1)
        check_recovery_words(f"{tag} headline", w, {"cache": {"size_bytes": None}})
        check(any(fb(r["cache_bytes"]) in w and f"burst at {fr(r['burst_bps'])}" in w and
                  (r.get("cache_frac") is None or "at least" in w or pct(r["cache_frac"]) in w) for r in recs),
              f"{tag}: headline '{m.group(0)}' is a segment's recovery member")
    for line in text.splitlines():
        if "recovery:" in line:
            check_recovery_words(f"{tag} (any segment)", line, {"cache": {"size_bytes": None}})
    return len(found)


def check_experiments(tag, text, j):
    """The experiment modules' own lines, wherever they are printed."""
    for m in re.finditer(r"\bnan|\binf\b", text):
        check(False, f"{tag}: '{text[max(0, m.start() - 60):m.end() + 20]}' prints a non-number")
    ir = j.get("idle_recovery")
    if ir:
        m = re.search(r"idle recovery \(cache found after each wait\): (.*)", text)
        if check(m is not None or len(ir["points"]) <= 1, f"{tag}: idle recovery line"):
            items = [x.strip() for x in m.group(1).split(";") if x.strip()] if m else []
            for it, p in zip(items, ir["points"]):
                want_all = p["all_back"]
                if "all of the cache back" in it:
                    check(want_all and p["cache_frac"] >= 0.9, f"{tag}: '{it}' vs frac {p['cache_frac']}")
                    check(f"({fb(p['cache_bytes'])})" in it, f"{tag}: '{it}' vs {p['cache_bytes']}")
                elif "at least" not in it:
                    check(not want_all, f"{tag}: '{it}' but all_back in phases.json")
                    want = fb(p["cache_bytes"]) + ("" if p["cache_frac"] is None else
                                                   f" ({pct(p['cache_frac'])} of the fresh cache)")
                    check(it.endswith(want),
                          f"{tag}: '{it}' vs {p['cache_bytes']} B, {p['cache_frac']}")
                check(it.startswith(fdur(p["idle_s"]) + ":"), f"{tag}: '{it}' wait {p['idle_s']}")
            f = re.search(r"folding (?:about|at least) (\S+ \S+/s) \((\S+ \S+) per minute\)", text)
            if f and ir.get("fold_bps") is not None:
                check(f.groups() == (fr(ir["fold_bps"]), fb(ir["fold_bps"] * 60)),
                      f"{tag}: folding {f.groups()} vs {ir['fold_bps']}")
        for p in ir["points"]:
            if ir.get("fold_bps") is not None and p["all_back"] and not p["cache_at_least"]:
                check(ir["fold_bps"] * 1.02 >= p["cache_bytes"] * min(p["cache_frac"], 1.0) / p["idle_s"] or
                      ir.get("fold_at_least"),
                      f"{tag}: folding {ir['fold_bps']} B/s below {p['cache_bytes']} B back in {p['idle_s']} s")
        for p in ir["points"]:
            check(p["cache_frac"] is None or p["cache_frac"] <= 1.0, f"{tag}: idle recovery fraction over 100%: {p}")
    fl = j.get("fill_levels")
    if fl:
        m = re.search(r"cache by fill level: (.*)", text)
        if check(m is not None, f"{tag}: fill-levels line"):
            for e in fl:
                key = "after TRIM" if e["after_trim"] else f"{e['fill_pct']}%"
                want = fb(e["cache_bytes"]) if e["cache_bytes"] else "none"
                got = re.search(re.escape(key) + r" ((?:at least )?[^;]+);", m.group(1))
                check(got and got.group(1).endswith(want), f"{tag}: fill level {key}: '{got and got.group(1)}' "
                      f"vs {e['cache_bytes']}")
        for e in fl:
            seg = next((s for s in j.get("segments", []) if s.get("step") == e["step"]), None)
            if seg is None:
                continue
            c = seg.get("cache") or {}
            shows = bool(c.get("size_bytes")) or bool(c.get("bound")) or \
                bool(seg.get("phases") and seg["phases"][0]["kind"] == "slc_cache")
            check(bool(e["cache_bytes"]) or not shows,
                  f"{tag}: fill level {e['step']} has no cache while its burst shows one: {c}")
    cm = j.get("compressibility")
    if cm:
        m = re.search(r"compressibility: random data (\S+ \S+/s), repeating data (\S+ \S+/s): ([\d.]+)x", text)
        if check(m is not None, f"{tag}: compressibility line"):
            check(m.groups() == (fr(cm["random_bps"]), fr(cm["repeating_bps"]), f"{cm['ratio']:.2f}"),
                  f"{tag}: compressibility {m.groups()} vs {cm}")
    hir = j.get("host_idle_recovery")
    if hir:
        got = re.findall(r"wait (\S+ ?s): (\S+ IOPS)", text)
        check(len(got) >= len(hir), f"{tag}: hir waits {got}")
        for (w, iops), e in zip(got, hir):
            check(iops == fi(e["iops"]), f"{tag}: hir wait {w}: {iops} vs {e['iops']}")
    for e in j.get("trim_response") or []:
        if e["slow_frac"] is None:
            m = re.search(r"stalled ([\d.]+) s, then no slow reads against (\S+ \S+/s) \(slowest interval (\d+)%\)",
                          text)
            if check(m is not None, f"{tag}: trim-response line without slow reads"):
                check(m.groups() == (f"{e['stall_s']:.2f}", fr(e["baseline_bps"]), pct(e["min_frac"])[:-1]),
                      f"{tag}: trim-response {m.groups()} vs {e}")
            continue
        m = re.search(r"stalled ([\d.]+) s, then ([\d.]+) s at (\d+)% of (\S+ \S+/s) \(slowest interval (\d+)%\); "
                      r"longest read ([\d.]+) ms", text)
        if check(m is not None, f"{tag}: trim-response line"):
            check(m.groups()[:5] == (f"{e['stall_s']:.2f}", f"{e['slow_s']:.2f}", pct(e["slow_frac"])[:-1],
                                    fr(e["baseline_bps"]), pct(e["min_frac"])[:-1]),
                  f"{tag}: trim-response {m.groups()} vs {e}")
            check(m.group(6) == f"{e['max_latency_us'] / 1e3:.1f}", f"{tag}: longest read {m.group(6)} vs {e}")


def check_sweep(tag, text, j, md=False):
    n = 0
    for p in j.get("sweep") or []:
        step = p["step"].replace("_", "\\_") if md else p["step"]
        m = re.search(r"(?m)^\s*\|?\s*" + re.escape(step) + r"\s.*?([\d.]+)\s*\|?\s+([\d.]+)\s*\|?\s+(\d+)\s*\|?\s+"
                      r"(\d+)\s*\|?\s+([\d.]+|-)\s*\|?\s+([\d.]+|-)\s*\|?\s*$", text)
        if not check(m is not None, f"{tag}: sweep row {p['step']}"):
            continue
        n += 1

        def lat(v):
            return "-" if v is None else f"{v:.1f}"
        want = (f"{p['read_bps'] / mb():.1f}", f"{p['write_bps'] / mb():.1f}", f"{p['read_iops']:.0f}",
                f"{p['write_iops']:.0f}", lat(p["lat_mean_us"]), lat(p["lat_p99_us"]))
        check(m.groups() == want, f"{tag}: sweep row {p['step']}: {m.groups()} vs {want}")
        if p["lat_mean_us"] is not None and p["lat_p99_us"] is not None:
            check(p["lat_p99_us"] >= p["lat_mean_us"], f"{tag}: {p['step']} p99 {p['lat_p99_us']} us under the "
                  f"mean {p['lat_mean_us']} us")
    return n


def check_svgs(tag, d, j):
    segs = segs_of(j)
    for f in sorted(os.listdir(d)):
        if f.endswith(".svg"):
            for t in svg_texts(os.path.join(d, f)):
                check(not re.search(r"\bnan|\binf\b", t), f"{tag}: {f} '{t}' prints a non-number")
    for f in sorted(os.listdir(d)):
        m = re.fullmatch(r"curve-(\d+)-.*\.svg", f)
        if not m or int(m.group(1)) not in segs:
            continue
        s = segs[int(m.group(1))]
        ph = [q for p in s.get("phases", []) for q in jitter(p)]
        for t in svg_texts(os.path.join(d, f)):
            c = re.fullmatch(r"SLC cache(?: tier \d)?: (\S+ \S+) at (\S+ \S+)", t)
            if c:
                sp = c.group(2)
                ok = any(c.group(1) == fb(p["end_bytes"] - p["start_bytes"]) or c.group(1) == fb(p["end_bytes"])
                         for p in ph if p["kind"] == "slc_cache") and \
                    any(sp in (fr(p["mean_bps"]), fi(p.get("iops_mean"))) for p in ph if p["kind"] == "slc_cache")
                check(ok, f"{tag}: {f} '{t}' vs the segment's cache phases")
            c = re.fullmatch(r"([\w -]+): ([\d.]+ s)", t)
            if c:
                check(any(c.group(2) == dur_words(p["end_s"] - p["start_s"]) for p in ph),
                      f"{tag}: {f} '{t}' is a phase's length")
            c = re.fullmatch(r"([\w -]+): (\S+ (?:IOPS|\S+/s))", t)
            if c and not t.startswith("SLC"):
                check(any(c.group(2) in (fr(p["mean_bps"]), fi(p.get("iops_mean"))) for p in ph),
                      f"{tag}: {f} '{t}' is a phase's mean")
        for t in svg_texts(os.path.join(d, f)):
            for p in re.findall(r"(\d+)%", t):
                check(int(p) <= 100 or "full" in t, f"{tag}: {f} '{t}' over 100%")
    if os.path.exists(os.path.join(d, "recovery.svg")):
        for t in svg_texts(os.path.join(d, "recovery.svg")):
            for p in re.findall(r"(\d+)%", t):
                check(int(p) <= 100, f"{tag}: recovery.svg '{t}' over 100%")


def one(tag, src, plan=None):
    global passed
    before = passed + failed
    look = ["--binary"] if BIN else []
    con = run("analyze", src, *look)
    js = run("analyze", "--json", src)
    d = os.path.join(tmp, tag)
    rep = run("report", src, "-o", d, *look)
    if not check(con.returncode == 0 and js.returncode == 0 and rep.returncode == 0, f"{tag}: analyze and report"):
        return
    j = json.loads(js.stdout)
    jr = json.load(open(os.path.join(d, "phases.json")))
    check(json.dumps(j, sort_keys=True) == json.dumps(jr, sort_keys=True) or
          json.dumps({k: v for k, v in j.items() if k != "source"}, sort_keys=True) ==
          json.dumps({k: v for k, v in jr.items() if k != "source"}, sort_keys=True),
          f"{tag}: analyze --json and the report's phases.json the same")
    check_console(tag, con.stdout, j)
    check_experiments(tag + " console", con.stdout, j)
    check_sweep(tag + " console", con.stdout, j)
    md = open(os.path.join(d, "summary.md"), encoding="utf-8").read()
    ht = html_text(os.path.join(d, "index.html"))
    nmd = check_report_text(tag + " summary.md", md, j)
    nht = check_report_text(tag + " index.html", ht, j)
    check(nmd == nht, f"{tag}: summary.md and index.html show as many phase rows ({nmd}, {nht})")
    check(nmd >= len(all_phases(j)) // 2 or not all_phases(j), f"{tag}: phase rows found ({nmd})")
    check_experiments(tag + " summary.md", md, j)
    check_experiments(tag + " index.html", ht, j)
    check_sweep(tag + " summary.md", md, j, md=True)
    check_sweep(tag + " index.html", ht, j)
    check_svgs(tag, d, j)
    check_bar_charts(tag, d, j)
    if plan:
        m = re.search(r"Plan: ([^.]+)\.", md)
        check(m and m.group(1) in (plan, "lab (the default)" if plan == "lab" else plan),
              f"{tag}: summary.md names the plan run: {m and m.group(1)}")
    print(f"{tag}: {passed + failed - before} checks")


t0 = time.time()
for preset in PRESETS:
    for plan in PLANS:
        h5 = os.path.join(tmp, f"{preset}-{plan}.h5")
        p = run("run", f"sim:{preset}", "-p", plan, "-o", h5, *SHORT)
        if check(p.returncode == 0, f"{preset} {plan}: run"):
            one(f"{preset}-{plan}", h5, plan)
for src in IMPORTS:
    one(os.path.basename(src), src)
# a main curve and 300 recovery bursts: each burst's recovery stated on the console and in
# phases.json, and the recovery figure's bars among them
if writer:
    h5 = os.path.join(tmp, "bursts.h5")
    if check(subprocess.run([writer, h5, "bursts", "300"]).returncode == 0, "trace_writer bursts"):
        con, js = run("analyze", h5), run("analyze", "--json", h5)
        j = json.loads(js.stdout) if js.returncode == 0 else {}
        recs = [s["recovery"] for s in segs_of(j).values() if s.get("recovery")]
        lines = re.findall(r"(?m)^  recovery: .*$", con.stdout)
        check(len(recs) == 300 and len(lines) == 300, f"300 bursts: {len(recs)} recoveries in phases.json, "
              f"{len(lines)} on the console")
        for line, r in zip(lines, recs):
            check_recovery_member("bursts", line, r)
        svg = os.path.join(tmp, "bursts-recovery.svg")
        if check(run("plot", h5, "--kind", "recovery", "-o", svg).returncode == 0, "bursts: recovery figure"):
            t = svg_texts(svg)
            caches = [0.0] + [r["cache_bytes"] for r in recs] + [s["cache"]["size_bytes"] for s in segs_of(j).values()
                                                               if (s.get("cache") or {}).get("size_bytes")]
            got = bars(t, "SLC cache found (GB)")
            check(len(got) >= 2 and all(any(near(v, x / 1e9) for x in caches) for _, v in got),
                  f"bursts: recovery.svg bars {got[:4]} are caches found")

# the same words and figures in binary units, on the plans with bar charts, a sweep and an import
BIN = True
for plan in ["lab", "fill-levels", "compress", "idle-sweep", "qd-sweep"]:
    h5 = os.path.join(tmp, f"{PRESETS[0]}-{plan}.h5")
    if os.path.exists(h5):
        one(f"{PRESETS[0]}-{plan} --binary", h5, plan)
one(os.path.basename(IMPORTS[0]) + " --binary", IMPORTS[0])

print(f"{passed} passed, {failed} failed in {time.time() - t0:.0f} s")
shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if failed else 0)

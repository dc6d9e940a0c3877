#!/usr/bin/env python3
"""The docs and the command agree: every command of 'slcscope --help' and
every option of each command ('slcscope help --options CMD') is named in
README.md or docs/*.md, and every --option the docs name is one of
slcscope's or of a tool listed in FOREIGN (the tools the docs show beside
slcscope).  The man pages are made from the same tables as --help
(tests/help), so they cannot drift.

usage: scripts/check_docs.py SLCSCOPE SOURCE_DIR    exit 1 and a list on failure
"""
import glob
import os
import re
import subprocess
import sys

# options of other tools the docs show, with the tool
FOREIGN = {
    "--cflags": "pkg-config", "--libs": "pkg-config", "--static": "pkg-config",
    "--direct-io": "losetup", "--show": "losetup", "--find": "losetup",
    "--long": "zstd", "--save": "skdump",
    "--output-format": "fio", "--status-interval": "fio", "--output": "fio", "--write_bw_log": "fio",
    "--write_iops_log": "fio", "--write_lat_log": "fio", "--log_avg_msec": "fio", "--log_offset": "fio",
    "--per-point": "bench/sweeps.sh",
    "--no-build": "scripts/setup.sh", "--no-install": "scripts/setup.sh", "--quick": "scripts/test.sh",
    "--install": "cmake", "--test-dir": "ctest",
    "--exported-interfaces-only": "abidw", "--no-undefined": "ld",
    "--man": "slcscope help", "--completion": "slcscope help", "--options": "slcscope help",
    "--version": "slcscope", "--help": "slcscope",
    "--no-show-locs": "abidw",
    "--sqthread_poll": "fio",
}
OPT_RE = re.compile(r"(?<![\w-])--[a-z][a-z0-9_-]*")


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, check=True).stdout


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    binary, root = argv[1], argv[2]
    top = run(binary, "--help")
    block = top.split("Commands:", 1)[1].split("\n\n", 1)[0]
    cmds = [line.split()[0] for line in block.splitlines() if line.strip()]
    docs = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    text = {d: open(d, encoding="utf-8").read() for d in docs}
    alltext = "\n".join(text.values())
    ours = set()
    bad = []
    for c in cmds:
        if not re.search(r"slcscope %s\b" % re.escape(c), alltext):
            bad.append(f"command '{c}' is named nowhere in README.md or docs/ as 'slcscope {c}'")
        for o in run(binary, "help", "--options", c).split():
            ours.add(o)
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), alltext):
                bad.append(f"{c} {o} is named nowhere in README.md or docs/")
    for d, t in text.items():
        for m in OPT_RE.finditer(t):
            o = m.group(0)
            if o not in ours and o not in FOREIGN:
                line = t.count("\n", 0, m.start()) + 1
                bad.append(f"{os.path.relpath(d, root)}:{line}: {o} is no option of slcscope (nor of a tool in FOREIGN)")
    for b in sorted(set(bad)):
        print(b)
    print(f"check_docs: {len(cmds)} commands, {len(ours)} options, {len(docs)} documents; {len(set(bad))} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

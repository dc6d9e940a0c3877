#!/usr/bin/env python3
"""Each plan lives in one module: its name as a string literal appears in
exactly one source file, the module under session/exp/ that defines it
(`.name = "..."`); the registry refers to modules by symbol only.

Words that happen to equal a plan's name in another vocabulary are listed
in ALLOWED with the reason.

usage: scripts/check_plans.py [SOURCE_DIR]    exit 1 and a list on failure
"""
import os
import re
import sys

DIRS = ["core", "probes", "analysis", "plot", "session", "emulate", "cli", "lab"]
# file -> literals that are not plan names there
ALLOWED = {
    # 'slcscope sim --workload seq|rand': the simulator's two writers
    os.path.join("cli", "cmd_sim.c"): {"seq", "rand"},
    # 'slcscope lab': the lab database command, and run's --lab option that adds to it
    os.path.join("cli", "cmd_lab.c"): {"lab"},
    os.path.join("cli", "cmd_run.c"): {"lab"},
}
NAME_RE = re.compile(r'\.name\s*=\s*"([^"]+)"')


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    exp_dir = os.path.join(root, "session", "exp")
    modules = {}
    for f in sorted(os.listdir(exp_dir)):
        if f.endswith(".c"):
            for m in NAME_RE.finditer(open(os.path.join(exp_dir, f), encoding="utf-8").read()):
                modules[m.group(1)] = os.path.join("session", "exp", f)
    if len(modules) < 2:
        print("check_plans: no experiment modules found under session/exp/")
        return 1
    found = {n: set() for n in modules}
    for top in DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for f in sorted(filenames):
                if not f.endswith((".c", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), root)
                text = open(os.path.join(dirpath, f), encoding="utf-8", errors="replace").read()
                for n in modules:
                    if f'"{n}"' in text and n not in ALLOWED.get(rel, ()):
                        found[n].add(rel)
    bad = 0
    for n, files in sorted(found.items()):
        if files != {modules[n]}:
            bad += 1
            others = sorted(files - {modules[n]})
            print(f'plan "{n}": named in {", ".join(others) or "no file"} besides its module {modules[n]}')
    print(f"check_plans: {len(modules)} plans, {bad} named outside their module")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

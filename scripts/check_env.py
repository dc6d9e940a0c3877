#!/usr/bin/env python3
"""The environment variables slcscope reads are the ones docs/security.md
lists: every getenv() and secure_getenv() in the libraries and the command
names a variable of ALLOWED.  A new one must not load code or change a
safety check; add it here and to docs/security.md with its reason.

usage: scripts/check_env.py [SOURCE_DIR]    exit 1 and a list on failure
"""
import os
import re
import sys

DIRS = ["core", "probes", "analysis", "plot", "session", "emulate", "lab", "cli"]
ALLOWED = {
    "HOME": "the default lab's path",
    "XDG_DATA_HOME": "the default lab's directory",
    "TMPDIR": "the emulated drive's data file",
}
GETENV_RE = re.compile(r'\b(?:secure_)?getenv\s*\(\s*("([^"]*)")?')


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    bad = []
    for top in DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for f in sorted(filenames):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                    for m in GETENV_RE.finditer(line):
                        name = m.group(2)
                        if name not in ALLOWED:
                            bad.append(f"{os.path.relpath(path, root)}:{n}: getenv({name or 'a variable'}) "
                                       "is not in docs/security.md")
    for b in bad:
        print(b)
    print(f"check_env: {len(bad)} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

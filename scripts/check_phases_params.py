#!/usr/bin/env python3
"""The phase model's thresholds and priors live in struct slc_model_params
(analysis/phases/params.c: the defaults and where each comes from), not in
macros: a #define under analysis/phases/ must be on ALLOWED with the reason.

usage: scripts/check_phases_params.py [SOURCE_DIR]    exit 1 and a list on failure
"""
import os
import re
import sys

# file -> macro names that are no threshold there
ALLOWED = {
    # the include guard
    "phases_priv.h": {"SLC_PHASES_PRIV_H"},
    # the element count of a table
    "names.c": {"COUNT"},
}
DEFINE_RE = re.compile(r"^\s*#\s*define\s+(\w+)")


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    top = os.path.join(root, "analysis", "phases")
    if not os.path.isdir(top):
        print("check_phases_params: no analysis/phases/ under %s" % root)
        return 1
    bad = []
    for f in sorted(os.listdir(top)):
        if not f.endswith((".c", ".h")):
            continue
        with open(os.path.join(top, f), encoding="utf-8") as fh:
            for no, line in enumerate(fh, 1):
                m = DEFINE_RE.match(line)
                if m and m.group(1) not in ALLOWED.get(f, set()):
                    bad.append("analysis/phases/%s:%d: #define %s: a threshold belongs in struct "
                               "slc_model_params (params.c)" % (f, no, m.group(1)))
    for b in bad:
        print(b)
    if bad:
        print("check_phases_params: %d #define(s) not on the allow-list" % len(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

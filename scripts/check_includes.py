#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the include graph of slcscope's sources.

Reads the '#include "..."' lines of every .c and .h under core/, probes/,
analysis/, cli/, emulate/, session/ and lab/ (those that exist), resolves each one
relative to the including file, then in the include/ directory of every
library, and fails when

  - headers include each other in a cycle;
  - in a library (everything but cli/), two modules include each other's
    headers, directly or around a longer loop.  A module is a .c file and
    the .h of the same name beside it (writer.c + writer.h), so such a loop
    is a pair of sources that depend on each other even though no header
    includes itself back.  In cli/ such loops are printed as warnings;
  - a library includes a header of a layer above it: core/ includes only
    core/ headers, and nothing but cli/ includes cli/ headers.

Usage: scripts/check_includes.py [SOURCE_DIR]   (default: the repository)
Exit status: 0 clean (warnings allowed), 1 a cycle or a layer violation (printed), 2 usage.
"""
import os
import re
import sys

DIRS = ["core", "probes", "analysis", "plot", "cli", "emulate", "session", "lab", "helpgen"]

# Top-level directories each one must not include headers from.
FORBIDDEN = {
    "core": {"probes", "analysis", "plot", "cli", "emulate", "session", "lab"},
    "probes": {"cli"},
    # numbers in, numbers out: the analysis draws nothing
    "analysis": {"plot", "cli", "emulate", "session", "probes", "lab"},
    # the drawing library knows plot specs only
    "plot": {"core", "probes", "analysis", "cli", "emulate", "session", "lab"},
    "emulate": {"cli"},
    "session": {"cli", "lab"},
    # the lab stores what the session computes; nothing below it knows it
    "lab": {"cli", "emulate"},
    # formatting of the command line's descriptions, knowing no command
    "helpgen": {"core", "probes", "analysis", "plot", "cli", "emulate", "session", "lab"},
}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SYSTEM_RE = re.compile(r'^\s*#\s*include\s+<([^>]+)>')

# System headers only one top-level directory may include: cairo draws, and
# only the plotting library draws.
OWNED_SYSTEM = {"cairo": "plot", "sqlite3": "lab", "libpq": "lab"}


def sources(root):
    for top in DIRS:
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def include_dirs(root):
    return [os.path.join(top, "include") for top in DIRS if os.path.isdir(os.path.join(root, top, "include"))]


def resolve(root, including, target, incdirs):
    for d in [os.path.dirname(including)] + incdirs:
        p = os.path.normpath(os.path.join(d, target))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None


def module(path):
    """foo.c and foo.h in the same directory are one node."""
    return os.path.splitext(path)[0]


def cycles(graph):
    """Each loop of @graph as a list of nodes (first == last), one per strongly connected part."""
    index, low, on_stack, stack, parts = {}, {}, set(), [], []
    counter = [0]

    def strongconnect(v):
        # iterative Tarjan: (node, iterator over its successors)
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    part.append(w)
                    if w == node:
                        break
                if len(part) > 1 or node in graph.get(node, ()):
                    parts.append(set(part))

    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    return [loop_in(graph, part) for part in parts]


def loop_in(graph, part):
    """A shortest loop through the first node of a strongly connected @part."""
    start = min(part)
    prev, queue = {start: None}, [start]
    for node in queue:
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                path = [node]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if nxt in part and nxt not in prev:
                prev[nxt] = node
                queue.append(nxt)
    return [start, start]


def main(argv):
    if len(argv) > 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(__file__), ".."))
    incdirs = include_dirs(root)
    files = list(sources(root))
    if not files:
        print(f"check_includes: no sources under {root}", file=sys.stderr)
        return 2

    files_graph = {}    # file -> set of files
    mod_graph = {}      # module -> set of modules
    edge_line = {}      # (from, to) -> "file:line includes header", for files and modules
    layer_errors = []
    for f in files:
        files_graph.setdefault(f, set())
        mod_graph.setdefault(module(f), set())
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                sm = SYSTEM_RE.match(line)
                if sm:
                    owner = OWNED_SYSTEM.get(sm.group(1).split("/")[0].split("-")[0].split(".")[0])
                    if owner and top(f) != owner:
                        layer_errors.append(f"{f}:{lineno}: only {owner}/ includes <{sm.group(1)}>")
                    continue
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                hdr = resolve(root, f, m.group(1), incdirs)
                if hdr is None:
                    continue    # a system or generated header: not part of the graph
                src_top, hdr_top = top(f), top(hdr)
                if hdr_top in FORBIDDEN.get(src_top, ()):
                    layer_errors.append(f"{f}:{lineno}: {src_top}/ must not include {hdr_top}/ headers: {hdr}")
                where = f"{f}:{lineno} includes {hdr}"
                files_graph[f].add(hdr)
                edge_line.setdefault((f, hdr), where)
                a, b = module(f), module(hdr)
                if a != b:
                    mod_graph[a].add(b)
                    edge_line.setdefault((a, b), where)

    rc = 0
    seen = set()
    for loop in cycles(files_graph):
        rc = 1
        report("include cycle", loop, edge_line)
        seen.add(frozenset(module(f) for f in loop))
    for loop in cycles(mod_graph):
        if frozenset(loop) in seen:
            continue    # the same loop of headers, printed above
        if all(top(n) == "cli" for n in loop):
            report("warning: modules include each other", loop, edge_line)
            continue
        rc = 1
        report("modules include each other", loop, edge_line)
    for e in layer_errors:
        rc = 1
        print("layer violation: " + e)
    if rc == 0:
        print(f"check_includes: {len(files)} files, no include cycle, no module loop in the libraries, "
              "no layer violation")
    return rc


def top(path):
    return path.split(os.sep)[0]


def report(what, loop, edge_line):
    print(f"{what}: " + " -> ".join(loop))
    for a, b in zip(loop, loop[1:]):
        print(f"  {edge_line[(a, b)]}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Layout rules the project keeps, checked from the sources.

 - no C function over 120 lines (from its signature line to its closing
   brace), generated code (the build tree) aside;
 - cli/ at most 2,300 lines in all (ten commands, about 230 lines each
   with their help tables, and the shared parsing): it parses options,
   prints and picks exit codes, the libraries do the rest.

usage: scripts/check_functions.py [SOURCE_DIR]    exit 1 and a list on failure
"""
import os
import re
import sys

MAX_FUNCTION_LINES = 120
MAX_CLI_LINES = 2300
SKIP_DIRS = {".git", "build", "build-asan"}


def strip_code(text):
    """Blank comments, strings and character literals, keeping line breaks."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """(name, first line, length) of every function body at file scope."""
    lines = strip_code(open(path, encoding="utf-8", errors="replace").read()).split("\n")
    depth, start, name, found = 0, None, None, []
    for i, line in enumerate(lines):
        for ch in line:
            if ch == "{":
                if depth == 0:
                    # a function body opens at file scope after ')' (possibly on an earlier line)
                    head = " ".join(lines[max(0, i - 6):i + 1])
                    head = head[:head.rfind("{")]
                    m = re.search(r"(\w+)\s*\([^;{}]*\)\s*(__attribute__\s*\(\(.*\)\))?\s*$", head)
                    if m and not re.search(r"=\s*$", head) and m.group(1) not in ("if", "for", "while", "switch"):
                        # the signature's first line: walk back to the line holding the name
                        j = i
                        while j > 0 and not re.search(r"\b%s\s*\(" % re.escape(m.group(1)), lines[j]):
                            j -= 1
                        start, name = j, m.group(1)
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0 and start is not None:
                    found.append((name, start + 1, i - start + 1))
                    start = None
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    bad = []
    cli_lines = 0
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("build"))
        for f in sorted(files):
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)
            if rel.split(os.sep)[0] == "cli":
                cli_lines += sum(1 for _ in open(p, encoding="utf-8", errors="replace"))
            if not f.endswith(".c"):
                continue
            for name, line, length in functions(p):
                if length > MAX_FUNCTION_LINES:
                    bad.append(f"{rel}:{line}: {name}() is {length} lines (at most {MAX_FUNCTION_LINES})")
    if cli_lines > MAX_CLI_LINES:
        bad.append(f"cli/: {cli_lines} lines in all (at most {MAX_CLI_LINES}): move library logic out")
    for b in bad:
        print(b)
    print(f"check_functions: cli/ {cli_lines} lines; {len(bad)} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

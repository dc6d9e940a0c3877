#!/bin/bash
# The run_report example (public API only) gives the same phases.json and
# summary.md as 'slcscope run ... --report DIR' with the same plan.
set -u
bin=$1 example=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/example_report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir "$tmp/cli" "$tmp/api"
(cd "$tmp/cli" && "$bin" run sim:tiny-tlc --plan lab --interval 500ms -o trace.h5 --report r --quiet) ||
	{ echo "FAIL: slcscope run"; exit 1; }
(cd "$tmp/api" && "$example" sim:tiny-tlc lab 500ms trace.h5 r >/dev/null) || { echo "FAIL: run_report"; exit 1; }
# summary.md states when and how each run was started (date, command line): those lines differ by nature
for f in phases.json summary.md phases.csv; do
	if cmp -s <(grep -v '^Plan: \|^Command line: ' "$tmp/cli/r/$f") <(grep -v '^Plan: \|^Command line: ' "$tmp/api/r/$f"); then
		echo "ok: $f is the same"
	else
		echo "FAIL: $f differs"; diff "$tmp/cli/r/$f" "$tmp/api/r/$f" | head -20; fail=1
	fi
done
# the comparison can fail: the report says something about the drive
grep -q '"cache"' "$tmp/api/r/phases.json" || { echo "FAIL: no cache in phases.json"; fail=1; }
exit $fail

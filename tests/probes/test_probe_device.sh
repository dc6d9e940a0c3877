#!/usr/bin/env bash
# slcscope probe against a real drive named by SLCSCOPE_TEST_DEVICE (e.g.
# /dev/nvme0n1 or /dev/sda).  Read-only: nothing is written.  Skips (77)
# when the variable is unset.
set -u
bin=$1
dev=${SLCSCOPE_TEST_DEVICE:-}
[ -n "$dev" ] || { echo "SKIP: set SLCSCOPE_TEST_DEVICE=/dev/... to probe a real drive"; exit 77; }
[ -b "$dev" ] || [ -c "$dev" ] || { echo "FAIL: SLCSCOPE_TEST_DEVICE=$dev is not a device"; exit 1; }
out=$(mktemp "${TMPDIR:-/tmp}/slcscope-probe-dev.XXXXXX")
trap 'rm -f "$out"' EXIT
"$bin" probe --json "$dev" >"$out" || { echo "FAIL: slcscope probe $dev exited $?"; exit 1; }
/usr/bin/python3 - "$out" "$dev" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
i, h = d["identity"], d["health"]
print("probed %s: %s %s (%s, via %s), %s bytes" % (sys.argv[2], i["model"], i["firmware"], i["interface"],
      i["source"], i["capacity_bytes"]))
assert i["capacity_bytes"] and i["capacity_bytes"] > 0, i
assert i["logical_block_bytes"] in (512, 4096), i
if i["source"] in ("nvme", "ata"):
    # a drive answered its own identify: model and serial come from it
    assert i["model"] and i["serial"] and i["firmware"], i
    assert h["has_smart"] is True, h
    assert h["temp_c"] is None or -40 < h["temp_c"] < 125, h
    assert h["host_write_bytes"] is None or h["host_write_bytes"] >= 0, h
    if i["source"] == "nvme":
        assert i["nvme"]["nsid"] >= 1 and i["nvme"]["lba_formats"], i
        assert h["available_spare"] is not None and h["percentage_used"] is not None, h
else:
    assert h["has_smart"] is False and h["no_smart_reason"], h
print("ok")
PY

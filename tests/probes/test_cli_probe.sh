#!/usr/bin/env bash
# slcscope probe, and the probes inside a run: identity and health snapshots,
# temperature readings, write amplification and throttling in the analysis.
# The loop-device part needs root; the rest runs anywhere.
set -u
bin=$1
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-probe.XXXXXX")
loop=
cleanup() { [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fails=0 passes=0
ok() { passes=$((passes+1)); echo "ok: $*"; }
bad() { fails=$((fails+1)); echo "FAIL: $*"; }

# usage and errors: one line, the right exit status
"$bin" probe >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q "give exactly one DEVICE" "$tmp/err" && ok "no device: usage, exit 2" || bad "no device: rc $rc"
"$bin" probe -h | grep -q "^Usage: slcscope probe" && ok "--help" || bad "--help"
"$bin" probe /nonexistent/dev 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "/nonexistent/dev: No such file" "$tmp/err" \
	&& ok "missing device: one line, exit 1" || bad "missing device: rc $rc $(cat "$tmp/err")"
"$bin" probe sim:no-such-model 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && ok "unknown model: one line, exit 1" || bad "unknown model: rc $rc"

# the simulated drive reports its counters through the same interface
"$bin" probe --json sim:thermal-nvme >"$tmp/sim.json" || bad "probe sim"
$py - "$tmp/sim.json" <<'PY' && ok "sim probe JSON" || bad "sim probe JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "slcscope.probe/1"
i, h = d["identity"], d["health"]
assert i["source"] == "sim" and i["capacity_bytes"] == 8 * 2**30, i
assert h["has_smart"] is True and h["host_write_bytes"] == 0 and h["nand_write_bytes"] == 0, h
assert h["warn_temp_c"] == 70 and h["temp_c"] < 70, h
assert h["power_on_hours"] is None          # unknown is null, not 0
PY
"$bin" probe sim:thermal-nvme | grep -q "warning temperature *70 C" && ok "sim probe text" || bad "sim probe text"

# a regular file: the facts of its filesystem's device, no SMART, exit 0
truncate -s 10M "$tmp/f.img"
"$bin" probe "$tmp/f.img" >"$tmp/f.txt"; rc=$?
[ $rc = 0 ] && grep -q "a regular file has no SMART" "$tmp/f.txt" && grep -q "10.5 MB" "$tmp/f.txt" \
	&& ok "file: no SMART, exit 0" || bad "file: rc $rc $(cat "$tmp/f.txt")"

# a saved libatasmart blob (canned: testdata/probes/ata, built field by field)
src=$(cd "$(dirname "$0")/../.." && pwd)
"$bin" probe --json --ata-blob "$src/testdata/probes/ata/samsung_pm871_tlc.blob" >"$tmp/blob.json" || bad "probe --ata-blob"
$py - "$tmp/blob.json" <<'PY' && ok "--ata-blob: identity, counters, attributes" || bad "--ata-blob JSON"
import json, sys
d = json.load(open(sys.argv[1]))
i, h = d["identity"], d["health"]
assert i["source"] == "ata" and i["model"] == "SAMSUNG MZ7LN256HMJP-000L7" and i["trim_supported"] is True, i
assert h["has_smart"] and h["nand_write_bytes"] > h["host_write_bytes"] > 0, h
assert any(a["id"] == 241 and a["name"] == "total-lbas-written" for a in h["attributes"]), h["attributes"]
PY
"$bin" probe --ata-blob "$0" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "unknown record tag" "$tmp/err" \
	&& ok "--ata-blob of a non-blob: one line, exit 1" || bad "--ata-blob bad: rc $rc $(cat "$tmp/err")"

# a run keeps the identity and a health snapshot before and after every step;
# the thermal drive throttles during its sequential fill
"$bin" run sim:thermal-nvme --plan seq --trim-wait 1s -i 10ms -o "$tmp/t.h5" --quiet || bad "run thermal-nvme"
"$bin" export --json "$tmp/t.h5" >"$tmp/t.json"
"$bin" analyze --json "$tmp/t.h5" >"$tmp/a.json"
$py - "$tmp/t.json" "$tmp/a.json" <<'PY' && ok "snapshots, readings, write amplification, throttling" || bad "run with probes"
import json, sys
t = json.load(open(sys.argv[1])); a = json.load(open(sys.argv[2]))
snaps = t["device_snapshots"]
kinds = [(s["kind"], s["segment"]) for s in snaps]
assert kinds == [("identity", -1), ("health_before", 0), ("health_after", 0),
                 ("health_before", 1), ("health_after", 1)], kinds
after = snaps[-1]["data"]["health"]
assert after["host_write_bytes"] == 8 * 2**30, after        # one capacity written
assert after["thm_transitions"][0] >= 1, after
fill = t["segments"][1]
temps = [s for s in fill["samples"]["temp_c"] if s is not None] if isinstance(fill.get("samples"), dict) else None
seg = a["segments"][0]
d = seg["drive"]
assert abs(d["write_amplification"] - 1.0) < 0.01, d        # a sequential fill: no GC
assert d["temp_readings"] > 100 and d["warn_temp_c"] == 70, d
# the throttled stretch is found where the drive throttled
on = [e["t_s"] for e in fill["events"] if e["kind"] == "throttle_on"]
off = [e["t_s"] for e in fill["events"] if e["kind"] == "throttle_off"]
thr = [p for p in seg["phases"] if p["kind"] == "throttled"]
assert on and thr, (on, [p["kind"] for p in seg["phases"]])
assert abs(thr[0]["start_s"] - on[0]) < 0.03 and abs(thr[0]["end_s"] - off[0]) < 0.03, (thr[0], on, off)
assert all(p["write_amplification"] is not None for p in seg["phases"])
assert a["cache"]["slc_flash_bytes_est"] is not None
PY

# --purge on a simulated drive: a TRIM, recorded
"$bin" run sim:tiny-tlc --plan seq --seq-bytes 64MiB --trim-wait 0 --purge -o "$tmp/p.h5" --quiet 2>"$tmp/err" || bad "run --purge: $(cat "$tmp/err")"
"$bin" export --json "$tmp/p.h5" | $py -c '
import json, sys
d = json.load(sys.stdin)
p = [s for s in d["device_snapshots"] if s["kind"] == "purge"]
assert len(p) == 1 and p[0]["data"]["method"] == "trim", p' && ok "--purge recorded (trim)" || bad "--purge not recorded"
"$bin" run sim:tiny-tlc --purge --no-probe -o "$tmp/q.h5" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && ok "--purge with --no-probe refused" || bad "--purge --no-probe: rc $rc"
# a null: target has no drive to purge: a refusal, not a crash
"$bin" run null:1G --plan seq --purge -o "$tmp/n.h5" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q 'no drive to purge' "$tmp/err" && ok "--purge on null: refused" || bad "--purge on null: rc $rc: $(cat "$tmp/err")"

# a loop device: sysfs facts, "no SMART", and a run that says so
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	truncate -s 64M "$tmp/disk.img"
	if loop=$(losetup -f --show "$tmp/disk.img"); then
		"$bin" probe --json "$loop" >"$tmp/l.json"; rc=$?
		$py - "$tmp/l.json" "$loop" <<'PY' && [ $rc = 0 ] && ok "loop device: sysfs, no SMART" || bad "loop probe rc $rc"
import json, sys
d = json.load(open(sys.argv[1]))
i, h = d["identity"], d["health"]
assert i["source"] == "sysfs" and i["interface"] == "loop", i
assert i["kernel_name"] == sys.argv[2].split("/")[-1] and i["capacity_bytes"] == 64 * 2**20, i
assert h["has_smart"] is False and "loop" in h["no_smart_reason"], h
PY
		"$bin" run "$loop" --destructive --plan seq --seq-bytes 8MiB --trim-wait 0 -o "$tmp/l.h5" 2>"$tmp/err" >/dev/null
		grep -q "no SMART on this device (loop)" "$tmp/err" && ok "run on a loop device says there is no SMART" \
			|| bad "loop run: $(cat "$tmp/err")"
		"$bin" run "$loop" --destructive --plan seq --seq-bytes 8MiB --trim-wait 0 --purge -o "$tmp/l2.h5" --quiet \
			&& "$bin" export --json "$tmp/l2.h5" | grep -q '"method": "trim"' \
			&& ok "--purge on a loop device: whole-device TRIM" || bad "--purge on a loop device"
	fi
else
	echo "note: loop-device part skipped (needs root and losetup)"
fi

echo "$passes passed, $fails failed"
[ $fails = 0 ]

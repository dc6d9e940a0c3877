#!/usr/bin/env bash
# The NVMe backend on a real drive, read-only: identity, SMART / health,
# temperature and the purge method it would choose.  Nothing is written.
#   SLCSCOPE_TEST_NVME=/dev/nvme0n1 real_nvme.sh NVME_GUEST_BINARY
# Skips (77) when SLCSCOPE_TEST_NVME names no device.  Needs root (NVMe
# admin commands).
set -euo pipefail
guest_bin=$1
dev=${SLCSCOPE_TEST_NVME:-}
[ -n "$dev" ] || { echo "SKIP: set SLCSCOPE_TEST_NVME to an NVMe device (read-only test)"; exit 77; }
[ -e "$dev" ] || { echo "FAIL: $dev does not exist"; exit 1; }
out=$("$guest_bin" --read-only "$dev") || true   # a failed attach is reported below
echo "$out"
val() { printf '%s\n' "$out" | sed -n "/^slc: $1=/{s/^slc: $1=//p;q}"; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$(val attach_rc)" = 0 ] || fail "attach: $(val attach_err)"
[ -n "$(val model)" ] || fail "no model"
[ -n "$(val serial)" ] || fail "no serial"
[ -n "$(val firmware)" ] || fail "no firmware"
[ "$(val before_rc)" = 0 ] || fail "health: $(val before_err)"
[ "$(val before_has_smart)" = 1 ] || fail "no SMART"
[ "$(val before_nand_unknown)" = 1 ] || fail "NAND writes should be unknown on NVMe"
t=$(val before_temp_c)
[ "$t" -gt -40 ] && [ "$t" -lt 130 ] || fail "temperature $t C"
[ "$(val before_host_write_bytes)" -gt 0 ] || fail "no host writes counted"
case "$(val purge_method)" in sanitize-*|format-*|trim) ;; *) fail "purge method '$(val purge_method)'" ;; esac
[ "$(val done)" = 1 ] || fail "the program stopped early"
echo "PASS"

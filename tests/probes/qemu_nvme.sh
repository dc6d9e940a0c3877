#!/usr/bin/env bash
# The NVMe backend against QEMU's emulated NVMe controller in a guest.
#   qemu_nvme.sh NVME_GUEST_BINARY
# Boots a Debian kernel with an initramfs of busybox, the guest program and
# the libraries it and libnvme load (qemu_lib.sh); the guest program prints
# "slc: key=value" lines, checked here.  Skips (77) without
# qemu-system-x86_64, a kernel with NVMe built in, a static busybox or cpio.
# Under TCG (the default) it takes about ten seconds here.
set -euo pipefail

guest_bin=$1
. "$(dirname "$0")/qemu_lib.sh"
qemu_find
qemu_workdir qemu-nvme

# The program, libnvme (loaded with dlopen) and every library either needs.
cp "$guest_bin" "$root/nvme_guest"
copy_with_libs "$guest_bin"
libnvme=$(ldconfig -p | awk '/libnvme\.so\.1 .*x86-64/ && !found {print $NF; found = 1}')
[ -n "$libnvme" ] || fail "libnvme.so.1 not found on the host"
copy_with_libs "$libnvme"

{ qemu_init_head; cat <<'EOF'; } > "$root/init"
/nvme_guest /dev/nvme0n1 /dev/nvme0 /dev/null
echo "slc: guest_exit=$?"
poweroff -f
EOF
chmod +x "$root/init"

disk=$work/disk.img
truncate -s 256M "$disk"
qemu_boot 240 512 "" \
	-drive "file=$disk,if=none,id=nvm,format=raw" \
	-device "nvme,serial=SLCQEMU0001,drive=nvm"
[ "$(val guest)" = up ] || { tail -40 "$out.txt"; fail "the guest did not start"; }
grep 'slc: ' "$out.txt"

check attach_rc 0
check model "QEMU NVMe Ctrl"
check serial SLCQEMU0001
check pci_vendor 0x1b36
check nsid 1
check capacity_bytes $((256 << 20))
check logical_block_bytes 512
check volatile_write_cache 1
check format_nvm 1
case "$(val link)" in "PCIe "*" GT/s x"*) ;; *) fail "link '$(val link)'" ;; esac
check before_rc 0
check before_has_smart 1
check before_nand_unknown 1
check write_rc 0
check written_zero 0
check after_rc 0
check temperature_rc 0
[ -n "$(val nvme_version)" ] || fail "no NVMe version"
[ "$(val n_lba_formats)" -ge 1 ] || fail "no LBA format"
[ "$(val lbaf_in_use)" = "0:512" ] || fail "in-use LBA format $(val lbaf_in_use)"
# WCTEMP/CCTEMP and the composite temperature are sane Celsius values
for k in before_temp_c before_warn_temp_c before_crit_temp_c; do
	v=$(val $k)
	[ "$v" -gt 0 ] && [ "$v" -lt 150 ] || fail "$k is '$v'"
done
# the drive counted the 8 MiB written: data units are 512000 bytes, rounded up
before=$(val before_host_write_bytes)
after=$(val after_host_write_bytes)
delta=$((after - before))
[ "$delta" -ge $((8 << 20)) ] && [ "$delta" -le $(((8 << 20) + 2 * 512000)) ] ||
	fail "host writes grew by $delta bytes for 8 MiB written"
[ "$(val after_host_write_cmds)" -gt "$(val before_host_write_cmds)" ] || fail "host write commands did not grow"

method=$(val purge_method)
case "$method" in
format-user|format-crypto|sanitize-crypto|sanitize-block)
	check purge_rc 0
	check purged_zero 1 ;;
trim) echo "note: the controller offers no NVMe purge" ;;
*) fail "purge method '$method'" ;;
esac
if [ "$(val sanitize)" = "0,0,0" ]; then
	check sanitize_block_rc -95
	check sanitize_block_err "Sanitize (block erase): not supported by this controller (SANICAP)"
fi

check ctrl_attach_rc 0
check ctrl_nsid 0
check ctrl_model "QEMU NVMe Ctrl"
check ctrl_rc 0
check other_attach_rc -25
case "$(val other_attach_err)" in "not an NVMe device"*) ;; *) fail "other_attach_err '$(val other_attach_err)'" ;; esac
check done 1
check guest_exit 0
echo "PASS"

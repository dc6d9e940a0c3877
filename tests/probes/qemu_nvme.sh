#!/usr/bin/env bash
# The NVMe backend against QEMU's emulated NVMe controller in a guest.
#   qemu_nvme.sh NVME_GUEST_BINARY
# Boots a Debian kernel (NVMe built in, as in linux-image-cloud-amd64) with an
# initramfs of busybox, the guest program and the libraries it and libnvme
# load; the guest program prints "slc: key=value" lines, checked here.
# Skips (77) without qemu-system-x86_64, a kernel with NVMe built in, a
# static busybox or cpio.  SLCSCOPE_QEMU_KERNEL names a kernel.
# SLCSCOPE_QEMU_ACCEL=kvm uses KVM; the default is QEMU's own emulation (TCG),
# about ten seconds here, because nested KVM inside a virtual machine (as on
# the project's machines) can hang the guest kernel at its entry.
set -euo pipefail

guest_bin=$1
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

qemu=$(command -v qemu-system-x86_64 || true)
[ -n "$qemu" ] || skip "qemu-system-x86_64 missing (Debian package qemu-system-x86)"
accel=${SLCSCOPE_QEMU_ACCEL:-tcg}
if [ "$accel" = kvm ]; then
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || skip "/dev/kvm missing or not accessible"
fi
command -v cpio >/dev/null || skip "cpio missing (Debian package cpio)"
busybox=""
for b in /bin/busybox /usr/bin/busybox; do
	if [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1; then busybox=$b; break; fi
done
[ -n "$busybox" ] || skip "no static busybox (Debian package busybox-static)"

kernel=${SLCSCOPE_QEMU_KERNEL:-}
if [ -z "$kernel" ]; then
	for k in $(ls -1 /boot/vmlinuz-* 2>/dev/null | sort -rV); do
		cfg=/boot/config-${k#/boot/vmlinuz-}
		if [ -r "$k" ] && grep -q '^CONFIG_BLK_DEV_NVME=y' "$cfg" 2>/dev/null &&
		   grep -q '^CONFIG_DEVTMPFS=y' "$cfg"; then
			kernel=$k; break
		fi
	done
fi
[ -n "$kernel" ] && [ -r "$kernel" ] ||
	skip "no kernel with NVMe built in under /boot (Debian package linux-image-cloud-amd64)"

work=$(mktemp -d "${TMPDIR:-/tmp}/qemu-nvme.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp}

# The program, libnvme (loaded with dlopen) and every library either needs.
copy_with_libs() {
	local f=$1
	for lib in "$f" $(ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
		real=$(readlink -f "$lib")
		mkdir -p "$root$(dirname "$lib")"
		[ -e "$root$lib" ] || cp "$real" "$root$lib"
	done
}
cp "$guest_bin" "$root/nvme_guest"
copy_with_libs "$guest_bin"
libnvme=$(ldconfig -p | awk '/libnvme\.so\.1 .*x86-64/ && !found {print $NF; found = 1}')
[ -n "$libnvme" ] || fail "libnvme.so.1 not found on the host"
copy_with_libs "$libnvme"
cp "$busybox" "$root/bin/busybox"

cat > "$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
i=0
while [ ! -b /dev/nvme0n1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
echo
echo "slc: guest=up"
/nvme_guest /dev/nvme0n1 /dev/nvme0 /dev/null
echo "slc: guest_exit=$?"
poweroff -f
EOF
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"

disk=$work/disk.img
truncate -s 256M "$disk"
out=$work/console.txt
timeout 240 "$qemu" -accel "$accel" -m 512 -smp 1 -nographic -no-reboot \
	-kernel "$kernel" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 panic=-1 rdinit=/init quiet" \
	-drive "file=$disk,if=none,id=nvm,format=raw" \
	-device "nvme,serial=SLCQEMU0001,drive=nvm" </dev/null > "$out" 2>&1 || true
tr -d '\r' < "$out" > "$out.txt"

val() { sed -n "/slc: $1=/{s/^.*slc: $1=//p;q}" "$out.txt"; }   # the first, no early-closed pipe
check() {   # check KEY EXPECTED
	local v
	v=$(val "$1")
	[ "$v" = "$2" ] || { grep 'slc: ' "$out.txt" || tail -40 "$out.txt"; fail "$1 is '$v', expected '$2'"; }
}
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

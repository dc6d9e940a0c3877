# Sourced by the tests that boot a QEMU guest (qemu_nvme.sh, qemu_hipri.sh):
# a Debian kernel (NVMe built in, as in linux-image-cloud-amd64) with an
# initramfs of a static busybox, the programs under test and the libraries
# they load.  The guest prints "slc: key=value" lines, read back with val.
# SLCSCOPE_QEMU_KERNEL names a kernel.  SLCSCOPE_QEMU_ACCEL=kvm uses KVM;
# the default is QEMU's own emulation (TCG), because nested KVM inside a
# virtual machine (as on the project's machines) can hang the guest kernel
# at its entry.

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

# qemu accel busybox kernel, or a skip (77) with what is missing.
qemu_find() {
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
}

# work (removed on exit) and root, the initramfs tree with busybox in it.
qemu_workdir() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	root=$work/root
	mkdir -p "$root"/{bin,dev,proc,sys,tmp}
	cp "$busybox" "$root/bin/busybox"
}

# A program and every library it needs, at their host paths under root.
copy_with_libs() {
	local f=$1 lib real
	for lib in "$f" $(ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
		real=$(readlink -f "$lib")
		mkdir -p "$root$(dirname "$lib")"
		[ -e "$root$lib" ] || cp "$real" "$root$lib"
	done
}

# The init script's start: busybox, /proc, /sys, /dev, then /dev/nvme0n1.
qemu_init_head() {
	cat <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
i=0
while [ ! -b /dev/nvme0n1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
echo
echo "slc: guest=up"
EOF
}

# qemu_boot TIMEOUT_S MEMORY_MB APPEND [QEMU ARGS...]: root as the
# initramfs, APPEND added to the kernel command line, $qemu_cpus CPUs
# (default 1); the console, without carriage returns, in $out.txt.
qemu_boot() {
	local t=$1 mem=$2 append=$3
	shift 3
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"
	out=$work/console.txt
	timeout "$t" "$qemu" -accel "$accel" -m "$mem" -smp "${qemu_cpus:-1}" -nographic -no-reboot \
		-kernel "$kernel" -initrd "$work/initrd.gz" \
		-append "console=ttyS0 panic=-1 rdinit=/init quiet $append" \
		"$@" </dev/null > "$out" 2>&1 || true
	tr -d '\r' < "$out" > "$out.txt"
	# SLCSCOPE_QEMU_CONSOLE=FILE keeps the guest's console for a look afterwards
	[ -z "${SLCSCOPE_QEMU_CONSOLE:-}" ] || cp "$out.txt" "$SLCSCOPE_QEMU_CONSOLE"
}

val() { sed -n "/slc: $1=/{s/^.*slc: $1=//p;q}" "$out.txt"; }   # the first, no early-closed pipe
check() {   # check KEY EXPECTED
	local v
	v=$(val "$1")
	[ "$v" = "$2" ] || { grep 'slc: ' "$out.txt" || tail -40 "$out.txt"; fail "$1 is '$v', expected '$2'"; }
}

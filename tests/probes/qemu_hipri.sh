#!/usr/bin/env bash
# run --hipri against QEMU's emulated NVMe controller with a poll queue.
#   qemu_hipri.sh SLCSCOPE_BINARY
# Boots the guest of qemu_lib.sh with nvme.poll_queues=1, with slcscope (and
# fio, when the host has it) and their libraries in the initramfs, and
# checks that the namespace's queue polls (io_poll 1), that 'slcscope run
# --hipri' runs there and its trace says io_mode iopoll, that --sqpoll and
# both together run, and, once the driver's poll queues are taken away
# (poll_queues=0 and a controller reset), that --hipri is refused with one
# line naming nvme.poll_queues.  Prints the IOPS and CPU time per I/O of
# slcscope and of fio (--hipri, --sqthread_poll) side by side, as lines
#   figure TOOL MODE iops=N cpu_us_per_io=N
# Under TCG the guest's device is an emulation on the host's CPU: the
# figures compare the two tools and the modes, never a drive.
# SLCSCOPE_HIPRI_TIME (seconds per run, default 3), SLCSCOPE_HIPRI_QD
# (default 4), SLCSCOPE_HIPRI_CPUS (the guest's, default 1; an SQ thread
# wants a CPU of its own: fio's job spins on the completion ring in user
# space and starves its SQ thread on one CPU) and SLCSCOPE_HIPRI_FIO=0 (no
# fio) shape it.
# Skips (77) without qemu-system-x86_64, a kernel with NVMe built in, a
# static busybox, cpio or python3.
set -euo pipefail

slcscope=$1
. "$(dirname "$0")/qemu_lib.sh"
secs=${SLCSCOPE_HIPRI_TIME:-3}
qd=${SLCSCOPE_HIPRI_QD:-4}
qemu_cpus=${SLCSCOPE_HIPRI_CPUS:-1}
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || true)
[ -n "$py" ] || skip "python3 missing (it reads the guest's figures)"
qemu_find
qemu_workdir qemu-hipri

copy_with_libs "$slcscope"
mkdir -p "$root/usr/local/bin"
cp "$slcscope" "$root/usr/local/bin/slcscope"
fio=""
if [ "${SLCSCOPE_HIPRI_FIO:-1}" != 0 ] && command -v fio >/dev/null; then
	fio=$(command -v fio)
	copy_with_libs "$fio"
	cp "$(readlink -f "$fio")" "$root/usr/local/bin/fio"
fi

# Each slcscope run: TRIM (BLKDISCARD, outside the polled ring), then
# 4 KiB random writes for $secs; its trace's job step as CSV on the console.
{ qemu_init_head; cat <<EOF; } > "$root/init"
export PATH=/usr/local/bin:/bin
secs=$secs qd=$qd fio=${fio:+1}
EOF
cat >> "$root/init" <<'EOF'
echo "slc: io_poll=$(cat /sys/block/nvme0n1/queue/io_poll)"
run() {   # run NAME OPTIONS...
	local name=$1
	shift
	slcscope run /dev/nvme0n1 --destructive --no-probe --plan rand --rand-time ${secs}s --trim-wait 0 \
		--qd $qd --bs-rand 4k --interval 1s "$@" -o /tmp/$name.h5 > /tmp/$name.txt 2>&1
	echo "slc: ${name}_rc=$?"
	sed "s/^/slc-out $name: /" /tmp/$name.txt
	slcscope export /tmp/$name.h5 --csv 2>&1 | sed "s/^/slc-csv $name: /"
	# the job step's io_mode, the last segment's
	echo "slc: ${name}_io_mode=$(slcscope export /tmp/$name.h5 --json | grep -o '"io_mode": *"[a-z+]*"' |
		tail -1 | sed 's/^.*: *"//; s/"$//')"
	rm -f /tmp/$name.h5
}
fio_run() {   # fio_run NAME OPTIONS...
	local name=$1
	shift
	fio --name=$name --filename=/dev/nvme0n1 --ioengine=io_uring --direct=1 --rw=randwrite --bs=4k \
		--iodepth=$qd --norandommap --randrepeat=0 --time_based --runtime=$secs \
		--output-format=terse "$@" > /tmp/$name.txt 2>&1
	echo "slc: ${name}_rc=$?"
	sed "s/^/slc-fio $name: /" /tmp/$name.txt
}
run hipri --hipri
run irq
run sqpoll --sqpoll
run both --hipri --sqpoll
# a writer thread per job, each with a polled ring of its own
run jobs --hipri --jobs 2
if [ -n "$fio" ]; then
	fio_run fio_hipri --hipri
	fio_run fio_irq
	fio_run fio_sqpoll --sqthread_poll
fi
# the driver without poll queues: its parameter, then a controller reset
echo 0 > /sys/module/nvme/parameters/poll_queues
echo 1 > /sys/class/nvme/nvme0/reset_controller
i=0
while [ "$(cat /sys/block/nvme0n1/queue/io_poll 2>/dev/null)" != 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
echo "slc: io_poll_after=$(cat /sys/block/nvme0n1/queue/io_poll)"
slcscope run /dev/nvme0n1 --destructive --no-probe --plan rand --rand-time 1s --hipri -o /tmp/no.h5 > /tmp/no.txt 2>&1
echo "slc: nopoll_rc=$?"
echo "slc: nopoll_lines=$(wc -l < /tmp/no.txt)"
echo "slc: nopoll_err=$(head -1 /tmp/no.txt)"
echo "slc: nopoll_trace=$([ -e /tmp/no.h5 ] && echo 1 || echo 0)"
echo "slc: done=1"
poweroff -f
EOF
chmod +x "$root/init"

disk=$work/disk.img
truncate -s 256M "$disk"
# loglevel 5: the driver's warnings reach the console.  Under TCG a polled
# completion is now and then found only by the driver's timeout ("I/O ...
# timeout, completion polled"), fio's as slcscope's: io_timeout 5 s instead
# of 30 bounds the stall that costs.
qemu_boot $((300 + 20 * secs)) 1024 "nvme.poll_queues=1 nvme_core.io_timeout=5 loglevel=5" \
	-drive "file=$disk,if=none,id=nvm,format=raw,discard=unmap" \
	-device "nvme,serial=SLCQEMU0002,drive=nvm"
[ "$(val guest)" = up ] || { tail -40 "$out.txt"; fail "the guest did not start"; }
grep -E '^slc: |slc-out ' "$out.txt" | grep -v 'slc-out .*\] ' || true
grep -E '\] nvme' "$out.txt" || true

check io_poll 1
for r in hipri irq sqpoll both; do
	check ${r}_rc 0
done
grep -q "slc-out hipri: slcscope run: io_uring mode iopoll on /dev/nvme0n1" "$out.txt" ||
	fail "run --hipri did not say it polled"
grep -q "slc-out both: slcscope run: io_uring mode iopoll+sqpoll on /dev/nvme0n1" "$out.txt" ||
	fail "run --hipri --sqpoll did not say its mode"
[ -n "$fio" ] && for r in fio_hipri fio_irq fio_sqpoll; do check ${r}_rc 0; done

# The figures, and the trace's word on each run's mode (its job step's io_mode).
"$py" - "$out.txt" "$qd" <<'EOF' || fail "the figures"
import csv, sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
want = {"hipri": "iopoll", "irq": "irq", "sqpoll": "sqpoll", "both": "iopoll+sqpoll"}
bad = 0
for name, mode in want.items():
    rows = [l.split(": ", 1)[1] for l in lines if l.startswith("slc-csv %s: " % name)]
    data = [r for r in rows if not r.startswith("#")]
    if len(data) < 2:
        print("FAIL: %s: no job step in its trace" % name); bad += 1; continue
    table = list(csv.DictReader(data))
    steps = [r for r in table if r["segment"] == "1"]
    ios = sum(int(r["ios"]) for r in steps)
    secs = sum(float(r["interval_s"]) for r in steps)
    cpu = sum(float(r["writer_cpu"] or 0) * float(r["interval_s"]) for r in steps)
    print("figure slcscope %s iops=%.0f cpu_us_per_io=%.1f" % (mode, ios / secs, 1e6 * cpu / max(ios, 1)))
    if ios <= 0:
        print("FAIL: %s: no I/O" % name); bad += 1
rows = [l.split(": ", 1)[1] for l in lines if l.startswith("slc-csv jobs: ")]
jobs = [r for r in csv.DictReader(x for x in rows if not x.startswith("#")) if r["segment"] == "1"]
if sum(int(r["ios"]) for r in jobs) <= 0:
    print("FAIL: --hipri --jobs 2: no I/O"); bad += 1
for name, mode in (("fio_hipri", "iopoll"), ("fio_irq", "irq"), ("fio_sqpoll", "sqpoll")):
    t = [l.split(": ", 1)[1].split(";") for l in lines if l.startswith("slc-fio %s: 3;" % name)]
    if not t:
        continue
    f = t[0]
    iops, usr, sys_ = float(f[48]), float(f[87].rstrip("%")), float(f[88].rstrip("%"))
    print("figure fio %s iops=%.0f cpu_us_per_io=%.1f" % (mode, iops, 1e6 * (usr + sys_) / 100 / max(iops, 1)))
sys.exit(1 if bad else 0)
EOF
check hipri_io_mode iopoll
check irq_io_mode irq
check sqpoll_io_mode sqpoll
check both_io_mode iopoll+sqpoll
check jobs_rc 0
check jobs_io_mode iopoll

check io_poll_after 0
check nopoll_rc 1
check nopoll_lines 1
check nopoll_trace 0
case "$(val nopoll_err)" in
"slcscope run: /dev/nvme0n1: --hipri needs poll queues and the device has none"*"nvme.poll_queues=N"*) ;;
*) fail "without poll queues: '$(val nopoll_err)'" ;;
esac
check done 1
echo "PASS"

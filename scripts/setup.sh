#!/usr/bin/env bash
# slcscope set-up: install the Debian 12 packages the project builds and tests
# with, then configure and build into ./build.  Idempotent; run as root (or
# with sudo available).  Usage: ./scripts/setup.sh [--no-install] [--no-build]
#   SLCSCOPE_BUILD_DIR   build directory (default: build)
#   SLCSCOPE_CMAKE_ARGS  extra arguments for cmake configure
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${SLCSCOPE_BUILD_DIR:-build}
do_install=1
do_build=1
for a in "$@"; do
	case "$a" in
	--no-install) do_install=0 ;;
	--no-build) do_build=0 ;;
	-h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "setup.sh: unknown option '$a'" >&2; exit 2 ;;
	esac
done

# One line per package, with why it is needed.
packages=(
	build-essential    # C compiler, make
	cmake              # build system, ctest
	pkg-config         # finds the libraries below
	libhdf5-dev        # trace store (HDF5)
	zlib1g-dev         # deflate, compressibility estimate
	libnvme-dev        # NVMe identify / SMART probes
	libjson-c-dev      # named by libnvme.pc (Requires.private)
	libssl-dev         # named by libnvme.pc (Requires.private)
	libatasmart-dev    # SATA SMART probes
	liburing-dev       # io_uring write engine
	libcairo2-dev      # graphs (PNG, SVG, PDF)
	libjansson-dev     # JSON: drive models, phase breakdown
	libblkid-dev       # partition table / filesystem signature checks
	libfuse3-dev       # slcscope emulate: serves the simulated drive as a file (FUSE)
	libsqlite3-dev     # slcscope lab: the lab's database (a file)
	libpq-dev          # slcscope lab --db postgresql://...: a lab shared by several benches
	postgresql         # initdb, pg_ctl: the lab tests start a PostgreSQL server of their own
	abigail-tools      # abidw, abidiff: the ABI check of libslcscope.so (ctest abi_check)
	fuse3              # fusermount3 (mount helper, auto_unmount) for slcscope emulate
	libcmocka-dev      # unit tests
	python3            # test helpers
	python3-h5py       # tests/trace/test_h5py.py reads traces without slcscope
	python3-pil        # graph tests look at the pixels of the PNGs
	fonts-dejavu-core  # the font the graphs are drawn in
	libxml2-utils      # xmllint: the SVG test
	poppler-utils      # pdfinfo, pdfimages: the report --pdf test
	chromium           # the report page test loads index.html headless and takes a screenshot
	clang              # libFuzzer build of tests/fuzz (bounded run in ctest)
	libclang-rt-14-dev # libFuzzer and sanitizer runtimes for clang
	util-linux         # losetup, blkdiscard: loop-device integration tests
	e2fsprogs          # mkfs.ext4: the "refuse a filesystem" test
	fuse2fs            # the "refuse a FUSE-mounted device or image" test (run_safety_root)
	fdisk              # sfdisk: the "refuse a partition table" test
	qemu-system-x86    # tests/probes/qemu_nvme.sh: QEMU's emulated NVMe controller as a real peer
	linux-image-cloud-amd64 # the guest kernel of that test (NVMe built in, no modules needed)
	busybox-static     # the guest's shell and tools in that test's initramfs
	cpio               # packs that initramfs
	fio                # tests/trace/test_import_tools.sh, test_import_fio.sh: real fio logs and JSON to import
	sysstat            # iostat: the import test records a dd fill with it
)

if [ "$do_install" = 1 ]; then
	sudo=""
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || { echo "setup.sh: run as root (or install sudo)" >&2; exit 1; }
		sudo=sudo
	fi
	missing=()
	for p in "${packages[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "setup.sh: installing ${missing[*]}"
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
	else
		echo "setup.sh: all ${#packages[@]} Debian packages already installed"
	fi
fi

if [ "$do_build" = 1 ]; then
	cd "$here"
	echo "setup.sh: configuring in $build_dir"
	# shellcheck disable=SC2086
	cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${SLCSCOPE_CMAKE_ARGS:-}
	echo "setup.sh: building"
	cmake --build "$build_dir" -j "$(nproc)"
	echo "setup.sh: done; binary at $build_dir/slcscope"
fi

# Shared by tests/emulate/*.sh: skips, emulator and loop-device lifecycle,
# cleanup that always unmounts and detaches.  Source it with $bin set.
# Exits 77 (skipped) with the reason when the machine cannot run these tests.
set -u
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for FUSE mounts and loop devices"; exit 77; }
[ -c /dev/fuse ] || { echo "SKIP: no /dev/fuse (modprobe fuse)"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: losetup missing (util-linux)"; exit 77; }
command -v fusermount3 >/dev/null || { echo "SKIP: fusermount3 missing (Debian package fuse3)"; exit 77; }
py=/usr/bin/python3
[ -x $py ] || { echo "SKIP: /usr/bin/python3 missing (Debian python3)"; exit 77; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/slcscope-emul.XXXXXX")
# The emulators' data stores go to tmpfs when there is one: freeing a store
# on a busy disk filesystem at exit took up to 18 s here (the unmount comes
# first, but the process lingers).  Sparse: only what the tests write.
store=$tmp
if [ -d /dev/shm ] && [ -w /dev/shm ]; then store=$(mktemp -d /dev/shm/slcscope-emul.XXXXXX); fi
loops=()
emus=()      # pids of emulators started by emu_start
mnts=()
cleanup() {
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
	for p in "${emus[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${emus[@]}"; do
		for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
	done
	for m in "${mnts[@]}"; do mountpoint -q "$m" 2>/dev/null && umount -l "$m"; done
	rm -rf "$tmp"
	[ "$store" = "$tmp" ] || rm -rf "$store"
}
trap cleanup EXIT
fails=0 passes=0
ok() { passes=$((passes+1)); echo "ok: $*"; }
bad() { fails=$((fails+1)); echo "FAIL: $*"; }
finish() { echo "$passes passed, $fails failed"; [ $fails = 0 ]; }

# emu_start NAME MODEL [options...]: mounts $tmp/NAME, sets $emu_pid and $mnt.
# A machine where FUSE cannot mount at all is a skip, not a failure.
emu_start() {
	local name=$1; shift
	mnt=$tmp/$name
	mnts+=("$mnt")
	if ! "$bin" emulate "$@" "$mnt" --store "$store/$name.img" --daemon --pidfile "$tmp/$name.pid" --log "$tmp/$name.log" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		if grep -q "cannot mount FUSE\|cannot start a FUSE session" "$tmp/$name.err"; then
			echo "SKIP: FUSE does not mount here: $(cat "$tmp/$name.err")"; exit 77
		fi
		bad "emulate $name did not start: $(cat "$tmp/$name.err")"
		finish; exit 1
	fi
	emu_pid=$(cat "$tmp/$name.pid")
	emus+=("$emu_pid")
}

# emu_stop PID MNT: SIGTERM, wait for the exit; fails the test if DIR stays mounted.
emu_stop() {
	kill -TERM "$1" 2>/dev/null
	for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$1" 2>/dev/null; then bad "emulator $1 still running 10 s after SIGTERM"; return; fi
	mountpoint -q "$2" && bad "$2 still mounted after the emulator exited"
	sanitizer_check "$(basename "$2")"
}

# sanitizer_check NAME: the daemon's log must hold no sanitizer report
# (under the ASan build the emulator is instrumented too)
sanitizer_check() {
	grep -q "Sanitizer\|runtime error" "$tmp/$1.log" 2>/dev/null && bad "sanitizer report from emulator $1: $(cat "$tmp/$1.log")"
	return 0
}

# loop_attach FILE: sets $loop (direct I/O, as the docs say)
loop_attach() {
	loop=$(losetup --direct-io=on -f --show "$1") || { echo "SKIP: cannot attach a loop device"; exit 77; }
	loops+=("$loop")
}
loop_detach() {
	losetup -d "$1"
	local keep=()
	for l in "${loops[@]}"; do [ "$l" = "$1" ] || keep+=("$l"); done
	loops=("${keep[@]}")
}

# stat_of MNT KEY: one number from MNT/stats.json (KEY may be a.b)
stat_of() {
	$py -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d=d[k]
print(int(d) if isinstance(d,bool) or float(d)==int(d) else d)' "$1/stats.json" "$2"
}

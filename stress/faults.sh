#!/bin/bash
# stress/faults.sh [VARIANT] — runner and harness faults on the debug kernel
# (patched-debug: KASAN, kmemleak, lockdep): each fault must be detected and
# named, give a non-zero exit, and leave the results written before it intact.
#
# emrcu-run (qemu-runner/tests/emrcu_crash, block=1 prints a result block
# before the fault):
#   panic, oops, kasan, rcu-stall, kmemleak, hang (kernel: insmod never
#   returns, console silent), qemu-missing, disk-full before the boot
#   (initrd), disk-full during the run (results), each with the exit code
#   and name of qemu-runner/README.md, crash-block.json (the earlier
#   result) intact;
# stress/run.sh: QEMU missing, OUTDIR full, OUTDIR holding earlier results,
#   a bad em_torture parameter, bad arguments.
# Disk full uses small tmpfs mounts under $BUILD/faults (needs root; skipped
# with a reason otherwise).  Prints PASS:/FAIL:/SKIP: lines and
# "N passed, N failed, N skipped".  ~4-6 minutes (8 short boots).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
export BUILD
V=${1:-patched-debug}
OUT=$BUILD/faults/$V-$$
TOPO=2x1024		# two vCPUs: the faults need no topology, boots are faster
TIMEOUT=240		# per boot (a KASAN kernel boots in ~20-60 s under load)
suite=faults
RUNNER_ARGS=(--mode realtime --topo "$TOPO" --timeout "$TIMEOUT" --idle-timeout 60)
. "$TOP/tests/lib.sh"
# The small tmpfs mounts of the disk-full cases (fullfs below) are undone
# on every way out.  fullfs runs in a command substitution, a subshell, so
# the mount points are found by their place, not kept in a variable.
cleanup() {
	local m
	for m in "$OUT"/*.mnt; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
}
trap cleanup EXIT

build setup "$V" "$TOP/qemu-runner/tests/emrcu_crash"
KO=${KOS[0]}
mkdir -p "$OUT"

# The earlier result every fault must leave intact.
BLOCK='{"module": "emrcu_crash", "ok": true}'

# kernel NAME WANT_RC KIND REGEX -- args: a kernel fault after a result block.
kernel() {
	local name=$1 want=$2 kind=$3 re=$4 d=$OUT/$1
	shift 5
	runner_case "$name" "$want" "$re" -- "$@" || return
	if [ "$(cat "$d/crash-block.json" 2>/dev/null)" != "$BLOCK" ]; then
		ko "$name" "earlier result crash-block.json lost: '$(cat "$d/crash-block.json" 2>/dev/null)'"
	elif ! jq -e --arg k "$kind" '.exit_kind == $k and .results[0] == "crash-block.json"' \
			"$d/meta.json" >/dev/null 2>&1; then
		ko "$name" "meta.json: $(jq -c '{exit_kind, exit_code, results}' "$d/meta.json" 2>/dev/null)"
	else
		ok "$name ($(sed 's/ (\/.*//' <<<"$line"))"
	fi
}

# ---- kernel faults, each after the module printed its result block ----------
kernel panic 3 panic 'FAIL panic: Kernel panic - not syncing: sysrq triggered crash' -- \
	--module "$KO:what=block" --cmd 'echo c > /proc/sysrq-trigger'
# On a KASAN kernel the NULL dereference faults in the shadow check first
# ("paging request at virtual address dfffffc000000000").
kernel oops 4 oops 'FAIL oops: Unable to handle kernel (NULL pointer dereference|paging request)' -- \
	--module "$KO:what=oops block=1"
kernel kasan 6 kasan 'FAIL kasan: BUG: KASAN: (slab-)?use-after-free in emrcu_crash' -- \
	--module "$KO:what=kasan block=1"
kernel rcu-stall 9 rcu-stall 'FAIL rcu-stall: rcu: INFO: rcu_preempt (detected|self-detected) stall' -- \
	--module "$KO:what=stall stall_s=12 block=1" --append rcupdate.rcu_cpu_stall_timeout=3
kernel kmemleak 10 kmemleak 'FAIL kmemleak: kmemleak: [0-9]+ new suspected memory leak' -- \
	--module "$KO:what=leak block=1" \
	--cmd 'sleep 6; echo scan > /sys/kernel/debug/kmemleak; sleep 2; echo scan > /sys/kernel/debug/kmemleak; sleep 1'
# The idle clock starts with QEMU: under host load ~12 a KASAN kernel printed
# nothing for its first 15 s (measured), so the limit must exceed that.
kernel hang 12 idle 'FAIL idle: hang: no console output for --idle-timeout 45 s' -- \
	--module "$KO:what=hang block=1" --idle-timeout 45

# ---- QEMU missing: named, and the results already in OUTDIR stay ------------
d=$OUT/oops
sum0=$(cd "$d" && sha256sum crash-block.json meta.json console.log 2>/dev/null)
if OUTDIR_OVERRIDE=$d runner_case qemu-missing 13 'FAIL qemu: /nonexistent/qemu-system-aarch64 not found' -- \
	--qemu /nonexistent/qemu-system-aarch64 --module "$KO:what=block"; then
	if [ "$(cd "$d" && sha256sum crash-block.json meta.json console.log 2>/dev/null)" = "$sum0" ] && [ -n "$sum0" ]; then
		ok "qemu-missing (exit 13, the earlier run's results in the same outdir unchanged)"
	else
		ko qemu-missing "earlier results in $d changed"
	fi
fi

# ---- disk full for results ------------------------------------------------
# fullfs NAME SIZE: a tmpfs of SIZE bytes at $OUT/NAME.mnt, echoes its path.
fullfs() {
	local m=$OUT/$1.mnt
	mkdir -p "$m" && mount -t tmpfs -o "size=$2" "emrcu-faults" "$m" 2>/dev/null || return 1
	echo "$m"
}
if [ "$(id -u)" != 0 ]; then
	skip disk-full "not root: cannot mount a small tmpfs for --outdir"
	skip disk-full-results "not root"
	skip stress-outdir-full "not root"
elif ! m=$(fullfs probe 65536); then
	skip disk-full "mount -t tmpfs failed (no CAP_SYS_ADMIN?)"
	skip disk-full-results "mount -t tmpfs failed"
	skip stress-outdir-full "mount -t tmpfs failed"
else
	# Before the boot: the initrd does not fit.
	m=$(fullfs initrd $((4 << 20)))
	echo "$BLOCK" >"$m/earlier.json"
	if OUTDIR_OVERRIDE=$m runner_case disk-full 15 'FAIL initrd: cannot write .*initrd.img: No space left on device' -- \
		--module "$KO:what=block"; then
		if [ "$(cat "$m/earlier.json")" = "$BLOCK" ]; then
			ok "disk-full (initrd: exit 15, earlier.json intact)"
		else
			ko disk-full "earlier.json changed"
		fi
	fi
	# During the run: the initrd fits, a 4 MB result block and the console
	# log do not; the small block printed before must survive, and the
	# verdict (meta.json) must be saved once the initrd is gone.
	img=$(stat -L -c %s "$BUILD/image/base.cpio" 2>/dev/null || echo 0)
	kos=$(stat -L -c %s "$KO")
	m=$(fullfs results $((img + kos + (1 << 20))))
	cat >"$OUT/big.sh" <<-'EOF'
	echo EMRCU-RESULT-BEGIN small.txt
	echo earlier
	echo EMRCU-RESULT-END small.txt
	echo EMRCU-RESULT-BEGIN big.txt
	head -c 4000000 /dev/zero | tr '\0' x | fold -w 200
	echo
	echo EMRCU-RESULT-END big.txt
	EOF
	if [ "$img" = 0 ]; then
		ko disk-full-results "no $BUILD/image/base.cpio"
	elif OUTDIR_OVERRIDE=$m runner_case disk-full-results 15 'FAIL output: results not saved: cannot write .*: No space left on device' -- \
		--cmd-file "$OUT/big.sh" --module "$KO:what=block"; then
		if [ "$(cat "$m/small.txt" 2>/dev/null)" != earlier ] ||
			[ "$(cat "$m/crash-block.json" 2>/dev/null)" != "$BLOCK" ]; then
			ko disk-full-results "earlier results lost: small.txt '$(cat "$m/small.txt" 2>/dev/null)'"
		elif ! jq -e '.exit_kind == "output"' "$m/meta.json" >/dev/null 2>&1; then
			ko disk-full-results "verdict not saved in meta.json"
		else
			ok "disk-full-results (exit 15 output, small.txt and crash-block.json intact, verdict in meta.json)"
		fi
	fi
fi

# ---- stress/run.sh ----------------------------------------------------------
# harness NAME WANT_REGEX ARGS...: stress/run.sh must fail with a line naming it.
harness() {
	local name=$1 re=$2 rc out
	shift 2
	out=$("$TOP/stress/run.sh" "$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" >"$OUT/$name.out"
	if [ "$rc" -eq 0 ]; then
		ko "$name" "stress/run.sh $* exited 0"
		return 1
	elif ! grep -Eq -- "$re" <<<"$out"; then
		ko "$name" "no line matching /$re/: $(grep -E '^(FAIL|stress)' <<<"$out" | head -2 | tr '\n' ' ')"
		return 1
	fi
	ok "$name (exit $rc: $(grep -E -m1 -- "$re" <<<"$out" | cut -c1-160))"
}
harness stress-bad-arg "unknown argument 'BOGUS=1'" BOGUS=1 VARIANT="$V"
harness stress-bad-duration 'DURATION=abc: seconds' DURATION=abc VARIANT="$V"
EMRCU_QEMU=/nonexistent/qemu-system-aarch64 harness stress-qemu-missing \
	"FAIL: stress/$V/run \\(exit 13 qemu: .*not found" QUICK VARIANT="$V"
d=$OUT/stress-earlier
mkdir -p "$d"
echo "$BLOCK" >"$d/em_torture.json"
if harness stress-outdir-earlier "FAIL: stress/$V/outdir .*not empty" QUICK VARIANT="$V" OUTDIR="$d"; then
	[ "$(cat "$d/em_torture.json")" = "$BLOCK" ] || ko stress-outdir-earlier "earlier em_torture.json changed"
fi
if [ "$(id -u)" = 0 ] && m=$(fullfs stress 4096); then
	head -c 4096 /dev/zero >"$m/fill" 2>/dev/null
	harness stress-outdir-full "FAIL: stress/$V/outdir \\(cannot write to OUTDIR" QUICK VARIANT="$V" OUTDIR="$m/run"
fi
# A bad module parameter: insmod refused, named, in one boot.
harness stress-bad-param "FAIL: stress/$V/run \\(exit 1 guest: EMRCU-EXIT 22" \
	QUICK VARIANT="$V" TORTURE_PARAMS=reader_burst=0 HOTPLUG_CPUS=none OUTDIR="$OUT/stress-bad-param"
if ! grep -q 'em_torture: invalid parameter reader_burst' "$OUT/stress-bad-param/run/console.log" 2>/dev/null; then
	ko stress-bad-param-message "no 'em_torture: invalid parameter reader_burst' on the console"
else
	ok "stress-bad-param-message (em_torture: invalid parameter reader_burst: ...)"
fi
# The host keeps none of the disk-full mounts.
cleanup
if grep -q " $OUT/" /proc/mounts; then
	ko mounts-undone "still mounted: $(grep " $OUT/" /proc/mounts | awk '{ print $2 }' | tr '\n' ' ')"
else
	ok "mounts-undone (no tmpfs left under $OUT)"
fi
finish

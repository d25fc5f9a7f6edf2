#!/bin/bash
# qemu-runner/tests/e2e.sh [VARIANT] — emrcu-run end to end on a built kernel:
# every exit path (pass, guest rc, warning, oops, panic, RCU stall, failed
# insmod, idle hang, timeout, QEMU missing/failing, bad topology), result
# blocks from user space and from a module, both modes, an unequal topology.
# Boots the tests/emrcu_crash module (built with bench/kmod.sh).
# Prints PASS:/FAIL: lines and "N passed, N failed".  ~1-2 minutes.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
QR=$(cd "$HERE/.." && pwd)
TOP=$(cd "$QR/.." && pwd)
BUILD=${BUILD:-$TOP/build}
V=${1:-unpatched}
RUN=$QR/emrcu-run
OUT=$BUILD/e2e/$V
suite=e2e
RUNNER_ARGS=(--timeout 120 --idle-timeout 60)
. "$TOP/tests/lib.sh"

[ -f "$BUILD/$V/out/.emrcu-built" ] || { ko setup "variant $V not built"; finish; }
[ -x "$RUN" ] || { ko setup "emrcu-run missing: run make tools"; finish; }
KO=$("$TOP/bench/kmod.sh" "$V" "$QR/tests/emrcu_crash" | tail -1)
[ -f "$KO" ] || { ko setup "emrcu_crash.ko did not build"; finish; }
rm -rf "$OUT"
mkdir -p "$OUT"

# case NAME WANT_RC WANT_LINE_REGEX -- emrcu-run args...
case_() { runner_case "$@" && ok "$1"; }

case_ pass 0 '^emrcu-run: PASS' -- --cmd true
case_ guest-rc 1 'FAIL guest: EMRCU-EXIT 3' -- --cmd 'exit 3'
case_ warning 7 'FAIL warning: WARNING: CPU: .*emrcu_crash' -- --module "$KO:what=warn"
case_ oops 4 'FAIL oops: Unable to handle kernel NULL pointer' -- --module "$KO:what=oops"
case_ panic 3 'FAIL panic: Kernel panic - not syncing: sysrq triggered crash' -- --cmd 'echo c > /proc/sysrq-trigger'
case_ rcu-stall 9 'FAIL rcu-stall: rcu: INFO: rcu_sched (detected stalls|self-detected stall)' -- \
	--module "$KO:what=stall stall_s=10" --append rcupdate.rcu_cpu_stall_timeout=3
case_ insmod-fail 1 'FAIL guest: EMRCU-EXIT [1-9]' -- --module "$KO:what=fail" --cmd 'echo never'
case_ idle 12 'FAIL idle: hang' -- --cmd 'sleep 60' --idle-timeout 5
case_ timeout 11 'FAIL timeout: hang' -- --cmd 'while :; do echo tick; sleep 1; done' --timeout 10
case_ qemu-missing 13 'FAIL qemu: .*not found' -- --qemu /nonexistent/qemu-system-aarch64
case_ qemu-fails 13 'FAIL qemu: QEMU failed to start' -- --dtb /nonexistent.dtb
case_ bad-topo 2 'emrcu-run: --topo: cluster 1: 0 CPUs' -- --topo 4x160+0x512
case_ deterministic 0 '^emrcu-run: PASS' -- --mode deterministic --cmd true

# result blocks: a module's (printk) and a user one, and meta.json fields
d=$OUT/blocks
if ! runner_case blocks 0 '^emrcu-run: PASS' -- --module "$KO:what=block" \
	--cmd 'echo EMRCU-RESULT-BEGIN user.txt; echo hello; echo EMRCU-RESULT-END user.txt'; then
	:
elif [ "$(cat "$d/user.txt" 2>/dev/null)" != hello ]; then
	ko blocks "user.txt: '$(cat "$d/user.txt" 2>/dev/null)'"
elif [ "$(cat "$d/crash-block.json" 2>/dev/null)" != '{"module": "emrcu_crash", "ok": true}' ]; then
	ko blocks "crash-block.json: '$(cat "$d/crash-block.json" 2>/dev/null)'"
elif ! jq -e '.exit_code == 0 and (.kernel_release | test("^6\\.1\\.[0-9]+-emrcu-")) and
	(.config_sha256 | test("^[0-9a-f]{64}$")) and .results == ["crash-block.json", "user.txt"] and
	(.boot_to_init_s | type == "number" and . > 0)' "$d/meta.json" >/dev/null; then
	ko blocks "meta.json fields: $(tr '\n' ' ' <"$d/meta.json" | cut -c1-300)"
else
	ok blocks
fi

# unequal topology: the guest sees the clusters and capacities we asked for
d=$OUT/topo-unequal
runner_case topo-unequal 0 '^emrcu-run: PASS' -- --topo 1x256+3x1024 --cmd '
echo EMRCU-RESULT-BEGIN topo.txt
for c in 0 1 2 3; do
	t=/sys/devices/system/cpu/cpu$c
	echo "$c $(cat $t/cpu_capacity) $(cat $t/topology/cluster_cpus_list) $(cat $t/topology/physical_package_id)"
done
echo EMRCU-RESULT-END topo.txt' || finish
want='0 256 0 0
1 1024 1-3 0
2 1024 1-3 0
3 1024 1-3 0'
if [ "$(cat "$d/topo.txt" 2>/dev/null)" = "$want" ]; then
	ok topo-unequal
else
	ko topo-unequal "got '$(tr '\n' ';' <"$d/topo.txt" 2>/dev/null)'"
fi
finish

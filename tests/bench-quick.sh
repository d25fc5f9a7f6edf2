#!/bin/bash
# A small `make bench` in `make test`, run as a newcomer runs it: the first
# command on a fresh clone (tests/in-clone.sh), through the real make target
# with the kernels make test built.  The whole pipeline (tools, modules,
# deterministic guests, summary, report, plots, results/latest) on unpatched
# vs patched, PREEMPT_NONE, updater off and at 1 kHz, one boot each, no
# scenarios (those have their own suite); then the gate against the
# committed baseline.  Its negative control first: the same clone with the
# `tools` prerequisite taken off must fail within seconds, before any kernel
# or guest work, naming what is missing.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
C=$BUILD/clones
ok() { echo "PASS: bench-quick/$1"; }
ko() { echo "FAIL: bench-quick/$1 ($2)"; }
ARGS=(QUICK=1 BOOTS=1 "UPDATE_HZ=0 1000" BASELINES=unpatched NUMERATORS=patched SCENARIOS=none)

start=$(date +%s)
NO_TOOLS=1 "$TOP/tests/in-clone.sh" "$C/bench-notools" bench "${ARGS[@]}" >"$C-notools.log" 2>&1
rc=$?
secs=$(($(date +%s) - start))
if [ "$rc" -eq 2 ] && [ "$secs" -lt 60 ] &&
	grep -q 'qemu-runner/emrcu-run missing' "$C-notools.log" &&
	! grep -q 'building Image\|boot 1' "$C-notools.log"; then
	ok "negative-control-without-tools (exit 2 in ${secs}s: $(grep -m1 'missing' "$C-notools.log"))"
else
	ko "negative-control-without-tools" "want exit 2 within 60 s naming qemu-runner/emrcu-run, got exit $rc in ${secs}s; $C-notools.log"
fi

"$TOP/tests/in-clone.sh" "$C/bench" bench "${ARGS[@]}" >"$C-bench.log" 2>&1
rc=$?
grep -E '^(PASS|FAIL): clone/' "$C-bench.log"
[ "$rc" -eq 0 ] || exit 1
D=$(readlink -f "$C/bench/tree/results/latest")
if [ -f "$D/summary.json" ] && [ -f "$D/report.md" ]; then
	ok "latest ($D: summary.json, report.md)"
else
	ko latest "results/latest of the clone has no summary.json and report.md"
	exit 1
fi
if grep -q '^## Hot path' "$D/report.md" && ls "$D"/hot_path_*.png >/dev/null 2>&1; then
	ok report
else
	ko report "no hot-path section or plots in $D"
fi
# The series adds work to every em_cpu_energy() call: in deterministic mode
# the patched/unpatched ratio of every cluster is above 1 and its CI excludes
# 1; and it is small (under 10 %).
ratios=$(jq -r '.figures[] | select(.name == "hot_path_ratio" and .update_hz == 0)
	| "\(.cluster) \(.median) \(.ci_low) \(.ci_high)"' "$D/summary.json")
nclusters=$("$TOP/qemu-runner/emrcu-topo" --json | jq '.clusters | length')
if [ "$(echo "$ratios" | grep -c .)" -eq "$nclusters" ]; then
	ok "ratio-per-cluster"
else
	ko "ratio-per-cluster" "want $nclusters hot_path_ratio figures, got: $ratios"
fi
while read -r c med lo hi; do
	[ -n "$c" ] || continue
	if awk -v m="$med" -v l="$lo" 'BEGIN { exit !(l > 1 && m < 1.10) }'; then
		ok "ratio-pd$c ($med [$lo, $hi])"
	else
		ko "ratio-pd$c" "$med [$lo, $hi] not in (1, 1.10) with CI excluding 1"
	fi
done <<<"$ratios"
# The perf-CI gate against the committed baseline (deterministic figures),
# as perf CI runs it after the bench: `make gate` in the same clone.
if make -s -C "$C/bench/tree" gate BUILD="$C/bench/build" >"$D/gate.txt" 2>&1; then
	ok "gate-vs-baseline"
else
	ko "gate-vs-baseline" "$(grep -m3 REGRESSION "$D/gate.txt" | tr '\n' ' ')$(tail -1 "$D/gate.txt")"
fi

#!/bin/bash
# A small `make bench` in `make test`: the whole pipeline (kernels, modules,
# deterministic guests, summary, report, plots, gate) on unpatched vs
# patched, PREEMPT_NONE, updater off and at 1 kHz, one boot each.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
D=$BUILD/bench-quick
rm -rf "$D"
ok() { echo "PASS: bench-quick/$1"; }
ko() { echo "FAIL: bench-quick/$1 ($2)"; }

if RUNDIR=$D QUICK=1 BOOTS=1 UPDATE_HZ="0 1000" BASELINES=unpatched NUMERATORS=patched \
	"$TOP/bench/run-bench.sh" >"$D.log" 2>&1; then
	ok run
else
	ko run "$(tail -1 "$D.log")"
	exit 1
fi
if /usr/bin/python3 "$TOP/results/report.py" "$D" >>"$D.log" 2>&1 &&
	grep -q '^## Hot path' "$D/report.md" && ls "$D"/hot_path_*.png >/dev/null 2>&1; then
	ok report
else
	ko report "no report.md/plots"
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
# The perf-CI gate against the committed baseline (deterministic figures).
if make -s -C "$TOP/results" >/dev/null &&
	"$TOP/results/emrcu-compare" "$TOP/results/baselines/quick.json" "$D/summary.json" \
		>"$D/gate.txt" 2>&1; then
	ok "gate-vs-baseline"
else
	ko "gate-vs-baseline" "$(grep -m3 REGRESSION "$D/gate.txt" | tr '\n' ' ')$(tail -1 "$D/gate.txt")"
fi

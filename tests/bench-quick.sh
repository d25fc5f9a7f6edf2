#!/bin/bash
# A small `make bench` in `make test`, run as a newcomer runs it: the first
# command on a fresh clone (tests/in-clone.sh), through the real make target
# with the kernels make test built.  The whole pipeline (tools, modules,
# deterministic guests, summary, report, plots, results/latest) on unpatched
# vs patched (v2) and upstream (the merged design), PREEMPT_NONE, updater
# off and at 1 kHz, one boot each, no
# scenarios (those have their own suite); then the gate against the
# committed baseline.  Its negative control first: the same clone with the
# `tools` prerequisite taken off must fail within seconds, before any kernel
# or guest work, naming what is missing.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
C=$BUILD/clones
suite=bench-quick
. "$TOP/tests/lib.sh"
ARGS=(QUICK=1 BOOTS=1 "UPDATE_HZ=0 1000" BASELINES=unpatched "NUMERATORS=patched upstream" SCENARIOS=none)

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
ratios=$(jq -r '.figures[] | select(.name == "hot_path_ratio" and .update_hz == 0 and .variant == "patched")
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
# The merged design changes em_cpu_energy() too (no division, a lookup by
# performance): per cluster its ratio to unpatched must be resolved (CI
# excluding 1), whichever way it goes; and the report shows the three
# designs side by side.
uratios=$(jq -r '.figures[] | select(.name == "hot_path_ratio" and .update_hz == 0 and .variant == "upstream")
	| "\(.cluster) \(.median) \(.ci_low) \(.ci_high)"' "$D/summary.json")
if [ "$(echo "$uratios" | grep -c .)" -eq "$nclusters" ]; then
	while read -r c med lo hi; do
		if awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l > 1 || h < 1) }'; then
			ok "upstream-ratio-pd$c ($med [$lo, $hi])"
		else
			ko "upstream-ratio-pd$c" "$med [$lo, $hi]: CI includes 1"
		fi
	done <<<"$uratios"
else
	ko "upstream-ratio-per-cluster" "want $nclusters upstream hot_path_ratio figures, got: $uratios"
fi
if grep -q '^## Three designs' "$D/report.md" &&
	grep -A4 '^## Three designs' "$D/report.md" | grep -q '^| none | pd0.*| [0-9.]* \[.*| [0-9.]* \[.*| [0-9.]* \['; then
	ok "report-three-designs"
else
	ko "report-three-designs" "no row with unpatched, v2 and merged figures under '## Three designs' in $D/report.md"
fi
# The perf-CI gate against the committed baseline (deterministic figures),
# as perf CI runs it after the bench: `make gate` in the same clone.
if make -s -C "$C/bench/tree" gate BUILD="$C/bench/build" >"$D/gate.txt" 2>&1; then
	ok "gate-vs-baseline"
else
	ko "gate-vs-baseline" "$(grep -m3 REGRESSION "$D/gate.txt" | tr '\n' ' ')$(tail -1 "$D/gate.txt")"
fi
# What the series adds to a call, counted from what ran (attrib.sh, QEMU's
# per-instruction exec log, exact) and measured by the clock (icount time),
# per perf domain: two methods that share nothing but the guest and the
# inputs must agree.  The clock's figure is quantised: the 62.5 MHz counter
# ticks every 16 ns = 8 instructions at shift 1, over a pass of 100 calls
# 0.08 instructions/call, so a difference of two such figures is within
# 0.16 of the truth.  The changed lines must include energy_model.h (where
# em_cpu_energy() is).  The exec log covers emb_call() alone, not the
# functions it calls out of line: where the two kernels' emb_call() call
# different functions (disasm.sh's diff has a '-bl'/'+bl' line: 6.1's
# em_cpu_energy() calls _find_first_bit() for cpumask_first(), the merged
# design no longer does), the two methods count different things, and the
# clock's figure minus the executed one is the callees' share: reported,
# not judged.
for v in patched upstream; do
	X=$D/execprof-$v.json
	callees=$(grep -E '^[-+]bl ' "$D/disasm-$v.txt" 2>/dev/null | sed 's/.*CALL26[[:space:]]*//; s/].*//' | sort -u | paste -sd, -)
	if [ ! -s "$X" ]; then
		ko "executed-vs-clock-$v" "no $X (bench/em_bench/attrib.sh)"
	else
		for pd in $(jq '.pds[].pd' "$X"); do
			xd=$(jq ".pds[] | select(.pd == $pd) | .diff.change_per_call" "$X")
			cd=$(jq -r "[.figures[] | select(.name == \"hot_path_instructions_per_call\" and .update_hz == 0
				and .mode == \"deterministic\" and .cluster == $pd)]
				| (map(select(.variant == \"$v\"))[0].median - map(select(.variant == \"unpatched\"))[0].median)" \
				"$D/summary.json" 2>/dev/null)
			if [ -n "$callees" ] && [ -n "$cd" ] && [ -n "$xd" ]; then
				echo "# executed-vs-clock-$v-pd$pd: executed $(printf '%+.2f' "$xd"), icount $(printf '%+.2f' "$cd") instructions/call; callees changed ($callees): not compared"
			elif awk -v x="$xd" -v c="$cd" 'BEGIN { d = x - c; exit !(c != "" && x != 0 && d <= 0.16 && d >= -0.16) }'; then
				ok "executed-vs-clock-$v-pd$pd (executed $(printf '%+.2f' "$xd"), icount $(printf '%+.2f' "$cd") instructions/call)"
			else
				ko "executed-vs-clock-$v-pd$pd" "executed ${xd:-?}, icount ${cd:-?} instructions/call: more than 0.16 apart"
			fi
		done
		if jq -e '[.pds[].diff.lines[] | select(.line | test("^energy_model.h:"))] | length > 0' "$X" >/dev/null; then
			ok "executed-lines-$v ($(jq -r '[.pds[0].diff.lines[] | "\(.change * 100 | round / 100) \(.line)"] | .[0:2] | join("; ")' "$X"))"
		else
			ko "executed-lines-$v" "no energy_model.h line among the changed lines of $X"
		fi
	fi
done
finish

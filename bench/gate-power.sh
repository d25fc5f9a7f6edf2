#!/bin/bash
# bench/gate-power.sh OUTDIR [N] — what the gate can find, beside what it
# cries wolf on, measured.  For each injected size, bench/aa-repeat.sh
# runs the A/A calibration N times (default 3) with an injected column:
#   SIZES (default "1 2 4"): +K instructions per em_cpu_energy() call
#     (em_bench inject_nops=K), deterministic mode, one boot per column:
#     the deterministic instructions/call figures must be flagged
#     (OUTDIR/nops-K);
#   SLOW_SIZES (default none; "2 5 10 20" with REALTIME=1): every call
#     slowed by P % of its own time (em_bench inject_slow_pct=P, a spin
#     loop calibrated in the guest), realtime mode, BOOTS_RT boots per
#     column (run-bench.sh's default: 5, the least the gate judges): the
#     realtime ns/call figures must be flagged (OUTDIR/slow-P).
# Each run gives an A/A verdict (A vs B, same kernel) and a detection
# (A vs N: every perf domain's figure at update_hz 0 flagged), with the
# change the gate measured for the injection.  Unpatched, no updater.
# OUTDIR/gate-power.json and gate-power.txt: per size the detection rate
# and the A/A false positives of the same runs.
# `bench/gate-power.sh --tally OUTDIR` redoes the two files from the
# aa-repeat.json files already there (no run).
# Exit 0 when every size was detected in every run and no A/A run was
# flagged; 1 otherwise (a finding for a size below the gate's floor, not a
# failed run); 2 on bad arguments.
set -u
R=$(cd "$(dirname "$0")" && pwd)
TALLY=0
[ "${1:-}" = --tally ] && { TALLY=1; shift; }
OUT=${1:?usage: bench/gate-power.sh [--tally] OUTDIR [N]}
N=${2:-3}
SIZES=${SIZES-1 2 4}
[ "${REALTIME:-0}" = 1 ] && SLOW_SIZES=${SLOW_SIZES-2 5 10 20}
SLOW_SIZES=${SLOW_SIZES-}
case $N in '' | *[!0-9]* | 0) echo "gate-power: N=$N: a positive count" >&2; exit 2 ;; esac
[ -n "$SIZES$SLOW_SIZES" ] || { echo "gate-power: SIZES and SLOW_SIZES both empty" >&2; exit 2; }
rc=0 dirs=()
if [ "$TALLY" = 1 ]; then
	for kind in nops slow; do	# each kind by size, smallest first
		while read -r _ d; do dirs+=("$d"); done < <(
			for d in "$OUT/$kind"-*; do [ -d "$d" ] && echo "${d##*-} $d"; done | sort -n)
	done
	[ "${#dirs[@]}" -gt 0 ] || { echo "gate-power: $OUT has no nops-*/ or slow-*/ runs" >&2; exit 2; }
	SIZES= SLOW_SIZES=
	rc=$(jq -s 'if all(.[]; .ok) then 0 else 1 end' "${dirs[@]/%//aa-repeat.json}") || exit 1
else
	mkdir -p "$OUT" || exit 2
	[ -z "$(ls -A "$OUT")" ] || { echo "gate-power: $OUT is not empty: earlier results are kept, choose another" >&2; exit 2; }
fi
# one KIND VAR MODE WHAT SIZE: N A/A runs with VAR=SIZE injected into OUT/KIND-SIZE
one() {
	local d=$OUT/$1-$5
	echo "[gate-power $(date +%H:%M:%S)] $4, $3, $N run(s): $d"
	env "$2=$5" AA_VARIANTS=unpatched MODES="$3" QUICK=1 BOOTS=1 UPDATE_HZ=0 \
		"$R/aa-repeat.sh" "$d" "$N" || rc=1
	dirs+=("$d")
}
for k in $SIZES; do one nops AA_INJECT_NOPS deterministic "+$k instruction(s) per call" "$k"; done
for p in $SLOW_SIZES; do one slow AA_INJECT_SLOW_PCT realtime "+$p % per call" "$p"; done
for d in "${dirs[@]}"; do [ -s "$d/aa-repeat.json" ] || { echo "gate-power: $d/aa-repeat.json missing" >&2; exit 1; }; done
jq -s '{ schema: "emrcu/gate-power/2",
	what: "gate verdicts on injected regressions (em_bench inject_nops, inject_slow_pct) and on A/A, same runs (bench/aa-repeat.sh)",
	commit: .[0].commit, runs_per_size: .[0].runs,
	sizes: map({ mode: .modes,
		injected: (if .injected_slow_pct > 0 then "+\(.injected_slow_pct) %/call"
			   else "+\(.injected_instructions_per_call) instructions/call" end),
		instructions_per_call: (if .injected_slow_pct > 0 then null else .injected_instructions_per_call end),
		slow_pct: (if .injected_slow_pct > 0 then .injected_slow_pct else null end),
		boots_per_column: (if .modes == "deterministic" then .boots_per_column else .boots_per_column_realtime end),
		runs: .runs, detected: .detected, detection_rate: (.detected / .runs),
		measured_change_pct: ([.rows[].injected_change_pct // [] | .[]] | sort
			| if length > 0 then { min: .[0], median: .[length / 2 | floor], max: .[-1] } else null end),
		figures: ([.rows[].injected_figures // 0] | add),
		figures_flagged: ([.rows[].injected_flagged // 0] | add),
		aa_flagged: .flagged, aa_false_positive_rate: (.flagged / .runs),
		failed: .failed }) }' \
	$(for d in "${dirs[@]}"; do echo "$d/aa-repeat.json"; done) >"$OUT/gate-power.json" || exit 1
jq -r 'def r1: . * 10 | round / 10;
	"| mode | injected | runs | boots/column | change the gate measured, min / median / max % | runs flagged on every perf domain | perf-domain figures flagged | A/A runs flagged |",
	"|---|---|---|---|---|---|---|---|",
	(.sizes[] | "| \(.mode) | \(.injected) | \(.runs) | \(.boots_per_column) | \(.measured_change_pct | if . then "\(.min | r1) / \(.median | r1) / \(.max | r1)" else "-" end) | \(.detected) (\(.detection_rate * 100 | floor) %) | \(.figures_flagged) of \(.figures) | \(.aa_flagged) (\(.aa_false_positive_rate * 100 | floor) %) |")' \
	"$OUT/gate-power.json" | tee "$OUT/gate-power.txt"
exit $rc

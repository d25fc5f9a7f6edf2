#!/bin/bash
# results/gate-power.sh OUTDIR [N] — what the gate can find, beside what it
# cries wolf on, measured: for each injected size K in SIZES (default
# "1 2 4" instructions per em_cpu_energy() call, em_bench inject_nops=K),
# results/aa-repeat.sh runs the A/A calibration N times (default 3) with
# the injected column (OUTDIR/nops-K).  Each run gives an A/A verdict (A vs
# B, same kernel) and a detection count (A vs N: the deterministic
# instructions/call figures without an updater the gate flagged).
# OUTDIR/gate-power.json and gate-power.txt: per size the detection rate
# (runs in which every perf domain was flagged) and the A/A false
# positives.  Deterministic mode on unpatched, one boot per column, no
# updater (the gate's instruction floor applies there, results/gate.conf).
# Exit 0 when every size was detected in every run and no A/A run was
# flagged; 1 otherwise; 2 on bad arguments.
set -u
R=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: results/gate-power.sh OUTDIR [N]}
N=${2:-3}
SIZES=${SIZES:-1 2 4}
case $N in '' | *[!0-9]* | 0) echo "gate-power: N=$N: a positive count" >&2; exit 2 ;; esac
mkdir -p "$OUT" || exit 2
[ -z "$(ls -A "$OUT")" ] || { echo "gate-power: $OUT is not empty: earlier results are kept, choose another" >&2; exit 2; }
rc=0
for k in $SIZES; do
	echo "[gate-power $(date +%H:%M:%S)] +$k instruction(s) per call, $N run(s): $OUT/nops-$k"
	AA_INJECT_NOPS=$k AA_VARIANTS=unpatched MODES=deterministic QUICK=1 BOOTS=1 UPDATE_HZ=0 \
		"$R/aa-repeat.sh" "$OUT/nops-$k" "$N" || rc=1
done
jq -s '{ schema: "emrcu/gate-power/1",
	what: "gate verdicts on injected regressions (em_bench inject_nops) and on A/A, same runs (results/aa-repeat.sh)",
	commit: .[0].commit, mode: "deterministic", runs_per_size: .[0].runs,
	sizes: map({ instructions_per_call: .injected_instructions_per_call,
		runs: .runs, detected: .detected, detection_rate: (.detected / .runs),
		aa_flagged: .flagged, aa_false_positive_rate: (.flagged / .runs),
		failed: .failed }) }' \
	$(for k in $SIZES; do echo "$OUT/nops-$k/aa-repeat.json"; done) >"$OUT/gate-power.json" || exit 1
jq -r '"| + instructions/call | runs | detected on every perf domain | A/A flagged |",
	"|---|---|---|---|",
	(.sizes[] | "| \(.instructions_per_call) | \(.runs) | \(.detected) (\(.detection_rate * 100 | floor) %) | \(.aa_flagged) (\(.aa_false_positive_rate * 100 | floor) %) |")' \
	"$OUT/gate-power.json" | tee "$OUT/gate-power.txt"
exit $rc

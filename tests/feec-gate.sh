#!/bin/bash
# tests/feec-gate.sh — the regression gate on the in-situ figure: the
# scenario-feec suite's summary (QUICK feec), unpatched column against
# patched, through emrcu-compare as perf CI runs it.  The series adds about
# 1.4 instructions to each compute_energy() call (README, feec): the gate's
# one-instruction rule (results/gate.conf, unit instructions/call without an
# updater) must flag energy_insns_per_call.idle as a regression, by its
# absolute floor, not by the percentage one.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
suite=feec-gate
. "$TOP/tests/lib.sh"
S=$BUILD/test-scenarios/feec/summary.json
G=$BUILD/test-scenarios/feec-gate.json
if [ ! -f "$S" ]; then
	ko "summary" "no $S: run the scenario-feec suite first"
	finish
fi
"$TOP/results/emrcu-compare" "$S:unpatched" "$S:patched" --json "$G" >"$G.txt" 2>&1
sel='.figures[] | select(.name == "energy_insns_per_call.idle")'
r=$(jq -r "$sel | \"\(.regression) \(.min_effect_abs // \"none\") \(.base_median) -> \(.new_median)\"" "$G" 2>/dev/null)
case $r in
"true 0.5 "*) ok "flags-series-cost" "${r#true 0.5 } instructions per call, floor 0.5" ;;
"") ko "flags-series-cost" "no energy_insns_per_call.idle in $G" ;;
*) ko "flags-series-cost" "want a regression at the 0.5-instruction floor, got: $r" ;;
esac
finish

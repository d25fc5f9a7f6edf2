#!/bin/bash
# tests/gate-control.sh — the regression gate's controls on real guests, in
# `make test`: `make gate-control` (unpatched, deterministic, one boot per
# column) must pass the A/A (columns A, B: nothing flagged) and flag the
# injected instruction (column N: em_bench inject_nops=1) on every perf
# domain.  One PASS/FAIL line per check, from the gate's own JSON.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
suite=gate-control
. "$TOP/tests/lib.sh"
D=$BUILD/test-gate-control
rm -rf "$D"
make -s -C "$TOP" gate-control NOPS=1 GATE_CONTROL_DIR="$D" >"$BUILD/test-gate-control.log" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "run"
else
	ko "run" "make gate-control exit $rc: $(tail -1 "$BUILD/test-gate-control.log")"
fi
g=$D/aa/gate.json
n=$(jq '.regressions' "$g" 2>/dev/null)
c=$(jq '.compared' "$g" 2>/dev/null)
if [ "${n:-x}" = 0 ] && [ "${c:-0}" -gt 0 ]; then
	ok "aa-flags-nothing" "$c figures compared"
else
	ko "aa-flags-nothing" "A/A: ${n:-no} regression(s) of ${c:-no} figures; $g"
fi
j=$D/aa/detect.json
sel='.figures[] | select(.name == "hot_path_instructions_per_call" and .mode == "deterministic" and .update_hz == 0)'
pds=$(jq -r "$sel | .cluster" "$j" 2>/dev/null)
[ -n "$pds" ] || ko "nop-flagged" "no instructions/call figure in $j"
for pd in $pds; do
	r=$(jq -r "$sel | select(.cluster == $pd) | \"\(.regression) \(.base_median) -> \(.new_median)\"" "$j")
	case $r in
	true*) ok "nop-flagged-pd$pd" "${r#true }" ;;
	*) ko "nop-flagged-pd$pd" "not flagged: ${r#* }" ;;
	esac
done
finish

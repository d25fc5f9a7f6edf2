#!/bin/bash
# tests/scenario-quick.sh NAME... — declared scenarios end to end in `make test`:
# scenarios/run.sh NAME (QUICK) on real guests, then each check of the
# scenario's verdict (scenarios/src/verdict.h thresholds) as a PASS:/FAIL:
# line, plus the report section and plot it must produce.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
D=$BUILD/test-scenarios
. "$TOP/tests/lib.sh"
for n in "$@"; do
	suite=scenario/$n
	rm -rf "${D:?}/$n"
	mkdir -p "$D"
	"$TOP/scenarios/run.sh" "$n" "$D" QUICK=1 >"$D/$n.log" 2>&1
	r=$?
	# verdict lines: "PASS|FAIL|INFO: what [run]: value op limit"; the last
	# line is the scenario's total.
	t=$D/$n/table.txt
	if [ -f "$t" ]; then
		grep -E '^(PASS|FAIL): ' "$t" | grep -v ' check(s), ' | sed -E "s/^(PASS|FAIL): /\1: scenario\/$n: /"
	fi
	if [ "$r" -eq 0 ]; then
		ok "run"
	else
		ko "run" "scenarios/run.sh exit $r: $(grep -v '^$' "$D/$n.log" | tail -1)"
	fi
	if grep -q "^### $n" "$D/$n/report.md" 2>/dev/null && ls "$D/$n"/scenario_*.png >/dev/null 2>&1 &&
		grep -q "^\*$n: its key figure per step or workload.* mode, n = " "$D/$n/report.md"; then
		ok "report"
	else
		ko "report" "no '### $n' section, plot or plot caption in $D/$n"
	fi
done
finish

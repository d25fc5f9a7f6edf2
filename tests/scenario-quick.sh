#!/bin/bash
# tests/scenario-quick.sh NAME... — declared scenarios end to end in `make test`:
# scenarios/run.sh NAME (QUICK) on real guests, then each check of the
# scenario's verdict (scenarios/src/verdict.h thresholds) as a PASS:/FAIL:
# line, plus the report section and plot it must produce.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
D=$BUILD/test-scenarios
rc=0
for n in "$@"; do
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
		echo "PASS: scenario/$n/run"
	else
		echo "FAIL: scenario/$n/run (scenarios/run.sh exit $r: $(grep -v '^$' "$D/$n.log" | tail -1))"
		rc=1
	fi
	if grep -q "^### $n" "$D/$n/report.md" 2>/dev/null && ls "$D/$n"/scenario_*.png >/dev/null 2>&1; then
		echo "PASS: scenario/$n/report"
	else
		echo "FAIL: scenario/$n/report (no '### $n' section or plot in $D/$n)"
		rc=1
	fi
done
exit $rc

#!/bin/bash
# tests/latency-control.sh — negative control of wakeup-latency-det's
# verdict: the same QUICK scenario, with em_bench holding the updater's CPU
# for 30 us after every update on the patched run (inject_hold_ns, outside
# the timed update: work the harness does not see).  Each judged kind of
# check must catch it on the updater load: the p99 against the baseline and
# the bound on the tail share; and the scenario must fail.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
D=$BUILD/test-scenarios/control
suite=latency-control
. "$TOP/tests/lib.sh"
n=wakeup-latency-det
rm -rf "$D"
mkdir -p "$D"
"$TOP/scenarios/run.sh" "$n" "$D" QUICK=1 INJECT='inject_hold_ns=30000' >"$D/$n.log" 2>&1
r=$?
t=$D/$n/table.txt
if [ "$r" -eq 3 ]; then
	ok "fails" "scenarios/run.sh exit 3: a target missed"
else
	ko "fails" "scenarios/run.sh exit $r, want 3 (a target missed): $(grep -v '^$' "$D/$n.log" | tail -1)"
fi
grep -q '^negative control: .*inject_hold_ns=30000' "$t" 2>/dev/null
result "declared" "$([ $? -eq 0 ] || echo "no 'negative control:' line in $t")"
for c in 'ucpu_wakeup_p99_us: |median' 'bound: share of wakeups'; do
	if grep -qF "FAIL: upd10000hz $c" "$t" 2>/dev/null; then
		ok "caught/$c"
	else
		ko "caught/$c" "no 'FAIL: upd10000hz $c' line in $t"
	fi
done
finish

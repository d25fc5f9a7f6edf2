#!/bin/bash
# results/tests/run-tests.sh - what `make -C results test` runs: every unit
# test program and the report test; each prints `PASS: results/<case>` or
# `FAIL: results/<case> (why)` lines.  Ends with "N passed, N failed" and
# exits non-zero when anything failed.  A test program that exits non-zero
# without a FAIL line (a crash) counts as a failure.
set -u
R=$(cd "$(dirname "$0")/.." && pwd)
cd "$R"
passed=0
failed=0
run() { # name, command...
	local name=$1 out rc p f
	shift
	out=$("$@" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(PASS|FAIL): '
	p=$(printf '%s\n' "$out" | grep -c '^PASS: ')
	f=$(printf '%s\n' "$out" | grep -c '^FAIL: ')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: results/$name (exit $rc without a FAIL line)"
		printf '%s\n' "$out" | tail -5 | sed 's/^/    /'
		f=1
	elif [ $((p + f)) -eq 0 ]; then
		echo "FAIL: results/$name (checked nothing)"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}
run test_stats tests/test_stats
run test_compare tests/test_compare "$R/emrcu-compare"
run test_execprof tests/test_execprof
run test_summarize tests/test_summarize "$R/emrcu-summarize" "$R/emrcu-compare" "$R/tests/data"
run test_report tests/test_report.sh
run test_aa tests/test_aa.sh
run test_aa_repeat tests/test_aa_repeat.sh
run test_publish tests/test_publish.sh
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

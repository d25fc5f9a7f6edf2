#!/bin/bash
# results/tests/run-tests.sh - what `make -C results test` runs: every unit
# test program (cmocka: TAP lines, read through tests/cases.sed) and the
# script tests (`PASS: results/<case>` / `FAIL: results/<case> (why)` lines).  Ends with "N passed, N failed" and
# exits non-zero when anything failed.  A test program that exits non-zero
# without a FAIL line (a crash) counts as a failure.
set -u
R=$(cd "$(dirname "$0")/.." && pwd)
cd "$R"
passed=0
failed=0
run() { # name, command...
	local name=$1 out cases rc p f
	shift
	out=$("$@" 2>&1)
	rc=$?
	cases=$(printf '%s\n' "$out" | sed -nEf "$R/../tests/cases.sed")
	printf '%s\n' "$cases" | grep -E '^(PASS|FAIL): '
	printf '%s\n' "$out" | grep -A3 '^not ok' | grep '^#' | sed 's/^/    /'
	p=$(printf '%s\n' "$cases" | grep -c '^PASS: ')
	f=$(printf '%s\n' "$cases" | grep -c '^FAIL: ')
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
run test_export tests/test_export.sh
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

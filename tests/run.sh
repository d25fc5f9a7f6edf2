#!/bin/bash
# tests/run.sh [SUITE...] — what `make test` (and so CI) runs.
#
# Each suite is a command that prints `PASS: <name>` / `FAIL: <name> (why)`
# lines, or TAP lines (`ok N - <name>` / `not ok N - <name>`: the cmocka tests).  `make bench`, `make stress QUICK=1` and `make guest-check` run as
# a newcomer's first command on a fresh clone (tests/in-clone.sh).  This script runs the suites in order, keeps each one's full output
# in build/test-logs/<suite>.log, and ends with the line `N passed, N failed`.
# A suite that exits non-zero without a FAIL line, or that checked nothing,
# counts as one failure: a suite that cannot fail is a defect.  Every case
# (SKIP: lines too) also goes to build/test-logs/make-test.tap (TAP 13),
# which Perl's TAP::Parser must read back with the same counts.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"
BUILD=${BUILD:-$TOP/build}
logs=$BUILD/test-logs
mkdir -p "$logs"

# name | command (run from the top of the tree)
SUITES=(
	"lib-unit|make -s -C lib test"
	"harness|tests/harness.sh"
	"runner-unit|make -s -C qemu-runner test"
	"driver-unit|make -s -C bench/driver test"
	"results-unit|make -s -C results test"
	"kernels|tests/kernels.sh"
	"series|tests/series.sh"
	"guest-unit|make -s -C bench/guest test"
	"scenarios-unit|make -s -C scenarios test"
	"runner-e2e|qemu-runner/tests/e2e.sh unpatched"
	"guest-check|bench/guest-check.sh --placement \$(cat qemu-runner/default.topo) unpatched patched"
	"guest-check-2c|tests/in-clone.sh $BUILD/clones/guest-check guest-check TOPO=4x400+2x1024 'VARIANTS=unpatched patched'"
	"kunit-patched|tests/kunit.sh patched"
	"kunit-patched-debug|tests/kunit.sh patched-debug"
	"kunit-upstream|tests/kunit.sh upstream"
	"late-online|tests/late-online.sh unpatched patched patched-debug upstream"
	"em-trace|tests/em-trace.sh patched"
	"em_bench|bench/em_bench/test.sh"
	"bench-quick|tests/bench-quick.sh"
	"gate-control|tests/gate-control.sh"
	"cells-parallel|tests/cells-parallel.sh"
	"scenario-heat|RUNS='patched:static patched:best-static patched:runtime@10 patched:runtime@1000 patched:oracle' tests/scenario-quick.sh thermal-ramp"
	"scenario-quick|tests/scenario-quick.sh driver-mismodel placement chip-binning"
	"scenario-task-profiles|RUNS='patched:static patched:best-static patched:runtime@100' tests/scenario-quick.sh task-profiles"
	"scenario-feec|tests/scenario-quick.sh feec"
	"feec-gate|tests/feec-gate.sh"
	"scenario-latency|tests/scenario-quick.sh wakeup-latency-det"
	"latency-control|tests/latency-control.sh"
	"stress-quick|tests/in-clone.sh $BUILD/clones/stress stress QUICK=1"
	"stress-broken|stress/run.sh QUICK VARIANT=patched-broken EXPECT=fail EXPECT_RULE=kasan"
	"stress-pipe-selftest|stress/run.sh QUICK TORTURE_PARAMS=inject_stale_read=1 EXPECT=fail EXPECT_RULE=reader-pipe"
	"stress-upstream|stress/run.sh QUICK VARIANT=upstream"
	"stress-upstream-held|stress/run.sh QUICK VARIANT=upstream TORTURE_PARAMS=inject_held_put=1 EXPECT=fail EXPECT_RULE=held-table"
	"faults|stress/faults.sh patched-debug"
	"schemas|tests/schemas.sh"
)
[ $# -gt 0 ] && want=" $* " || want=

passed=0
failed=0
start=$(date +%s)
tap=$logs/make-test.tap
ntap=0
echo "TAP version 13" >"$tap"
# tap_line ok|not-ok NAME [DIRECTIVE]: one TAP test line.
tap_line() {
	ntap=$((ntap + 1))
	printf '%s %d - %s%s\n' "${1/-/ }" "$ntap" "$2" "${3:+ # $3}" >>"$tap"
}
for s in "${SUITES[@]}"; do
	name=${s%%|*}
	cmd=${s#*|}
	[ -n "$want" ] && [[ $want != *" $name "* ]] && continue
	t0=$(date +%s)
	echo "=== $name: $cmd"
	bash -c "$cmd" >"$logs/$name.log" 2>&1
	rc=$?
	sed -nEf tests/cases.sed "$logs/$name.log" >"$logs/$name.cases"
	p=$(grep -c '^PASS: ' "$logs/$name.cases")
	f=$(grep -c '^FAIL: ' "$logs/$name.cases")
	grep -E '^(PASS|FAIL): ' "$logs/$name.cases"
	while IFS= read -r l; do
		case $l in
		PASS:*) tap_line ok "$name: ${l#PASS: }" ;;
		FAIL:*) tap_line not-ok "$name: ${l#FAIL: }" ;;
		SKIP:*) tap_line ok "$name: ${l#SKIP: }" SKIP ;;
		esac
	done <"$logs/$name.cases"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL: $name (exit $rc, no FAIL line; last lines of $logs/$name.log:)"
		tail -15 "$logs/$name.log" | sed 's/^/    /'
		tap_line not-ok "$name: exit $rc without a FAIL line"
		f=1
	elif [ $((p + f)) -eq 0 ]; then
		echo "FAIL: $name (checked nothing)"
		tap_line not-ok "$name: checked nothing"
		f=1
	elif [ "$f" -gt 0 ]; then
		echo "    (full output: $logs/$name.log)"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	echo "--- $name: $p passed, $f failed in $(($(date +%s) - t0))s"
done
# The TAP file read back by a standard parser: its counts must be ours.
nskip=$(grep -c ' # SKIP' "$tap")
read -r tp tf < <({ cat "$tap"; echo "1..$ntap"; } |
	perl -MTAP::Parser -e 'my $p = TAP::Parser->new({ tap => do { local $/; <STDIN> } });
		1 while $p->next; print scalar($p->passed), " ", scalar($p->failed), "\n"')
if [ "${tp:-x}" = $((passed + nskip)) ] && [ "${tf:-x}" = "$failed" ]; then
	echo "PASS: make-test/tap-file-read-back ($tap: $tp ok, $tf not ok)"
	tap_line ok "make-test: TAP file read back with the same counts"
	passed=$((passed + 1))
else
	echo "FAIL: make-test/tap-file-read-back ($tap: TAP::Parser read ${tp:-?} ok / ${tf:-?} not ok, this run $((passed + nskip)) / $failed)"
	tap_line not-ok "make-test: TAP file read back with the same counts"
	failed=$((failed + 1))
fi
echo "1..$ntap" >>"$tap"
echo "total time $(($(date +%s) - start))s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

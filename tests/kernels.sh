#!/bin/bash
# Build every kernel variant `make test` needs (the fix patch is tested on
# patched-debug, which carries it, rather than on a fifth kernel, patched-fixed:
# one cold build, ~8 min, less) and the merged design (upstream: its KUnit
# port, torture and bench column; PREEMPT_NONE like patched, so about half
# of its objects are ccache hits); one PASS/FAIL line each, with
# the build time and ccache hit rate (kernel/variant.sh measures them).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
suite=build
. "$TOP/tests/lib.sh"
for v in ${TEST_VARIANTS:-unpatched patched patched-debug upstream}; do
	if "$TOP/kernel/variant.sh" "$v"; then
		ok "$v" "$(cat "$BUILD/$v/build-time" 2>/dev/null)"
	else
		ko "$v" "kernel/variant.sh $v failed"
	fi
done
finish

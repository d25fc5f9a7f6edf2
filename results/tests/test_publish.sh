#!/bin/bash
# results/tests/test_publish.sh - results/publish.sh as the Makefile calls it:
# RUNDIR relative to the top of the tree.  A finished run becomes latest; a
# run without summary.json and a failed run leave latest where it was.
set -u
R=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/emrcu-publish-XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/results/runs/a" "$T/results/runs/b"
cp "$R/publish.sh" "$T/results/"
echo '{}' >"$T/results/runs/a/summary.json"
cd "$T"
suite=results
. "$R/../tests/lib.sh"

out=$(results/publish.sh results/runs/a 2>&1)
l=$(readlink results/latest)
result publish.relative_rundir "$([ "$l" = runs/a ] || echo "latest -> '$l' after publishing results/runs/a: $out")"

out=$(results/publish.sh results/runs/b 2>&1); rc=$?
l=$(readlink results/latest)
result publish.no_summary_kept "$([ $rc -ne 0 ] && [ "$l" = runs/a ] || echo "exit $rc, latest -> '$l': $out")"

out=$(results/publish.sh --failed results/runs/b 2>&1); rc=$?
l=$(readlink results/latest)
result publish.failed_kept "$([ $rc -eq 1 ] && [ "$l" = runs/a ] && [[ $out == *"unchanged (runs/a)"* ]] ||
	echo "exit $rc, latest -> '$l': $out")"
finish

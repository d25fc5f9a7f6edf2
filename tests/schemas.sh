#!/bin/bash
# tests/schemas.sh — the result files make test wrote, against their JSON
# Schemas (results/schema/, results/check-schema.py): summary.json (the
# committed baseline, the fresh-clone bench, the scenarios), gate.json (the
# fresh-clone bench's gate), meta.json (every guest run under $BUILD).
# Each schema's negative control: one valid file with a required field
# removed or of the wrong type must be refused.  Runs after bench-quick and
# the scenario suites (tests/run.sh); a kind with no file is a FAIL.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
S=$TOP/results/schema
CHECK=$TOP/results/check-schema.py
suite=schema
. "$TOP/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check KIND JQ-DEFECT FILE...: every file valid, the defect refused.
check() {
	local kind=$1 defect=$2
	shift 2
	if [ $# -eq 0 ]; then
		ko "$kind" "no $kind.json under $BUILD: run the suites that write them first"
		return
	fi
	"$CHECK" "$S/$kind.schema.json" "$@" >"$tmp/$kind.out" 2>&1
	local bad
	bad=$(grep -vc '^ok: ' "$tmp/$kind.out")
	if [ "$bad" -eq 0 ]; then
		ok "$kind" "$# file(s) valid"
	else
		ko "$kind" "$bad of $# refused: $(grep -v '^ok: ' "$tmp/$kind.out" | head -2 | tr '\n' ' ')"
	fi
	jq "$defect" "$1" >"$tmp/defect.json"
	if "$CHECK" "$S/$kind.schema.json" "$tmp/defect.json" >"$tmp/defect.out" 2>&1; then
		ko "$kind/negative-control" "$defect on $1 passed"
	else
		ok "$kind/negative-control" "$defect: $(sed 's/^bad: [^:]*: //' "$tmp/defect.out" | head -1)"
	fi
}

mapfile -t summaries < <(ls "$TOP/results/baselines/quick.json" \
	"$BUILD"/clones/bench/tree/results/latest/summary.json \
	"$BUILD"/test-scenarios/*/summary.json 2>/dev/null)
mapfile -t gates < <(ls "$BUILD"/clones/bench/tree/results/latest/gate.json 2>/dev/null)
mapfile -t metas < <(find "$BUILD" -name meta.json -not -path '*/tests/data/*' \
	-not -path "$BUILD/pristine/*" -not -path "$BUILD/*/src/*" 2>/dev/null | sort)
check summary 'del(.figures[0].median)' "${summaries[@]}"
check gate '.figures[0].regression = "no"' "${gates[@]}"
check meta 'del(.exit_kind)' "${metas[@]}"
finish

#!/bin/bash
# results/tests/test_aa.sh - the A/A step of `make bench AA=1`
# (results/aa-calibrate.sh) on synthetic run directories laid out as
# bench/run-bench.sh AA=1 writes them: equal columns pass and store a noise
# file with provenance that `make gate` accepts; a column 3 % slower is
# flagged and stores nothing; a run without columns is refused.
set -u
R=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/emrcu-aa-XXXXXX)
trap 'rm -rf "$T"' EXIT
DATA=$R/tests/data/runs

mkrun() { # dir, then "column source" pairs
	local d=$1 col src
	shift
	mkdir -p "$d/runs"
	printf 'modes = deterministic\nboots = 1\nnruns = 10\nupdate_hz = 0\nrun.quick = 1\nrun.aa_variants = unpatched\ntopo = test\n' \
		>"$d/cells.conf"
	while [ $# -gt 1 ]; do
		col=$1 src=$2
		shift 2
		cp -r "$DATA/$src" "$d/runs/unpatched-deterministic-hz0-$col-b1"
	done
}
suite=results
. "$R/../tests/lib.sh"

# 1. A/A on two draws of the same kernel: passes, stores, gate accepts it
D=$T/equal
mkrun "$D" A det-unpatched-1 B det-unpatched-2
AA_NOISE=$T/noise-equal.json "$R/aa-calibrate.sh" "$D" >"$T/equal.out" 2>&1
rc=$?
why=
[ "$rc" -eq 0 ] || why="exit $rc: $(tail -1 "$T/equal.out")"
[ -n "$why" ] || [ -s "$T/noise-equal.json" ] || why="noise file not stored"
[ -n "$why" ] || jq -e '.schema == "emrcu/noise/1" and (.figures | length) == 4 and
	.provenance.aa_gate.regressions == 0 and .provenance.boots_per_column == 1 and
	(.provenance.run | length) > 0' "$T/noise-equal.json" >/dev/null || why="noise file content/provenance"
[ -n "$why" ] || jq -e '.regressions == 0 and .compared == 4' "$D/aa/gate.json" >/dev/null ||
	why="aa/gate.json"
[ -n "$why" ] || "$R/emrcu-compare" --noise "$T/noise-equal.json" "$D/aa/A/summary.json" \
	"$D/aa/B/summary.json" >"$T/gate-noise.out" 2>&1 || why="gate with the stored noise file: exit $?"
[ -n "$why" ] || ! grep -q '0.50\*' "$T/gate-noise.out" || why="calibrated bands not used"
result aa.equal_columns_pass_and_store "$why"

# 2. column B 3 % slower on pd0 (as if one column ran another kernel)
D=$T/shift
mkrun "$D" A det-unpatched-1 B det-unpatched-2
b=$D/runs/unpatched-deterministic-hz0-B-b1/em_bench.json
jq -c '.readers |= map(if .pd == 0 then .ns_per_call |= map(. * 1.03) else . end)' "$b" >"$b.new" &&
	mv "$b.new" "$b"
AA_NOISE=$T/noise-shift.json "$R/aa-calibrate.sh" "$D" >"$T/shift.out" 2>&1
rc=$?
why=
[ "$rc" -eq 1 ] || why="exit $rc, expected 1"
[ -n "$why" ] || grep -q 'A/A REGRESSION: hot_path_ns_per_call unpatched deterministic none hz=0 pd0' \
	"$T/shift.out" || why="regression not named"
[ -n "$why" ] || [ ! -e "$T/noise-shift.json" ] || why="a failed A/A stored its noise file"
[ -n "$why" ] || jq -e '.provenance.aa_gate.regressions == 2' "$D/aa/noise.json" >/dev/null ||
	why="aa/noise.json does not record the failed A/A"
result aa.shifted_column_flagged_not_stored "$why"

# 3. a run directory without A/B columns
D=$T/plain
mkdir -p "$D/runs"
cp -r "$DATA/det-unpatched-1" "$D/runs/unpatched-deterministic-hz0-b1"
AA_NOISE=$T/noise-plain.json "$R/aa-calibrate.sh" "$D" >"$T/plain.out" 2>&1
rc=$?
why=
[ "$rc" -eq 1 ] || why="exit $rc, expected 1"
[ -n "$why" ] || grep -q 'no column A' "$T/plain.out" || why="error does not say why"
result aa.not_an_aa_run_refused "$why"

# 4. the report of an A/A run shows both columns and the verdict
D=$T/equal
"$R/emrcu-summarize" -o "$D/summary.json" "$D"/runs/*/ >/dev/null 2>&1
/usr/bin/python3 "$R/report.py" "$D" >/dev/null 2>&1
why=
grep -q '^## A/A noise calibration' "$D/report.md" || why="no A/A section"
[ -n "$why" ] || grep -qF '| hot_path_ns_per_call | deterministic | none | no updater | pd0 (4 OPPs) | 74.00 [74.00, 74.00] | 20 | ±0.00 % | 74.00 [74.00, 74.00] | 20 | ±0.00 % | +0.000 % | 0.5 % | pass |' \
	"$D/report.md" || why="A/B row missing"
[ -n "$why" ] || grep -qF '4 figures compared, 0 regressions** (pass)' "$D/report.md" || why="verdict missing"
result aa.report_shows_columns "$why"
finish

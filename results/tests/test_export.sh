#!/bin/bash
# results/tests/test_export.sh - emrcu-export on the synthetic test runs'
# summary: one BMF measure per figure carrying its median and interval, and
# refusals (an unknown format, a summary that is not one).
set -u
R=$(cd "$(dirname "$0")/.." && pwd)
suite=results
. "$R/../tests/lib.sh"
T=$(mktemp -d /tmp/emrcu-export-XXXXXX)
trap 'rm -rf "$T"' EXIT
cp -r "$R/tests/data/runs" "$T/"
(cd "$T/runs" && SOURCE_DATE_EPOCH=0 "$R/emrcu-summarize" */) 2>/dev/null
S=$T/runs/summary.json

why=
"$R/emrcu-export" -o "$T/bmf.json" "$S" 2>"$T/err" || why="exit $?: $(cat "$T/err")"
[ -n "$why" ] || [ "$(jq '[.[] | keys[]] | length' "$T/bmf.json")" = "$(jq '.figures | length' "$S")" ] ||
	why="not one measure per figure"
# the hot-path ratio of pd0, deterministic, no updater: the summary's figure
sel='.figures[] | select(.name == "hot_path_ratio" and .mode == "deterministic" and .update_hz == 0 and .cluster == 0)'
want=$(jq -c "$sel | [.median, .ci_low, .ci_high]" "$S")
got=$(jq -c '."patched/deterministic/none/hz0/pd0".hot_path_ratio | [.value, .lower_value, .upper_value]' "$T/bmf.json")
[ -n "$why" ] || { [ -n "$want" ] && [ "$want" = "$got" ]; } ||
	why="hot_path_ratio of patched/deterministic/none/hz0/pd0: exported $got, summary $want"
# every measure: the median of its figure, between its bounds
[ -n "$why" ] || jq -e '[.[][] | .lower_value <= .value and .value <= .upper_value] | all' \
	"$T/bmf.json" >/dev/null || why="a value outside its interval"
result export.bmf_one_measure_per_figure "$why"

why=
"$R/emrcu-export" --format junit "$S" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q 'only bmf' "$T/err" || why="an unknown format was not refused"
echo '{"schema": "nope"}' >"$T/bad.json"
[ -n "$why" ] || { "$R/emrcu-export" "$T/bad.json" >/dev/null 2>&1; [ $? -eq 2 ]; } ||
	why="a file that is no summary was exported"
result export.refusals "$why"
finish

#!/bin/bash
# results/tests/test_report.sh - report.py on the synthetic test runs:
# report.md has the cover-letter tables with the numbers of summary.json,
# the plots exist and are PNGs, the report copies numbers rather than
# computing them, and unusable input is refused.  One PASS:/FAIL: line per case.
set -u
R=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-/usr/bin/python3}
T=$(mktemp -d /tmp/emrcu-report-XXXXXX)
trap 'rm -rf "$T"' EXIT
cp -r "$R/tests/data/runs" "$T/"
D=$T/runs

case_() { # name, then a list of "description|command" checks; first failure wins
	local name=$1 c why=
	shift
	for c in "$@"; do
		if ! bash -c "${c#*|}" >/dev/null 2>&1; then
			why=${c%%|*}
			break
		fi
	done
	if [ -z "$why" ]; then
		echo "PASS: results/report.$name"
	else
		echo "FAIL: results/report.$name ($why)"
	fi
}
has() { printf '%s' "grep -qF -- '$1' '$D/report.md'"; }

(cd "$D" && SOURCE_DATE_EPOCH=0 "$R/emrcu-summarize" */) 2>/dev/null
# two boots of a latency run's cyclictest output, for the CCDF plot
for b in 0 1; do
	mkdir -p "$D/lat-b$b"
	cp "$R/../scenarios/tests/data/cyclictest.json" "$D/lat-b$b/lat-idle.json"
done
(cd "$D" && "$PY" "$R/report.py" .) 2>"$T/err"
rc=$?

case_ generates \
	"report.py exit $rc: $(tail -1 "$T/err")|[ $rc -eq 0 ]" \
	"no report.md|[ -s '$D/report.md' ]" \
	"hot-path ratio table|$(has '| pd0 (4 OPPs) | 74.00 [74.00, 74.00] | 40 | ±0.00 % | 2 | 76.00 [76.00, 76.00] | 20 | ±0.00 % | 1 | 1.0270 [1.0270, 1.0270] |')" \
	"section per mode|$(has '### patched vs unpatched: realtime mode, preempt=none, patched with 100 Hz')" \
	"instructions table|$(has '| unpatched | none | no updater | pd0 (4 OPPs) | 1 | 37.00 [37.00, 37.00] | 40 |')" \
	"update cost per update and per OPP|$(has '| 8.0100 [8.0000, 8.0200] | 6 | ±0.12 % | 2.0025 [2.0000, 2.0050] |')" \
	"scaling fit|$(has '| slope µs/OPP | 1.5000 [1.4997, 1.5003] | ')" \
	"fit in instructions|$(has '| slope instructions/OPP | 750.00 [749.83, 750.17] | 38.52 [38.52, 38.52] |')" \
	"curvature of the callback|$(has 'share of the largest point (point) | 0.0 % | 42.6 % |')" \
	"small-n CI flagged|$(has '(n too small: 93.8 % coverage)')" \
	"scenario section|$(has '### three_small')" \
	"OPP table from params.json|$(has '| 500000 | 700000 | 20000 |')" \
	"statistics constants|$(has '| bootstrap_seed | 20230522 |')" \
	"every-figure table|$(has '| hot_path_ratio | patched/unpatched | deterministic |')" \
	"provenance: QEMU|$(has '| QEMU | 7.2.19 |')" \
	"provenance: kernels|$(has '| kernel `patched` | 6.1.192-emrcu-patched, config 0123abcd0123')" \
	"provenance: harness row|$(has '| harness commit | ')"

case_ three_designs \
	"section|$(has '## Three designs: unpatched, v2, merged (v6.9)')" \
	"row with unpatched and v2, no merged run|$(has '| none | pd0 (4 OPPs) little | 37.00 [37.00, 37.00] | 37.50 [37.50, 37.50] (+0.50) | 1.0135 [1.0135, 1.0135] | – | – |')" \
	"published speed-up: says what it needs|$(has 'Not measured in this run: it needs `upstream-p14` and `upstream`')"

case_ plots \
	"hot-path plot missing|head -c 8 '$D/hot_path_deterministic_none.png' | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'" \
	"realtime plot missing|[ -s '$D/hot_path_realtime_none.png' ]" \
	"scaling plot missing|head -c 4 '$D/update_scaling_patched_deterministic_none.png' | grep -q PNG" \
	"a PNG without its SVG|for p in '$D'/*.png; do grep -q '<svg' \"\${p%.png}.svg\" || exit 1; done" \
	"plots not linked|$(has '](update_scaling_patched_deterministic_none.png)')" \
	"no headline ratio plot|head -c 4 '$D/hot_path_ratio_deterministic_none.png' | grep -q PNG && $(has '](hot_path_ratio_deterministic_none.png)')" \
	"a plot without its caption (mode, n, interval)|$(has '*Update cost vs OPP count; lower panel: residuals of the fit. Deterministic mode, n = ')" \
	"no realtime ECDF|head -c 4 '$D/hot_path_ecdf_realtime_none.png' | grep -q PNG && $(has '](hot_path_ecdf_realtime_none.png)')" \
	"no latency CCDF|head -c 4 '$D/latency_ccdf_three_small.png' | grep -q PNG && $(has '](latency_ccdf_three_small.png)')" \
	"timeline steps not read as a condition axis|$PY -c 'import sys; sys.path.insert(0, \"$R\"); import report as r; c = r.step_condition; assert c([\"s0_25C\", \"s1_85C\"])[1] == [25.0, 85.0] and c([\"s0_m40mV\", \"s1_p40mV\"])[1] == [-40.0, 40.0] and c([\"s0_25C\"]) is None and c([\"w1\", \"w2\"]) is None'" \
	"cyclictest -N buckets not read as ns|printf '%s' '{\"resolution_in_ns\": 1, \"thread\": {\"0\": {\"histogram\": {\"5000\": 3, \"20000\": 1}, \"cycles\": 4}}}' >'$T/ns.json' && $PY -c 'import sys; sys.path.insert(0, \"$R\"); import report as r; x = r.lat_ccdf(\"$T/ns.json\"); assert x[0] == [5.0, 20.0] and x[1] == [0.25, 0.125], x'"

# the report copies summary.json: change a median there, see it in report.md
"$PY" - "$D/summary.json" <<'PYEOF'
import json, sys
p = sys.argv[1]
s = json.load(open(p))
for f in s["figures"]:
    if f["name"] == "hot_path_ratio" and f["mode"] == "deterministic" and f["cluster"] == 0:
        f["median"] = f["ci_low"] = f["ci_high"] = 1.2345
json.dump(s, open(p, "w"))
PYEOF
(cd "$D" && "$PY" "$R/report.py" .) 2>/dev/null
case_ numbers_from_summary \
	"edited median not shown|$(has '| 1.2345 [1.2345, 1.2345] |')"

mkdir -p "$T/empty" "$T/wrong"
echo '{"schema": "emrcu/summary/0", "figures": []}' >"$T/wrong/summary.json"
echo '{"schema": ' >"$T/garbage.json"
mkdir -p "$T/garbage" && cp "$T/garbage.json" "$T/garbage/summary.json"
case_ unusable_input \
	"missing summary accepted|'$PY' '$R/report.py' '$T/empty'; [ \$? -eq 2 ]" \
	"wrong schema accepted|'$PY' '$R/report.py' '$T/wrong'; [ \$? -eq 2 ]" \
	"bad JSON accepted|'$PY' '$R/report.py' '$T/garbage'; [ \$? -eq 2 ]" \
	"no argument accepted|'$PY' '$R/report.py'; [ \$? -eq 2 ]"

# Host timings: a hyperfine --export-json file in the run directory becomes
# the "Host timings" table (synthetic file, the shape hyperfine 1.15 writes).
cat >"$D/host-timings-boot.json" <<'HFEOF'
{"results": [{"command": "boot unpatched to init (emrcu-run --cmd true), realtime mode",
  "mean": 2.5, "stddev": 0.25, "median": 2.4, "user": 1.0, "system": 0.5,
  "min": 2.2, "max": 2.9, "times": [2.2, 2.4, 2.9], "exit_codes": [0, 0, 0]}]}
HFEOF
(cd "$D" && "$PY" "$R/report.py" .) 2>/dev/null
case_ host_timings \
	"no section|$(has '## Host timings')" \
	"row with n, mean, spread, median, range|$(has '| boot unpatched to init (emrcu-run --cmd true), realtime mode | 3 | 2.50 | ±10.0 % | 2.40 | 2.20 – 2.90 | 0 | host-timings-boot.json |')"
rm -f "$D/host-timings-boot.json"
(cd "$D" && "$PY" "$R/report.py" .) 2>/dev/null
case_ host_timings_optional \
	"section without a hyperfine file|! grep -q '## Host timings' '$D/report.md'"

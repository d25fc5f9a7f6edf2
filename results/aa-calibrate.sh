#!/bin/bash
# results/aa-calibrate.sh RUNDIR — the A/A step of `make bench AA=1`.
#
# RUNDIR/runs/*-A-b*/ and *-B-b*/ are two columns of the same kernel(s) and
# settings (bench/run-bench.sh AA=1 boots them interleaved).  Each column is
# summarised on its own (RUNDIR/aa/A, RUNDIR/aa/B), then:
#   1. the A/A gate: emrcu-compare A B with the gate's thresholds and no
#      noise file (what `make gate` does when results/baselines/noise.json
#      is absent) -> aa/gate.txt, aa/gate.json; it must flag nothing;
#   2. the noise band: emrcu-compare --calibrate A B -> aa/noise.json, with
#      a "provenance" object (run, settings, commit, A/A verdict);
#   3. when (1) passed and AA_STORE=1: aa/noise.json is installed
#      atomically as AA_NOISE (default results/baselines/noise.json).
#   4. with a column N (AA_INJECT_NOPS: em_bench adds N instructions per
#      call; AA_INJECT_SLOW_PCT: it slows every call by P %):
#      emrcu-compare A N -> aa/detect.txt, aa/detect.json; every figure the
#      injection is made for (one per perf domain, update_hz 0: the
#      deterministic instructions/call for nops, the realtime ns/call for
#      a slowdown) must be flagged: the gate's positive control;
#      aa/detect-summary.json: the injection, how many of those figures
#      were flagged, their measured changes, regressions elsewhere.
# Exit 0: calibrated (and stored); 1: the A/A gate flagged a figure (noise
# larger than the gate allows: nothing stored), the positive control was
# missed on a perf domain, or a step failed.
set -u
R=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$R/.." && pwd)
D=${1:?usage: results/aa-calibrate.sh RUNDIR}
AA_STORE=${AA_STORE:-1}
AA_NOISE=${AA_NOISE:-$R/baselines/noise.json}
say() { echo "[aa $(date +%H:%M:%S)] $*"; }
die() { say "error: $*" >&2; exit 1; }

for t in emrcu-summarize emrcu-compare; do
	[ -x "$R/$t" ] || die "results/$t missing: run make tools"
done
cols="A B"
ls -d "$D"/runs/*-N-b*/ >/dev/null 2>&1 && cols="A B N"
for col in $cols; do
	mkdir -p "$D/aa/$col" || exit 1
	dirs=("$D"/runs/*-"$col"-b*/)
	[ -d "${dirs[0]}" ] || die "$D/runs has no column $col (*-$col-b*/): not an AA=1 run"
	"$R/emrcu-summarize" -o "$D/aa/$col/summary.json" "${dirs[@]}" \
		2>"$D/aa/$col/summarize.log" ||
		die "column $col: emrcu-summarize failed: $(tail -1 "$D/aa/$col/summarize.log")"
	say "column $col: ${#dirs[@]} runs -> $D/aa/$col/summary.json"
done

"$R/emrcu-compare" --json "$D/aa/gate.json" "$D/aa/A/summary.json" "$D/aa/B/summary.json" \
	>"$D/aa/gate.txt" 2>&1
gate_rc=$?
[ "$gate_rc" -le 1 ] || die "A/A gate: unusable input: $(tail -1 "$D/aa/gate.txt")"
say "A/A gate (A = base, B = new; no noise file): $(tail -1 "$D/aa/gate.txt")"

"$R/emrcu-compare" --calibrate "$D/aa/A/summary.json" "$D/aa/B/summary.json" \
	>"$D/aa/noise.raw.json" 2>"$D/aa/calibrate.log" ||
	die "calibration failed: $(tail -1 "$D/aa/calibrate.log")"

# A field of the run's declaration (bench/run-bench.sh); "-" is none.
conf() { sed -n "s/^$1 = //p" "$D/cells.conf" | sed 's/^-$//'; }
commit=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$TOP" status --porcelain -- bench results/*.c results/*.h results/*.conf results/pairs 2>/dev/null)" ] ||
	commit="$commit+local changes"
rel=$(realpath --relative-to="$TOP" "$D")
jq --arg run "$rel" --arg created "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	--arg commit "$commit" --arg variants "$(conf run.aa_variants)" \
	--arg modes "$(conf modes)" --arg boots "$(conf boots)" --arg nruns "$(conf nruns)" \
	--arg boots_rt "$(conf boots_realtime)" \
	--arg quick "$(conf run.quick)" --arg update_hz "$(conf update_hz)" --arg topo "$(conf topo)" \
	--arg cpus "$(nproc)" \
	--arg cpu "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" \
	--argjson gate_rc "$gate_rc" --slurpfile g "$D/aa/gate.json" \
	--slurpfile a "$D/aa/A/summary.json" '
	. + { provenance: {
		what: "A/A noise calibration: make bench AA=1 (bench/run-bench.sh AA=1, results/aa-calibrate.sh); measured, not edited",
		run: $run, created: $created, commit: $commit,
		variants: ($variants | split(" ")), columns: ["A", "B"],
		interleaved: "boot by boot: A1 B1 A2 B2 ...",
		quick: ($quick == "1"), modes: ($modes | split(" ")),
		boots_per_column: ($boots | tonumber), nruns: ($nruns | tonumber),
		boots_per_column_realtime: ($boots_rt | if . == "" then null else tonumber end),
		update_hz: ($update_hz | split(" ") | map(tonumber)), topology: $topo,
		kernel_releases: ([$a[0].constants.runs[] | .release] | unique),
		qemu: ([$a[0].constants.runs[] | .meta.qemu_version] | unique),
		host: { cpus: ($cpus | tonumber), cpu: $cpu },
		gate_baseline: "results/baselines/quick.json: QUICK=1 BOOTS=1 (results/baselines/README.md); this calibration uses the same QUICK settings, boots_per_column boots per column",
		aa_gate: { exit: $gate_rc, compared: $g[0].compared,
			   regressions: $g[0].regressions,
			   max_abs_change_pct: ([$g[0].figures[] | .change_pct | numbers | fabs] | max) }
	} }' "$D/aa/noise.raw.json" >"$D/aa/noise.json.tmp" &&
	mv -f "$D/aa/noise.json.tmp" "$D/aa/noise.json" || die "provenance: jq failed"
rm -f "$D/aa/noise.raw.json"
say "noise bands: $D/aa/noise.json ($(jq '.figures | length' "$D/aa/noise.json") figures, largest A/A |%change| $(jq '[.figures[].observed_pct] | max' "$D/aa/noise.json") %)"

if [ "$gate_rc" -ne 0 ]; then
	grep '^REGRESSION: ' "$D/aa/gate.txt" | sed 's/^/[aa] A\/A /'
	say "FAILED: the A/A gate flagged $(grep -c '^REGRESSION: ' "$D/aa/gate.txt") figure(s): noise above the gate's thresholds; $AA_NOISE not updated"
	exit 1
fi
if [ -d "$D/aa/N" ]; then
	"$R/emrcu-compare" --json "$D/aa/detect.json" "$D/aa/A/summary.json" "$D/aa/N/summary.json" \
		>"$D/aa/detect.txt" 2>&1
	[ $? -le 1 ] || die "positive control: unusable input: $(tail -1 "$D/aa/detect.txt")"
	slow=$(conf run.aa_inject_slow_pct)
	if [ "${slow:-0}" != 0 ]; then
		injection="+$slow % per call (inject_slow_pct)"
		want='.figures[] | select(.name == "hot_path_ns_per_call" and .mode != "deterministic" and .update_hz == 0)'
	else
		injection="+$(conf run.aa_inject_nops) instruction(s) per call (inject_nops)"
		want='.figures[] | select(.name == "hot_path_instructions_per_call" and .mode == "deterministic" and .update_hz == 0)'
	fi
	jq --arg inj "$injection" "{ injection: \$inj, figures: [$want] | length,
		flagged: [$want | select(.regression)] | length,
		change_pct: [$want | .change_pct],
		regressions: [.figures[] | select(.regression)] | length }" \
		"$D/aa/detect.json" >"$D/aa/detect-summary.json" || die "positive control: jq failed"
	total=$(jq .figures "$D/aa/detect-summary.json")
	hit=$(jq .flagged "$D/aa/detect-summary.json")
	other=$(jq .regressions "$D/aa/detect-summary.json")
	say "positive control (N = A $injection): flagged on $hit of $total perf domain(s) (changes $(jq -c .change_pct "$D/aa/detect-summary.json") %); $other regression(s) in all"
	grep '^REGRESSION: ' "$D/aa/detect.txt" | sed 's/^/[aa] A\/N /'
	[ "$total" -gt 0 ] && [ "$hit" -eq "$total" ] ||
		{ say "FAILED: the gate missed the injection ($injection)"; exit 1; }
fi
if [ "$AA_STORE" = 1 ]; then
	cp "$D/aa/noise.json" "$AA_NOISE.tmp.$$" && mv -f "$AA_NOISE.tmp.$$" "$AA_NOISE" ||
		die "cannot write $AA_NOISE"
	say "stored: $AA_NOISE (used by make gate)"
fi

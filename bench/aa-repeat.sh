#!/bin/bash
# bench/aa-repeat.sh OUTDIR [N] — how often does the A/A gate pass?
#
# Runs the A/A calibration of `make bench AA=1` (bench/run-bench.sh AA=1,
# AA_STORE=0: nothing stored) N times (default 20), each into OUTDIR/aa-I,
# and tallies the gate's verdict of each:
#   pass     the gate flagged nothing (aa/gate.json regressions == 0)
#   flagged  the gate flagged a figure of the same kernel: a false positive
#   failed   the run itself failed (boot, build, summary): not a verdict
# With AA_INJECT_NOPS=K (1, 2 or 4) each run also has column N (em_bench
# inject_nops=K, run-bench.sh) and the tally counts how many of the
# deterministic instructions/call figures without an updater the gate
# flagged in A vs N (aa/detect-summary.json): its detection power for +K
# instructions per call, beside the A/A false positives of the same runs;
# AA_INJECT_SLOW_PCT=P the same for a P % slowdown per call and the
# realtime ns/call figures (MODES=realtime);
# a missed detection is a finding, not a failed run (MIN_DETECT, default
# N: runs in which every perf domain was flagged).
# MODES, QUICK, BOOTS, NRUNS, AA_VARIANTS, TOPO, UPDATE_HZ pass through to run-bench.sh
# (its defaults: realtime mode boots at least 5 times a column, the
# least the gate judges a realtime figure on, results/gate.conf).
# OUTDIR/aa-repeat.json and aa-repeat.txt record every run and the tally.
# Exit 0 when passes >= MIN_PASS (default: 19 of 20, i.e. ceil(0.95 N)) and
# no run failed; 1 otherwise; 2 on bad arguments.
# BENCH (default bench/run-bench.sh) is the command run; tests replace it.
set -u
R=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$R/.." && pwd)
OUT=${1:?usage: bench/aa-repeat.sh OUTDIR [N]}
N=${2:-20}
BENCH=${BENCH:-$TOP/bench/run-bench.sh}
case $N in '' | *[!0-9]* | 0) echo "aa-repeat: N=$N: a positive count" >&2; exit 2 ;; esac
MIN_PASS=${MIN_PASS:-$(((95 * N + 99) / 100))}
NOPS=${AA_INJECT_NOPS:-0}
SLOW=${AA_INJECT_SLOW_PCT:-0}
MIN_DETECT=${MIN_DETECT:-$N}
export AA_INJECT_NOPS=$NOPS AA_INJECT_SLOW_PCT=$SLOW
INJ=0
[ "$NOPS" = 0 ] && [ "$SLOW" = 0 ] || INJ=1
say() { echo "[aa-repeat $(date +%H:%M:%S)] $*"; }

mkdir -p "$OUT" || exit 2
[ -z "$(ls -A "$OUT")" ] || { echo "aa-repeat: $OUT is not empty: earlier results are kept, choose another" >&2; exit 2; }
rows=$OUT/rows.jsonl
: >"$rows"
pass=0 flagged=0 failed=0 detected=0

for i in $(seq 1 "$N"); do
	d=$OUT/aa-$i
	t0=$(date +%s)
	RUNDIR=$d AA=1 AA_STORE=0 "$BENCH" >"$d.log" 2>&1
	rc=$?
	g=$d/aa/gate.json
	det=null ndet=null dchg=null
	ds=$d/aa/detect-summary.json
	if [ "$INJ" = 1 ] && [ -s "$ds" ]; then
		ndet=$(jq .figures "$ds")
		det=$(jq .flagged "$ds")
		dchg=$(jq -c .change_pct "$ds")
		[ "$ndet" -gt 0 ] && [ "$det" -eq "$ndet" ] && detected=$((detected + 1))
		# aa-calibrate exits 1 on a missed detection: that is the tally's
		[ "$rc" -eq 1 ] && rc=0
	fi
	if [ -s "$g" ] && regs=$(jq -e '.regressions' "$g" 2>/dev/null); then
		if [ "$regs" -eq 0 ] && [ "$rc" -eq 0 ]; then
			verdict=pass; pass=$((pass + 1))
		elif [ "$regs" -gt 0 ]; then
			verdict=flagged; flagged=$((flagged + 1))
		else
			verdict=failed; failed=$((failed + 1))
		fi
		figs=$(jq -c '[.figures[] | select(.regression) |
			"\(.name) \(.variant) \(.mode) hz=\(.update_hz // 0) pd\(.cluster // "-") \(.change_pct)%"]' \
			"$g" 2>/dev/null || echo '[]')
		maxc=$(jq '[.figures[] | .change_pct | numbers | fabs] | max // 0' "$g")
	else
		regs=null verdict=failed figs='[]' maxc=null
		failed=$((failed + 1))
	fi
	jq -cn --argjson i "$i" --arg v "$verdict" --argjson rc "$rc" --argjson regs "$regs" \
		--argjson figs "$figs" --argjson maxc "$maxc" --argjson s $(($(date +%s) - t0)) \
		--argjson det "$det" --argjson ndet "$ndet" --argjson dchg "$dchg" \
		--arg dir "aa-$i" '{run: $i, dir: $dir, verdict: $v, exit: $rc, regressions: $regs,
		flagged: $figs, max_abs_change_pct: $maxc, seconds: $s,
		injected_flagged: $det, injected_figures: $ndet,
		injected_change_pct: $dchg}' >>"$rows"
	say "run $i/$N: $verdict (exit $rc, max |%change| $maxc$([ "$verdict" = flagged ] && echo ", flagged $figs")$([ "$INJ" = 1 ] && echo "; injection flagged on $det of $ndet perf domains, changes $dchg %"))"
done

ok=0
[ "$pass" -ge "$MIN_PASS" ] && [ "$failed" -eq 0 ] && ok=1
[ "$INJ" = 0 ] || [ "$detected" -ge "$MIN_DETECT" ] || ok=0
conf=$OUT/aa-1/cells.conf
jq -s --argjson n "$N" --argjson min "$MIN_PASS" --argjson ok "$ok" \
	--arg modes "$(sed -n 's/^modes = //p' "$conf" 2>/dev/null)" \
	--arg boots "$(sed -n 's/^boots = //p' "$conf" 2>/dev/null)" \
	--arg boots_rt "$(sed -n 's/^boots_realtime = //p' "$conf" 2>/dev/null)" \
	--argjson nops "$NOPS" --argjson slow "$SLOW" --argjson inj "$INJ" \
	--argjson detected "$detected" --argjson min_detect "$MIN_DETECT" \
	--arg commit "$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)" '
	{ schema: "emrcu/aa-repeat/1",
	  what: "A/A gate repeated: bench/run-bench.sh AA=1 AA_STORE=0, each run gated A vs B without a noise file",
	  commit: $commit, modes: $modes, boots_per_column: $boots,
	  boots_per_column_realtime: $boots_rt, runs: $n, min_pass: $min,
	  pass: (map(select(.verdict == "pass")) | length),
	  flagged: (map(select(.verdict == "flagged")) | length),
	  failed: (map(select(.verdict == "failed")) | length),
	  injected_instructions_per_call: $nops, injected_slow_pct: $slow,
	  detected: (if $inj == 1 then $detected else null end),
	  min_detect: (if $inj == 1 then $min_detect else null end),
	  ok: ($ok == 1), rows: . }' "$rows" >"$OUT/aa-repeat.json.tmp" &&
	mv -f "$OUT/aa-repeat.json.tmp" "$OUT/aa-repeat.json" || exit 1
msg="A/A gate: $pass of $N passed, $flagged flagged, $failed failed (need >= $MIN_PASS passes, no failed run)"
[ "$INJ" = 0 ] || msg="$msg; the injection ($([ "$SLOW" = 0 ] && echo "+$NOPS instruction(s)/call" || echo "+$SLOW %/call")) flagged on every perf domain in $detected of $N (need >= $MIN_DETECT)"
echo "$msg" >"$OUT/aa-repeat.txt"
say "$msg: $OUT/aa-repeat.json"
[ "$ok" = 1 ]

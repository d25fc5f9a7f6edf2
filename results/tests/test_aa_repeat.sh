#!/bin/bash
# results/tests/test_aa_repeat.sh - bench/aa-repeat.sh tallies the A/A
# gate's verdicts right.  BENCH is a stand-in for bench/run-bench.sh that
# writes what an AA=1 run leaves (cells.conf, aa/gate.json) with the verdict
# scripted per run in $T/script (line I: pass | flag | fail).
set -u
R=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/emrcu-aarep-XXXXXX)
trap 'rm -rf "$T"' EXIT

cat >"$T/fake-bench" <<'EOF'
#!/bin/bash
n=$(($(cat "$SCRIPT_CTR" 2>/dev/null || echo 0) + 1))
echo "$n" >"$SCRIPT_CTR"
what=$(sed -n "${n}p" "$SCRIPT")
mkdir -p "$RUNDIR/aa"
printf 'modes = realtime\nboots = 2\n' >"$RUNDIR/cells.conf"
case $what in
pass) echo '{"compared":2,"regressions":0,"figures":[{"name":"hot_path_ns_per_call","change_pct":1.5,"regression":false},{"name":"x","change_pct":-3,"regression":false}]}' >"$RUNDIR/aa/gate.json"; exit 0 ;;
flag) echo '{"compared":2,"regressions":1,"figures":[{"name":"hot_path_ns_per_call","variant":"unpatched","mode":"realtime","cluster":1,"change_pct":7.5,"regression":true}]}' >"$RUNDIR/aa/gate.json"; exit 1 ;;
detect|miss) echo '{"compared":2,"regressions":0,"figures":[]}' >"$RUNDIR/aa/gate.json"
	# what results/aa-calibrate.sh leaves of A vs N
	jq -n --argjson hit "$([ "$what" = detect ] && echo 2 || echo 1)" \
		'{injection: "fake", figures: 2, flagged: $hit, change_pct: [0.9, 1.2], regressions: $hit}' \
		>"$RUNDIR/aa/detect-summary.json"
	[ "$what" = detect ]; exit ;;
*) echo "boot failed"; exit 1 ;;
esac
EOF
chmod +x "$T/fake-bench"

run() { # name, N, verdicts...
	local name=$1 n=$2
	shift 2
	printf '%s\n' "$@" >"$T/$name.script"
	SCRIPT=$T/$name.script SCRIPT_CTR=$T/$name.ctr BENCH=$T/fake-bench \
		"$R/../bench/aa-repeat.sh" "$T/$name" "$n" >"$T/$name.out" 2>&1
}
suite=results
. "$R/../tests/lib.sh"
check() { # name, expected exit, rc, jq test of aa-repeat.json
	local why=
	[ "$3" -eq "$2" ] || why="exit $3, expected $2: $(tail -1 "$T/$1.out")"
	[ -n "$why" ] || jq -e "$4" "$T/$1/aa-repeat.json" >/dev/null || why="aa-repeat.json: not $4"
	result "aa_repeat.$1" "$why"
}

# 19 of 20 pass: enough
v=(); for i in $(seq 1 19); do v+=(pass); done
run one_flag_of_20 20 "${v[@]:0:7}" flag "${v[@]:7}"
check one_flag_of_20 0 $? '.pass == 19 and .flagged == 1 and .failed == 0 and .ok and .min_pass == 19
	and .rows[7].verdict == "flagged" and (.rows[7].flagged[0] | test("hot_path_ns_per_call unpatched realtime.*pd1 7.5"))
	and .modes == "realtime"'

# 18 of 20: not enough
run two_flags_of_20 20 flag "${v[@]:0:18}" flag
check two_flags_of_20 1 $? '.pass == 18 and .flagged == 2 and (.ok | not)'

# a run that failed is not a verdict: the tally is not ok
run failed_run 3 pass fail pass
check failed_run 1 $? '.pass == 2 and .failed == 1 and (.ok | not) and .rows[1].regressions == null'

# AA_INJECT_NOPS: detection tallied beside the A/A; a miss is a finding
# (the run is an A/A pass), and fewer detections than MIN_DETECT fail it
AA_INJECT_NOPS=1 run injected_all 2 detect detect
check injected_all 0 $? '.pass == 2 and .detected == 2 and .injected_instructions_per_call == 1
	and .rows[0].injected_flagged == 2 and .rows[0].injected_figures == 2 and .ok'
AA_INJECT_NOPS=1 run injected_miss 2 detect miss
check injected_miss 1 $? '.pass == 2 and .failed == 0 and .detected == 1 and .rows[1].injected_flagged == 1 and (.ok | not)'
AA_INJECT_SLOW_PCT=10 MIN_DETECT=1 run slowdown 2 miss detect
check slowdown 0 $? '.detected == 1 and .injected_slow_pct == 10 and .injected_instructions_per_call == 0
	and .rows[0].injected_change_pct == [0.9, 1.2] and .ok'

# nothing is overwritten; a bad count is refused
why=
"$R/../bench/aa-repeat.sh" "$T/one_flag_of_20" 2 >"$T/reuse.out" 2>&1
[ $? -eq 2 ] && grep -q 'not empty' "$T/reuse.out" || why="a used OUTDIR was not refused"
[ -n "$why" ] || { "$R/../bench/aa-repeat.sh" "$T/new" x >/dev/null 2>&1; [ $? -eq 2 ]; } || why="N=x accepted"
result aa_repeat.refuses_bad_arguments "$why"
finish

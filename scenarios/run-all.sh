#!/bin/sh
# scenarios/run-all.sh RUNDIR [QUICK=1] [TOPO=SPEC] [BOOTS=N] [SCENARIOS='a b']
#
# Every declared scenario (scenarios/*.conf, or SCENARIOS) through run.sh
# into RUNDIR/NAME/; a failing scenario does not stop the others.  Then one
# RUNDIR/summary.json over every run directory that produced data, and a
# one-line verdict per scenario.  Exit: the worst of the scenarios' exits
# (run.sh), ordered 0 < 3 (a target missed) < 1 (a run failed) < 2 (one
# could not run at all: bad file or environment).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
[ $# -ge 1 ] || { echo "usage: scenarios/run-all.sh RUNDIR [QUICK=1] [TOPO=SPEC] [BOOTS=N] [SCENARIOS='a b']" >&2; exit 2; }
out=$1
shift
for a in "$@"; do
	case $a in
	SCENARIOS=*) SCENARIOS=${a#SCENARIOS=} ;;
	QUICK=* | TOPO=* | RUNS=* | BOOTS=*) ;;
	*) echo "scenarios/run-all.sh: unknown argument $a" >&2; exit 2 ;;
	esac
done
# pass QUICK/TOPO/RUNS/BOOTS through; drop SCENARIOS
args=
for a in "$@"; do case $a in SCENARIOS=*) ;; *) args="$args $a" ;; esac; done
names=${SCENARIOS:-$(for f in "$HERE"/*.conf; do basename "$f" .conf; done)}
mkdir -p "$out"
worst=0
rank() { case $1 in 0) echo 0 ;; 3) echo 1 ;; 1) echo 2 ;; *) echo 3 ;; esac; }
: >"$out/verdicts.txt"
for n in $names; do
	start=$(date +%s)
	echo "$n: running (a line per boot)" >&2
	# The whole output into NAME.log, the driver's line per boot also to
	# stderr: a scenario runs for minutes.
	# shellcheck disable=SC2086 # one word per argument
	{ "$HERE/run.sh" "$n" "$out" $args; echo $? >"$out/$n.rc"; } 2>&1 | tee "$out/$n.log" |
		grep --line-buffered -E '^\[cells [0-9:]+\] (\(|FAILED)' |
		sed -u 's/^\[cells [0-9:]*\] /  /' >&2
	rc=$(cat "$out/$n.rc" 2>/dev/null || echo 1)
	rm -f "$out/$n.rc"
	echo "$n: exit $rc ($(($(date +%s) - start)) s): $(grep -E '^(PASS|FAIL|MEASURED): [a-z-]+: ' "$out/$n/table.txt" 2>/dev/null | tail -1)" |
		tee -a "$out/verdicts.txt"
	[ "$(rank "$rc")" -gt "$(rank "$worst")" ] && worst=$rc
done
dirs=$(for f in "$out"/*/*/scenario.json; do [ -f "$f" ] && dirname "$f"; done)
# shellcheck disable=SC2086 # one word per run directory
[ -n "$dirs" ] && "$TOP/results/emrcu-summarize" -o "$out/summary.json" $dirs >/dev/null ||
	{ [ "$(rank "$worst")" -lt 2 ] && worst=1; }
exit "$worst"

#!/bin/sh
# scenarios/run.sh NAME RUNDIR [QUICK=1] [TOPO=SPEC] [RUNS='V[:em] ...'] [BOOTS=N]
#                  [INJECT='EM_BENCH_PARAM=N ...']
#
# One declared scenario (scenarios/NAME.conf) end to end (make tools first:
# runner, results tools, guest programs, driver; kernels and modules are
# built or checked through bench/kmod.sh when the cells are planned), boot
# every run (bench/driver/emrcu-cells), the verdict (emrcu-scenario
# derive), then RUNDIR/NAME/summary.json (results/emrcu-summarize) and
# report.md (results/report.py).  QUICK/TOPO/RUNS/BOOTS may also come from the
# environment (make bench QUICK=1 SCENARIO=NAME).  INJECT: em_bench
# parameters of every run but the first (latency, wakeup), a defect the
# verdict must catch (tests/latency-control.sh).
# Exit: 0 pass, 1 a run failed, 2 bad scenario/environment, 3 a target
# missed (a finding: the runs ran).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
usage() {
	echo "usage: scenarios/run.sh NAME RUNDIR [QUICK=1] [TOPO=SPEC] [RUNS='V[:em] ...'] [BOOTS=N] [INJECT='P=N ...']" >&2
	exit 2
}
[ $# -ge 2 ] || usage
name=$1
out=$2
shift 2
for a in "$@"; do
	case $a in
	QUICK=*) QUICK=${a#QUICK=} ;;
	TOPO=*) TOPO=${a#TOPO=} ;;
	RUNS=*) RUNS=${a#RUNS=} ;;
	BOOTS=*) BOOTS=${a#BOOTS=} ;;
	INJECT=*) INJECT=${a#INJECT=} ;;
	*) usage ;;
	esac
done
conf=$HERE/$name.conf
[ -f "$conf" ] || { echo "scenarios/run.sh: no scenario $name ($conf)" >&2; exit 2; }

# Built by make's prerequisites (make tools), not here; the driver checks
# the guest programs.
for t in qemu-runner/emrcu-run bench/driver/emrcu-cells results/emrcu-summarize scenarios/emrcu-scenario; do
	[ -x "$TOP/$t" ] || { echo "scenarios/run.sh: $t missing: run make tools" >&2; exit 2; }
done


# The boots are cells of the one driver (bench/driver, kind scenario), run
# from this declaration; then the scenario's verdict from what they left.
mkdir -p "$out/$name"
decl=$out/$name/cells.conf
{
	echo "kind = scenario"
	echo "file = $conf"
	echo "outdir = $out"
	echo "quick = ${QUICK:-0}"
	[ -n "${TOPO:-}" ] && echo "topo = $TOPO"
	[ -n "${RUNS:-}" ] && echo "runs = $RUNS"
	[ -n "${BOOTS:-}" ] && echo "boots = $BOOTS"
	[ -n "${INJECT:-}" ] && echo "inject = $INJECT"
} >"$decl"
set --
[ "${QUICK:-0}" = 1 ] && set -- "$@" --quick
[ -n "${TOPO:-}" ] && set -- "$@" --topo "$TOPO"
[ -n "${RUNS:-}" ] && set -- "$@" --runs "$RUNS"
[ -n "${BOOTS:-}" ] && set -- "$@" --boots "$BOOTS"
[ -n "${INJECT:-}" ] && set -- "$@" --inject "$INJECT"

# The kernels the runs name, built (or found up to date) by the one builder
# before the cells are planned: a scenario may name a variant that neither
# make test nor the em_bench part builds (stale-marks: patched-fixed).
plan=$("$HERE/emrcu-scenario" plan "$@" "$conf") || exit 2
for v in $(printf '%s\n' "$plan" | sed -n 's/^### run \([^:]*\):.*/\1/p' | sort -u); do
	"$TOP/kernel/variant.sh" "$v" >&2 || { echo "scenarios/run.sh: kernel $v did not build" >&2; exit 2; }
done
rc=0
"$TOP/bench/driver/emrcu-cells" run "$decl" "$out" || rc=$?
[ "$rc" -eq 2 ] && exit 2
rc=0
"$HERE/emrcu-scenario" derive "$@" --outdir "$out" "$conf" || rc=$?
[ "$rc" -eq 2 ] && exit 2

# Figures of the runs that produced data (failed runs have no scenario.json).
dirs=$(for f in "$out/$name"/*/scenario.json; do [ -f "$f" ] && dirname "$f"; done)
if [ -z "$dirs" ]; then
	echo "scenarios/run.sh: $name: no run produced data" >&2
	exit 1
fi
# shellcheck disable=SC2086 # one word per run directory
"$TOP/results/emrcu-summarize" --command "scenarios/run.sh $name RUNDIR QUICK=${QUICK:-0}${TOPO:+ TOPO=$TOPO}${RUNS:+ RUNS='$RUNS'}${BOOTS:+ BOOTS=$BOOTS}${INJECT:+ INJECT='$INJECT'}" \
	-o "$out/$name/summary.json" $dirs || rc=1
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
	/usr/bin/python3 "$TOP/results/report.py" "$out/$name" || rc=1
else
	echo "scenarios/run.sh: python3-matplotlib missing: no report.md" >&2
	rc=1
fi
echo "scenarios/run.sh: $name: $out/$name/{table.txt,verdict.json,summary.json,report.md} (exit $rc)"
exit $rc

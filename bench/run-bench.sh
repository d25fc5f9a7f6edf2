#!/bin/bash
# bench/run-bench.sh — what `make bench` runs for em_bench.
#
# For each preemption model, the unpatched kernel runs the readers alone and
# each runtime-EM variant runs them with the updater at every UPDATE_HZ, plus
# one update-cost scaling run; each configuration is booted BOOTS times, in
# deterministic mode (and realtime mode unless QUICK=1).  Every boot writes
# a run directory under $RUNDIR; emrcu-summarize and report.py turn them
# into summary.json, report.md and plots there.  The caller (the Makefile)
# points results/latest at $RUNDIR only when everything succeeded.
#
# Environment (defaults declared here, printed into the run):
#   RUNDIR      output directory (required)
#   QUICK=1     deterministic mode only, fewer boots
#   BENCH_PAIRS "numerator:baseline ..." variants compared (results/pairs)
#   UPDATE_HZ   updater rates for runtime-EM variants
#   TOPO        cluster spec (default: emrcu-topo --default)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
RUNDIR=${RUNDIR:?RUNDIR must be set}
QUICK=${QUICK:-0}
UPDATE_HZ=${UPDATE_HZ:-0 100 1000 10000}
BASELINES=${BASELINES:-unpatched unpatched-preempt}
NUMERATORS=${NUMERATORS:-patched patched-preempt}
TEST_PDS=4,8,16,32,64
if [ "$QUICK" = 1 ]; then
	MODES=${MODES:-deterministic}
	BOOTS=${BOOTS:-2}
	NRUNS=${NRUNS:-200}
else
	MODES=${MODES:-deterministic realtime}
	BOOTS=${BOOTS:-3}
	NRUNS=${NRUNS:-400}
fi
RUN=$TOP/qemu-runner/emrcu-run
TOPO=${TOPO:-$("$TOP/qemu-runner/emrcu-topo" --default)}

say() { echo "[bench $(date +%H:%M:%S)] $*"; }
mkdir -p "$RUNDIR/runs" || exit 1
cat >"$RUNDIR/bench.conf" <<EOF
topo=$TOPO
modes=$MODES
boots=$BOOTS
nruns=$NRUNS
update_hz=$UPDATE_HZ
baselines=$BASELINES
numerators=$NUMERATORS
test_pds=$TEST_PDS
quick=$QUICK
EOF

# Kernels and modules first (each up to date in seconds).
for v in $BASELINES $NUMERATORS; do
	"$TOP/kernel/variant.sh" "$v" || exit 1
	"$TOP/bench/kmod.sh" "$v" bench/platform bench/em_bench >/dev/null || exit 1
done

# configurations: "variant update_hz scaling"
configs=()
for v in $BASELINES; do configs+=("$v 0 0"); done
for v in $NUMERATORS; do
	# A variant without the runtime API (e.g. PATCHES=<dir> on the pristine
	# tree) runs the readers only, as the unpatched kernel does.
	if ! grep -q em_dev_update_perf_domain "$BUILD/$v/src/include/linux/energy_model.h"; then
		configs+=("$v 0 0")
		continue
	fi
	for hz in $UPDATE_HZ; do configs+=("$v $hz 0"); done
	configs+=("$v 0 1")
done
total=$((${#configs[@]} * BOOTS * $(echo $MODES | wc -w)))
n=0
failed=0
for mode in $MODES; do
	for c in "${configs[@]}"; do
		set -- $c
		v=$1 hz=$2 scaling=$3
		mod=$BUILD/$v/mod
		params="nruns=$NRUNS update_hz=$hz mode_hint=$mode"
		tag=$v-$mode-hz$hz
		what="update_hz=$hz"
		if [ "$scaling" = 1 ]; then
			params="nruns=20 scaling=1 mode_hint=$mode"
			tag=$v-$mode-scaling
			what="update-cost scaling"
		fi
		for b in $(seq 1 "$BOOTS"); do
			n=$((n + 1))
			out=$RUNDIR/runs/$tag-b$b
			say "($n/$total) $v $mode $what boot $b"
			if ! "$RUN" --variant "$v" --mode "$mode" --topo "$TOPO" \
				--module "$mod/platform/emrcu_platform.ko:test_pds=$TEST_PDS" \
				--module "$mod/em_bench/em_bench.ko:$params" \
				--timeout 300 --idle-timeout 120 --outdir "$out" >"$out.log" 2>&1; then
				say "FAILED: $v $mode $what boot $b: $(tail -1 "$out.log")"
				failed=$((failed + 1))
			fi
		done
	done
done
[ "$failed" -eq 0 ] || { say "$failed run(s) failed; see $RUNDIR/runs/*.log"; exit 1; }

# Instruction-level explanation of the hot-path difference, for the report.
for p in $NUMERATORS; do
	b=${BASELINES%% *}
	case $p in *-preempt) b=unpatched-preempt ;; esac
	"$TOP/bench/em_bench/disasm.sh" "$b" "$p" >"$RUNDIR/disasm-$p.txt" 2>&1 ||
		say "warning: disasm.sh $b $p failed"
done

say "summarising $(ls -d "$RUNDIR"/runs/*/ | wc -l) runs"
make -s -C "$TOP/results" >/dev/null || exit 1
"$TOP/results/emrcu-summarize" -o "$RUNDIR/summary.json" "$RUNDIR"/runs/*/ || exit 1

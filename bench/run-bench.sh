#!/bin/bash
# bench/run-bench.sh — what `make bench` runs for em_bench.
#
# For each preemption model, the unpatched kernel runs the readers alone (at
# every UPDATE_HZ above 0 beside em_bench's null updater: the same-rate
# baseline) and each runtime-EM variant runs them with the updater at every
# UPDATE_HZ (and at every UPDATE_HZ above 0 pushing one table over and
# over, em_bench same_table=1: the "<variant>+same-table" configuration,
# RCU and update cost without new content), plus one update-cost scaling
# run; each configuration is booted
# BOOTS times, in deterministic mode (and realtime mode unless QUICK=1).
# Every boot writes
# a run directory under $RUNDIR; emrcu-summarize and report.py turn them
# into summary.json, report.md and plots there.  The caller (the Makefile)
# points results/latest at $RUNDIR only when everything succeeded.
#
# Environment (defaults declared here, printed into the run):
#   RUNDIR      output directory (required)
#   QUICK=1     deterministic mode only, fewer boots
#   BASELINES   variants run with the readers only (ratio denominators; at
#               each UPDATE_HZ > 0 beside the null updater)
#   NUMERATORS  variants run with the updater at each UPDATE_HZ + scaling
#               (readers only when the kernel has no runtime EM API);
#               which is divided by which: results/pairs
#   UPDATE_HZ   updater rates for runtime-EM variants
#   MODES BOOTS NRUNS   modes, boots per configuration, em_bench passes
#   BOOTS_RT    boots per configuration in realtime mode (default: BOOTS,
#               at least 5: the gate judges a realtime figure only with >= 5
#               boots a side, results/gate.conf min_boots_realtime)
#   TOPO        cluster spec (default: qemu-runner/default.topo; set but
#               empty is refused)
#   AA=1        A/A noise calibration instead of the benchmark: each of
#               AA_VARIANTS (default unpatched) is run as two columns, A and
#               B (BOOTS boots each, interleaved A1 B1 A2 B2 ...), each
#               column summarised on its own (aa/A, aa/B); the gate
#               (emrcu-compare A B, gate.conf thresholds, no noise file)
#               must flag nothing; the noise band (emrcu-compare
#               --calibrate A B) goes to aa/noise.json and, when the A/A
#               gate passed and AA_STORE=1 (default), to AA_NOISE
#               (default results/baselines/noise.json), which `make gate`
#               reads.  summary.json pools both columns.
#   AA_INJECT_NOPS=N   with AA=1: a third column, N, whose em_bench adds N
#               instructions per em_cpu_energy() call (inject_nops=N: the
#               gate's positive control, no kernel change); the gate must
#               flag every perf domain's instructions/call at update_hz 0
#               in A vs N, and flag nothing in A vs B (aa-calibrate.sh).
#               Nothing is stored (a control run, not a calibration).
#   AA_INJECT_SLOW_PCT=P   the same for the realtime gate: column N's
#               em_bench slows every call by about P % of its own time
#               (inject_slow_pct=P, a spin loop calibrated in the guest);
#               the figures to flag are the realtime ns/call at update_hz 0.
#   CELL_JOBS=N        deterministic boots run N at a time (default 1; their
#               figures do not depend on the host's load: icount); realtime
#               boots always run alone.
#   HOST_TIMINGS=1     host wall-clock timings with hyperfine, into
#               host-timings-*.json (report section "Host timings"): an
#               up-to-date kernel rebuild through kernel/variant.sh and a
#               guest boot to init in each mode; HOST_TIMINGS=full adds one
#               full QUICK bench + gate (a nested run, --runs 1).  Off by
#               default: it costs about a minute (full: one more QUICK bench).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
RUNDIR=${RUNDIR:?RUNDIR must be set}
QUICK=${QUICK:-0}
UPDATE_HZ=${UPDATE_HZ:-0 100 1000 10000}
BASELINES=${BASELINES:-unpatched unpatched-preempt}
NUMERATORS=${NUMERATORS:-patched upstream patched-preempt upstream-preempt}
AA=${AA:-0}
AA_VARIANTS=${AA_VARIANTS:-unpatched}
AA_STORE=${AA_STORE:-1}
AA_INJECT_NOPS=${AA_INJECT_NOPS:-0}
AA_INJECT_SLOW_PCT=${AA_INJECT_SLOW_PCT:-0}
AA_NOISE=${AA_NOISE:-$TOP/results/baselines/noise.json}
HOST_TIMINGS=${HOST_TIMINGS:-0}
CELL_JOBS=${CELL_JOBS:-1}
HT_RUNS=${HT_RUNS:-3}
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
BOOTS_RT=${BOOTS_RT:-$((BOOTS > 5 ? BOOTS : 5))}
[ -n "${TOPO+set}" ] || TOPO=$(cat "$TOP/qemu-runner/default.topo")

say() { echo "[bench $(date +%H:%M:%S)] $*"; }
die() { echo "[bench] error: $*" >&2; exit 2; }

# --- preflight: what can be wrong is found before any kernel builds --------
for t in qemu-runner/emrcu-run qemu-runner/emrcu-topo bench/driver/emrcu-cells results/emrcu-summarize results/emrcu-compare; do
	[ -x "$TOP/$t" ] || die "$t missing: build it with make tools (make bench does)"
done
[ -n "$TOPO" ] || die "TOPO is empty: give a cluster spec such as $(cat "$TOP/qemu-runner/default.topo")"
"$TOP/qemu-runner/emrcu-topo" --expect "$TOPO" >/dev/null || die "TOPO=$TOPO: not a topology (see above)"
inject=
case $AA in
0) COLUMNS=- ;;
1)	# A/A: the calibrated variants are the only ones run, as baselines
	# or numerators as they would be in a benchmark (a runtime-EM kernel
	# gets its updater rates and scaling run: their figures are gated too).
	COLUMNS="A B"
	case $AA_INJECT_NOPS in
	0) ;;
	1|2|4) inject="inject_nops=$AA_INJECT_NOPS" ;;
	*) die "AA_INJECT_NOPS=$AA_INJECT_NOPS: use 0, 1, 2 or 4" ;;
	esac
	case $AA_INJECT_SLOW_PCT in
	0) ;;
	[1-9] | [1-9][0-9] | 100)
		[ -z "$inject" ] || die "AA_INJECT_NOPS and AA_INJECT_SLOW_PCT: one injection at a time"
		inject="inject_slow_pct=$AA_INJECT_SLOW_PCT" ;;
	*) die "AA_INJECT_SLOW_PCT=$AA_INJECT_SLOW_PCT: use 0..100 (% of a call)" ;;
	esac
	[ -z "$inject" ] || COLUMNS="A B N" AA_STORE=0
	aa_base= aa_num=
	for v in $AA_VARIANTS; do
		case " $BASELINES " in *" $v "*) aa_base="$aa_base $v" ;; *) aa_num="$aa_num $v" ;; esac
	done
	BASELINES=${aa_base# } NUMERATORS=${aa_num# } ;;
*) echo "AA=$AA: use 0 or 1" >&2; exit 2 ;;
esac
mkdir -p "$RUNDIR/runs" || exit 1

# Every variant's declaration, then its source tree (patches applied) and
# config, the reviewer's series (custom) first: an unknown variant, or a
# PATCHES= directory that is missing, empty or does not apply, stops the
# bench here, in seconds, not after the other kernels built.
for stage in check config; do
	for v in $(printf '%s\n' $BASELINES $NUMERATORS | sort -u | awk '$0 == "custom" { print; next } { l[n++] = $0 } END { for (i = 0; i < n; i++) print l[i] }'); do
		[ "$stage" = check ] || say "variant $v: source and config"
		"$TOP/kernel/variant.sh" "$v" "$stage" >"$RUNDIR/kernel-$v.log" 2>&1 ||
			die "variant $v: $(grep -m1 '^error: ' "$RUNDIR/kernel-$v.log" | sed 's/^error: //')" \
				"(log $RUNDIR/kernel-$v.log); nothing built or run"
	done
done

# Kernels and modules (each up to date in seconds).  A variant that does
# not build (e.g. PATCHES=<dir> whose code does not compile) is left out:
# the others are still run and summarised, and the run fails at the end
# naming it (results/latest stays where it was).
bad_variants=() bad_why=()
for v in $BASELINES $NUMERATORS; do
	log=$RUNDIR/kernel-$v.log
	"$TOP/kernel/variant.sh" "$v" 2>&1 | tee -a "$log"
	rc=${PIPESTATUS[0]}
	if [ "$rc" -eq 0 ]; then
		"$TOP/bench/kmod.sh" "$v" bench/platform bench/em_bench >"$log.kmod" 2>&1
		rc=$?
		[ "$rc" -eq 0 ] || cat "$log.kmod"
	fi
	if [ "$rc" -ne 0 ]; then
		bad_variants+=("$v")
		bad_why+=("$(grep '^error: ' "$log" "$log.kmod" 2>/dev/null | tail -1 | sed 's/^[^:]*:error: //')")
		say "variant $v left out: ${bad_why[-1]:-see $log}"
	fi
done
drop_bad() { local v out=; for v in $1; do case " ${bad_variants[*]} " in *" $v "*) ;; *) out="$out $v" ;; esac; done; echo "${out# }"; }
BASELINES=$(drop_bad "$BASELINES")
NUMERATORS=$(drop_bad "$NUMERATORS")
report_bad() {
	local i
	for i in "${!bad_variants[@]}"; do
		say "FAILED: variant ${bad_variants[$i]}: ${bad_why[$i]:-see $RUNDIR/kernel-${bad_variants[$i]}.log}"
	done
}
[ -n "$BASELINES$NUMERATORS" ] || { report_bad; exit 1; }

# The runs: a declaration, RUNDIR/cells.conf (also the run's record: its
# run.* fields are for the readers downstream, results/aa-calibrate.sh),
# that bench/driver/emrcu-cells expands into cells (one boot each: variant
# x update rate and flavour x mode x boot x column) and runs, CELL_JOBS
# deterministic cells at a time.  A variant without the
# runtime API (e.g. PATCHES=<dir> on the pristine tree) runs the readers
# only, as the unpatched kernel does.
readers_only=
for v in $NUMERATORS; do
	grep -q em_dev_update_perf_domain "$BUILD/$v/src/include/linux/energy_model.h" ||
		readers_only="$readers_only $v"
done
cat >"$RUNDIR/cells.conf" <<EOF
kind = em_bench
topo = $TOPO
build = $BUILD
modes = $MODES
boots = $BOOTS
boots_realtime = $BOOTS_RT
nruns = $NRUNS
update_hz = $UPDATE_HZ
baselines = ${BASELINES:--}
numerators = ${NUMERATORS:--}
readers_only = ${readers_only:--}
test_pds = $TEST_PDS
columns = $COLUMNS
$([ -n "$inject" ] && [ "${COLUMNS#*N}" != "$COLUMNS" ] && echo "inject = $inject")
run.quick = $QUICK
run.aa = $AA
run.aa_variants = $([ "$AA" = 1 ] && echo "$AA_VARIANTS" || echo -)
run.aa_inject_nops = $AA_INJECT_NOPS
run.aa_inject_slow_pct = $AA_INJECT_SLOW_PCT
run.host_timings = $HOST_TIMINGS
EOF
"$TOP/bench/driver/emrcu-cells" run "$RUNDIR/cells.conf" "$RUNDIR" --jobs "$CELL_JOBS"
rc=$?
[ "$rc" -eq 2 ] && die "bad cell declaration $RUNDIR/cells.conf (see above)"
failed=$((rc != 0))
[ "$failed" -eq 0 ] || { report_bad; say "run(s) failed; see $RUNDIR/runs/*.log"; exit 1; }

# Instruction-level explanation of the hot-path difference, for the report.
attrib_failed=
[ "$AA" = 1 ] || for p in $NUMERATORS; do
	# its denominator, as results/pairs declares it
	b=$(awk -v n="$p" '!/^[[:space:]]*#/ && $1 == n { print $2; exit }' "$TOP/results/pairs")
	[ -n "$b" ] || { say "FAILED: $p has no denominator in results/pairs"; attrib_failed="$attrib_failed $p"; continue; }
	"$TOP/bench/em_bench/disasm.sh" "$b" "$p" >"$RUNDIR/disasm-$p.txt" 2>&1 ||
		say "warning: disasm.sh $b $p failed"
	# ... and from what ran: executed instructions per call, per source line
	say "executed instructions per call: $b vs $p (bench/em_bench/attrib.sh)"
	if TOPO=$TOPO "$TOP/bench/em_bench/attrib.sh" "$RUNDIR/attrib-$p" "$b" "$p" >"$RUNDIR/attrib-$p.log" 2>&1; then
		cp "$RUNDIR/attrib-$p/execprof.json" "$RUNDIR/execprof-$p.json"
		grep -h '^== ' "$RUNDIR/attrib-$p"/execprof-pd*.txt | while read -r l; do say "$l"; done
	else
		say "FAILED: attrib.sh $b $p: $(tail -1 "$RUNDIR/attrib-$p.log")"
		attrib_failed="$attrib_failed $p"
	fi
done

# The injected column (AA_INJECT_NOPS, AA_INJECT_SLOW_PCT) is a control, never pooled.
sdirs=()
for d in "$RUNDIR"/runs/*/; do
	case $d in *-N-b*/) ;; *) sdirs+=("$d") ;; esac
done
say "summarising ${#sdirs[@]} runs"
# The knobs that shaped the runs, as the command that repeats them.
cmd="make bench QUICK=$QUICK MODES='$MODES' BOOTS=$BOOTS BOOTS_RT=$BOOTS_RT NRUNS=$NRUNS"
cmd="$cmd UPDATE_HZ='$UPDATE_HZ' BASELINES='$BASELINES' NUMERATORS='$NUMERATORS' TOPO=$TOPO AA=$AA"
"$TOP/results/emrcu-summarize" --command "$cmd" -o "$RUNDIR/summary.json" "${sdirs[@]}" || exit 1

if [ "$AA" = 1 ]; then
	AA_STORE=$AA_STORE "$TOP/results/aa-calibrate.sh" "$RUNDIR" || exit 1
fi
if [ "$HOST_TIMINGS" != 0 ]; then
	"$TOP/bench/host-timings.sh" "$RUNDIR" || exit 1
fi
if [ "${#bad_variants[@]}" -gt 0 ]; then
	say "summary of the variants that built: $RUNDIR/summary.json"
	report_bad
	exit 1
fi
if [ -n "$attrib_failed" ]; then
	say "FAILED: executed-instruction count of$attrib_failed (see $RUNDIR/attrib-*.log); the summary is kept"
	exit 1
fi

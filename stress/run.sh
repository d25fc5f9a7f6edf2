#!/bin/bash
# stress/run.sh [DURATION=S] [QUICK] [VARIANT=NAME] [EXPECT=pass|fail]
#               [MIN_UPDATES=N] [MIN_S=S] [HOTPLUG_CPUS=auto|none|"1 2 …"] [HOTPLUG_MS=N]
#               [TOPO=SPEC] [OUTDIR=DIR] [TORTURE_PARAMS="k=v …"] [EXPECT_RULE=kasan|RULE]
#
# Torture of the runtime-modifiable EM under the debug oracles (KASAN,
# lockdep + PROVE_RCU, kmemleak, DEBUG_OBJECTS_RCU_HEAD, DEBUG_ATOMIC_SLEEP):
# boots VARIANT (patched-debug) in realtime (MTTCG) mode with the default
# topology, loads emrcu_platform (CPU perf domains, so EAS runs) and
# em_torture (updater at full rate, readers on every CPU, unregister /
# re-register of a test PD), cycles CPU hotplug from the guest
# (stress/guest.sh), then rmmod + kmemleak scan.
#
# The torture runs at least MIN_S seconds, then stops once MIN_UPDATES
# updates succeeded (em_torture max_updates), at the latest after DURATION
# seconds; fewer than MIN_UPDATES updates is a FAIL (host too slow or loaded:
# raise DURATION).
# QUICK (for `make test`): >= 10^4 updates within 75 s, ~2 min wall.
# Long (`make stress`): >= 10^6 updates within 3600 s.
# EXPECT=fail is the negative control (a broken kernel, stress/broken/):
# it passes only if the run is caught by KASAN or an em_torture FAILURE
# (EXPECT_RULE=kasan|<rule>: only by that one, e.g. reader-pipe).
#
# Prints PASS:/FAIL: lines, a summary line, and "N passed, N failed".
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
export BUILD

# ---- defaults: every constant of a stress run ------------------------------
QUICK_DURATION=75
QUICK_MIN_UPDATES=10000
LONG_DURATION=3600
LONG_MIN_UPDATES=1000000
MIN_S=20		# hotplug and unregister cycles need time to race updates
# RCU CPU stall timeout of the guest (kernel/config/debug.config has 21 s).
# 8 vCPUs of a KASAN kernel on 2 host cores: under host load ~12 the guest
# starves and reports false stalls even during boot (measured, before any
# module loaded), so stress runs use 60 s (maximum 300).  A reader stuck in
# a read-side section still shows: no grace periods (GP check below) and,
# in runs longer than STALL_S, a stall report.
STALL_S=60
MIN_GP_PER_MIN=15	# grace periods the torture must see per minute
BOOT_BUDGET_S=150	# boot + module load + rmmod + kmemleak scans, worst case
IDLE_TIMEOUT_S=120
CAUGHT_GRACE_S=5	# EXPECT=fail: time for the report after the first line

quick=0
DURATION=
MIN_UPDATES=
VARIANT=patched-debug
EXPECT=pass
HOTPLUG_CPUS=auto
HOTPLUG_MS=100
TOPO=
OUTDIR=
TORTURE_PARAMS=
EXPECT_RULE=
for a in "$@"; do
	case "$a" in
	QUICK | quick) quick=1 ;;
	DURATION=* | MIN_UPDATES=* | MIN_S=* | STALL_S=* | VARIANT=* | EXPECT=* | HOTPLUG_CPUS=* | \
		HOTPLUG_MS=* | TOPO=* | OUTDIR=* | TORTURE_PARAMS=* | EXPECT_RULE=*)
		eval "${a%%=*}=\${a#*=}" ;;
	*) echo "stress/run.sh: unknown argument '$a'" >&2; exit 2 ;;
	esac
done
[ "$quick" = 1 ] && : "${DURATION:=$QUICK_DURATION}" "${MIN_UPDATES:=$QUICK_MIN_UPDATES}"
: "${DURATION:=$LONG_DURATION}" "${MIN_UPDATES:=$LONG_MIN_UPDATES}"
case "$DURATION" in "" | 0 | *[!0-9]*) echo "stress/run.sh: DURATION=$DURATION: seconds (>= 1)" >&2; exit 2 ;; esac
case "$STALL_S" in '' | *[!0-9]*) echo "stress/run.sh: STALL_S=$STALL_S: seconds" >&2; exit 2 ;; esac
case "$MIN_S" in '' | *[!0-9]*) echo "stress/run.sh: MIN_S=$MIN_S: seconds" >&2; exit 2 ;; esac
[ "$MIN_S" -le "$DURATION" ] || MIN_S=$DURATION
case "$MIN_UPDATES" in '' | *[!0-9]*) echo "stress/run.sh: MIN_UPDATES=$MIN_UPDATES: a count" >&2; exit 2 ;; esac
case "$EXPECT" in pass | fail) ;; *) echo "stress/run.sh: EXPECT=$EXPECT: pass or fail" >&2; exit 2 ;; esac

suite=stress/$VARIANT
. "$TOP/tests/lib.sh"

# ---- build: kernel variant, runner, modules --------------------------------
build build "$VARIANT" "$TOP/bench/platform" "$TOP/bench/em_torture"
plat=${KOS[0]}
tort=${KOS[1]}

# ---- run ---------------------------------------------------------------------
# A run never deletes or overwrites earlier results: OUTDIR must be new or
# empty.
[ -n "$OUTDIR" ] || OUTDIR=$BUILD/stress/$VARIANT-$(date +%Y%m%d-%H%M%S)-$$
if [ -n "$(ls -A "$OUTDIR" 2>/dev/null)" ]; then
	ko outdir "OUTDIR=$OUTDIR is not empty: earlier results are never overwritten"
	finish
fi
if ! mkdir -p "$OUTDIR" 2>/dev/null || ! {
	echo "HOTPLUG_CPUS='$HOTPLUG_CPUS'"
	echo "HOTPLUG_MS=$HOTPLUG_MS"
	cat "$TOP/stress/guest.sh"
} >"$OUTDIR/cmd.sh" 2>/dev/null; then
	ko outdir "cannot write to OUTDIR=$OUTDIR: $(df -h "$OUTDIR" 2>/dev/null | awk 'NR == 2 { print $4 " free" }')"
	finish
fi
load0=$(cut -d' ' -f1 /proc/loadavg)
t0=$(date +%s)
# emrcu-run's few lines go to a temporary file first: OUTDIR may fill up.
# The boot is a cell of the one driver (bench/driver, kind boot); its
# declaration is written beside cmd.sh.
tmpout=$(mktemp "${TMPDIR:-/tmp}/stress-run.XXXXXX") || { ko run "mktemp failed"; finish; }
cat >"$OUTDIR/cells.conf" <<EOF
kind = boot
variant = $VARIANT
mode = realtime
$([ -n "$TOPO" ] && echo "topo = $TOPO")
module = $plat
module = $tort:duration_s=$DURATION max_updates=$MIN_UPDATES min_duration_s=$MIN_S${TORTURE_PARAMS:+ $TORTURE_PARAMS}
cmd_file = $OUTDIR/cmd.sh
append = rcupdate.rcu_cpu_stall_timeout=$STALL_S
timeout_s = $((DURATION + BOOT_BUDGET_S))
idle_timeout_s = $IDLE_TIMEOUT_S
outdir = $OUTDIR/run
log = $tmpout
EOF
"$TOP/bench/driver/emrcu-cells" run "$OUTDIR/cells.conf" "$OUTDIR" >"$OUTDIR/cells.log" 2>&1 &
pid=$!
# Progress: em_torture's stat_interval lines (every 60 s) as they reach the
# console, until the guest ends.
echo "stress: $VARIANT: torture for up to ${DURATION}s; a progress line a minute" >&2
(
	seen=0
	while kill -0 "$pid" 2>/dev/null; do
		sleep 5
		n=$(grep -c 'em_torture: progress' "$OUTDIR/run/console.log" 2>/dev/null) || n=0
		[ "$n" -gt "$seen" ] || continue
		grep 'em_torture: progress' "$OUTDIR/run/console.log" | tail -n $((n - seen)) |
			sed 's/.*em_torture: progress/stress: progress/' >&2
		seen=$n
	done
) &
prog=$!
# Negative control: once the oracle has spoken (a KASAN report or a FAILURE
# line), give the report CAUGHT_GRACE_S to be printed in full, then stop
# the guest (emrcu-run's verdict keeps the first kernel failure): a broken
# kernel often hangs after its first splat, up to the --timeout.
if [ "$EXPECT" = fail ]; then
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q -e 'BUG: KASAN:' -e 'FAILURE: em_torture:' "$OUTDIR/run/console.log" 2>/dev/null; then
			sleep "$CAUGHT_GRACE_S"
			kill -TERM "$pid" 2>/dev/null
			break
		fi
		sleep 1
	done
fi
wait "$pid"
rc=$?
# The runner's exit code, as the driver recorded it (else the driver's own:
# 2 for a declaration it refused).
r=$(sed -n 's/^emrcu-cells: exit //p' "$tmpout" 2>/dev/null | tail -1)
[ -n "$r" ] && rc=$r
kill "$prog" 2>/dev/null
wait "$prog" 2>/dev/null
wall=$(($(date +%s) - t0))
load1=$(cut -d' ' -f1 /proc/loadavg)
runout=$(cat "$tmpout")
rm -f "$tmpout"
printf '%s\n' "$runout" >"$OUTDIR/emrcu-run.out" 2>/dev/null
verdict=$(printf '%s\n' "$runout" | grep '^emrcu-run: ' | grep -v '^emrcu-run: warning' | tail -1)
R=$OUTDIR/run

# ---- read the results ----------------------------------------------------------
# jget FILE KEY: KEY's value in FILE as text, the outermost first (jq's
# order); nothing when the file or the key is missing.
jget() {
	jq -r --arg k "$2" 'first(.. | objects | select(has($k)) | .[$k]) |
		if type == "string" then . else tojson end' "$1" 2>/dev/null
}
tj=$R/em_torture.json
gj=$R/stress_guest.json
kind=$(jget "$R/meta.json" exit_kind)
reason=$(jget "$R/meta.json" exit_reason)
# No meta.json (QEMU missing, disk full, ...): emrcu-run's last line names it.
if [ -z "$kind" ] && [ -n "$verdict" ]; then
	kind=$(echo "$verdict" | sed -n 's/^emrcu-run: FAIL \([a-z-]*\): .*/\1/p')
	reason=${verdict#emrcu-run: FAIL *: }
fi
if [ -z "$kind" ] && [ "$rc" -eq 2 ]; then
	kind=usage	# emrcu-run refused its arguments (--topo, ...)
	reason=${verdict#emrcu-run: }
fi
[ -n "$kind" ] || kind=none
splats=
for k in panic oops bug kasan warning lockdep rcu-stall kmemleak; do
	n=$(jget "$R/meta.json" "$k")
	[ "${n:-0}" -gt 0 ] && splats="$splats $k=$n"
done
splats=${splats# }
updates=$(jget "$tj" updates)
reads=$(jget "$tj" reads)
ups=$(jget "$tj" updates_per_s)
rps=$(jget "$tj" reads_per_s)
dur_ms=$(jget "$tj" duration_ms)
fails=$(jget "$tj" failures_total)
cycles=$(jget "$tj" cycles)
gps=$(jget "$tj" grace_periods)
einval=$(jget "$tj" update_einval)
pipe=$(jget "$tj" pipe)
# Merged design only: reads of the tables the updater holds a reference to.
held=$(jget "$tj" held_reads)
# Median update latency from the log2 histogram: bucket b is [2^(b-1), 2^b) us.
p50=$(jget "$tj" update_us_log2 | tr -d '[]' |
	awk -F, '{ for (i = 1; i <= NF; i++) t += $i; for (i = 1; i <= NF; i++) { c += $i
		if (c * 2 >= t && t) { b = i - 1; printf "%d-%d us", b ? 2 ^ (b - 1) : 0, 2 ^ b; exit } } }')
hp=$(jget "$gj" hotplug_cycles)
hperr=$(jget "$gj" hotplug_errors)
leaks=$(jget "$gj" kmemleak_leaks)
flines=$(grep -c 'FAILURE: em_torture:' "$R/console.log" 2>/dev/null)
kasan=$(grep -c 'BUG: KASAN:' "$R/console.log" 2>/dev/null)
first_failure=$(grep -m1 -o 'FAILURE: em_torture:.*' "$R/console.log" 2>/dev/null | tr -d '\r')
first_kasan=$(grep -m1 -o 'BUG: KASAN:.*' "$R/console.log" 2>/dev/null | tr -d '\r')
stop=$(jget "$tj" stop_reason)
echo "stress: $VARIANT realtime (cap ${DURATION}s, stop ${stop:-?}): exit $rc ($kind) in ${wall}s wall; updates ${updates:-?} (${ups:-?}/s, median ${p50:-?}), reads ${reads:-?} (${rps:-?}/s) in ${dur_ms:-?} ms; failures ${fails:-?} (${flines:-0} FAILURE lines), splats ${splats:-none} (KASAN reports ${kasan:-0}); pipe ${pipe:-?};${held:+ held-table reads $held;} grace periods ${gps:-?}; unregister cycles ${cycles:-?}, update -EINVAL ${einval:-?}; hotplug cycles ${hp:-?} (errors ${hperr:-?}); kmemleak ${leaks:-?}; host load $load0/$load1; $OUTDIR"

if [ "$EXPECT" = fail ]; then
	# Negative control: the oracle must catch the broken kernel.
	if [ -n "$EXPECT_RULE" ]; then
		# One oracle named: kasan, or an em_torture rule (reader-pipe, ...).
		if [ "$EXPECT_RULE" = kasan ]; then
			hit=$(grep -m1 -o 'BUG: KASAN:.*' "$R/console.log" 2>/dev/null | tr -d '\r')
		else
			hit=$(grep -m1 -o "FAILURE: em_torture: $EXPECT_RULE: .*" "$R/console.log" 2>/dev/null | tr -d '\r')
		fi
		if [ -n "$hit" ]; then
			ok "caught ($EXPECT_RULE: $hit)"
		else
			ko caught "no $EXPECT_RULE report: exit $kind, first: ${first_kasan:-${first_failure:-none}}"
		fi
	elif [ "${kasan:-0}" -gt 0 ] || [ "${flines:-0}" -gt 0 ] || [ "$kind" = kasan ]; then
		ok "caught (${kind}: ${first_kasan:-$first_failure})"
	else
		ko caught "not detected: exit $kind, ${fails:-?} failures, ${updates:-?} updates: $verdict"
	fi
	finish
fi

if [ "$rc" -eq 0 ] && [ "$kind" = pass ]; then
	ok "run (no panic/oops/BUG/KASAN/WARNING/lockdep/RCU stall/kmemleak report, ${wall}s)"
else
	ko run "exit $rc $kind: ${reason:-$verdict}; detections: ${splats:-none}"
fi
if [ -z "$updates" ]; then
	ko result "no em_torture.json block"
	finish
fi
# The oracles must be in the kernel that ran (em_torture reports its config).
cfg=$(jget "$tj" config)
missing=
for k in kasan prove_rcu lockdep kmemleak debug_objects_rcu_head; do
	[ "$(jq -r --arg k "$k" '.[$k]' <<<"$cfg" 2>/dev/null)" = true ] || missing="$missing $k"
done
if [ -z "$missing" ]; then
	ok "oracles (KASAN, PROVE_RCU, lockdep, kmemleak, DEBUG_OBJECTS_RCU_HEAD in the guest kernel)"
elif [ "$VARIANT" = patched-debug ] || [ "$VARIANT" = patched-broken ] ||
	[ "$VARIANT" = upstream-debug ]; then
	ko oracles "not in the guest kernel:$missing"
else
	echo "note: $VARIANT lacks the debug oracles:$missing (only run-time checks apply)"
fi
if [ "${fails:-1}" -eq 0 ] && [ "${flines:-1}" -eq 0 ]; then
	ok "failures (0 in $reads reads)"
else
	ko failures "${fails} failures: ${first_failure}"
fi
if [ "$updates" -ge "$MIN_UPDATES" ]; then
	ok "updates ($updates >= $MIN_UPDATES)"
else
	ko updates "$updates < $MIN_UPDATES in ${dur_ms} ms: raise DURATION"
fi
if [ $((${gps:-0} * 60000)) -ge $((MIN_GP_PER_MIN * ${dur_ms:-1})) ]; then
	ok "grace-periods (${gps} in ${dur_ms} ms)"
else
	ko grace-periods "${gps:-0} in ${dur_ms:-?} ms, < $MIN_GP_PER_MIN/min: a reader stuck in a read-side section?"
fi
if [ "${reads:-0}" -gt 0 ] && [ "${cycles:-0}" -gt 0 ] && [ "${einval:-0}" -gt 0 ]; then
	ok "coverage ($cycles unregister cycles, $einval updates refused while unregistered)"
else
	ko coverage "reads ${reads:-0}, cycles ${cycles:-0}, -EINVAL updates ${einval:-0}"
fi
if [ "$HOTPLUG_CPUS" = none ] || { [ "${hp:-0}" -gt 0 ] && [ "${hperr:-1}" -eq 0 ]; }; then
	ok "hotplug (${hp:-0} cycles)"
else
	ko hotplug "${hp:-?} cycles, ${hperr:-?} errors"
fi
if [ "${leaks:--1}" -eq 0 ]; then
	ok "kmemleak (0 leaks)"
elif [ "$leaks" = -1 ] && [ "$(jq -r '.kmemleak' <<<"$cfg" 2>/dev/null)" = false ]; then
	# A kernel without kmemleak (not a debug variant): nothing to scan.
	echo "note: $VARIANT has no kmemleak: no leak check"
else
	ko kmemleak "${leaks:-no} suspected leaks (see $R/console.log)"
fi
finish

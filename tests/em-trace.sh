#!/bin/bash
# tests/em-trace.sh [VARIANT]   (default: patched)
#
# The values of the em_perf_state trace event (patch 05): boots VARIANT with
# bench/platform, raises the temperature to $TEMP_MC so that leakage makes
# low OPPs inefficient, traces one runtime update of every CPU perf domain
# (debugfs emrcu_platform/em_update: the truth at that temperature) and
# checks each traced state against what the platform pushed
# (tests/em-trace-check.awk).  Negative control: the same check on a copy of
# the trace with one power changed must fail.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
v=${1:-patched}
TEMP_MC=${TEMP_MC:-85000}
name=em-trace/$v
suite=$name
. "$TOP/tests/lib.sh"
build build "$v" bench/platform
ko=${KOS[0]}
out=$BUILD/em-trace/$v
rm -rf "$out"
mkdir -p "$out"
cat >"$out/guest.sh" <<EOS
D=/sys/kernel/debug/emrcu_platform
E=/sys/kernel/tracing/events/energy_model/em_perf_state/enable
echo 1 >\$E || exit 1
echo $TEMP_MC >\$D/temperature && echo 1 >\$D/em_update || exit 1
echo 0 >\$E
echo EMRCU-RESULT-BEGIN trace; grep ' em_perf_state: ' /sys/kernel/tracing/trace; echo EMRCU-RESULT-END trace
echo EMRCU-RESULT-BEGIN power; cat \$D/power; echo EMRCU-RESULT-END power
echo EMRCU-RESULT-BEGIN params; cat \$D/params; echo EMRCU-RESULT-END params
EOS
"$TOP/qemu-runner/emrcu-run" --variant "$v" --module "$ko" --cmd-file "$out/guest.sh" \
	--outdir "$out/run" --timeout 180 --idle-timeout 90 >"$out/runner.log" 2>&1
r=$?
run=$out/run
if [ $r -ne 0 ] || [ ! -s "$run/trace" ] || [ ! -s "$run/power" ] || [ ! -s "$run/params" ]; then
	ko "run" "emrcu-run exit $r or no trace, see $out/runner.log"
	exit 1
fi
# DEV NR IDX KHZ UW: the power the platform pushed is the truth at the
# cluster's temperature, busy_uw of debugfs power.
jq -r --slurpfile p "$run/params" '.clusters[] as $c |
	($p[0].clusters[] | select(.id == $c.id) | "cpu\(.cpus[0])") as $dev |
	range($c.khz | length) as $i |
	"\($dev) \($c.khz | length) \($i) \($c.khz[$i]) \($c.busy_uw[$i])"' \
	"$run/power" >"$out/expect" 2>"$out/jq.err" || {
	ko "parse" "jq: $(head -1 "$out/jq.err")"
	exit 1
}
if res=$(awk -f "$TOP/tests/em-trace-check.awk" "$out/expect" "$run/trace"); then
	if grep -q ' 0 flagged inefficient' <<<"$res"; then
		ko "values" "no state flagged inefficient at $TEMP_MC m°C: the flags check cannot fail; $res"
	else
		ok "values" "${res#ok: }"
	fi
else
	ko "values" "$(grep -m3 '^bad' <<<"$res" | tr '\n' ';')"
fi
# Negative control: the first traced power replaced by 1 µW.
awk '!done && / em_perf_state: / { sub(/ power=[0-9]+/, " power=1"); done = 1 } 1' \
	"$run/trace" >"$out/trace.corrupt"
if awk -f "$TOP/tests/em-trace-check.awk" "$out/expect" "$out/trace.corrupt" >"$out/corrupt.txt"; then
	ko "negative-control" "a trace with a wrong power passed the check"
else
	ok "negative-control" "$(grep -m1 '^bad' "$out/corrupt.txt")"
fi
finish

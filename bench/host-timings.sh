#!/bin/bash
# bench/host-timings.sh RUNDIR — host wall-clock timings of the pipeline
# with hyperfine (`make bench HOST_TIMINGS=1`, see bench/run-bench.sh), one
# hyperfine --export-json file each, read by report.py ("Host timings"):
#
#   host-timings-kernel.json  HT_VARIANT (default unpatched) through
#       kernel/variant.sh: (a) up to date — the stamp check every `make
#       bench` pays; (b) an up-to-date rebuild — the stamp removed first
#       (--prepare), so variant.sh runs `make Image modules` on an unchanged
#       tree inside build/.kbuild.lock.  Wall time includes any wait for
#       that lock (another build running); kernel-lock-seconds.txt has the
#       in-lock seconds variant.sh measured for the last rebuild.
#   host-timings-boot.json    guest boot to init and power-off: emrcu-run
#       --cmd true, realtime and deterministic mode.
#   host-timings-bench.json   HOST_TIMINGS=full only: one full QUICK bench
#       (bench/run-bench.sh QUICK=1, defaults) + report.py + the gate
#       against results/baselines/quick.json, as a nested run in
#       RUNDIR/host-timings/quick-bench (--runs 1).
#
# HT_RUNS (default 3) runs per command (after one warm-up for boots).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
D=${1:?usage: bench/host-timings.sh RUNDIR}
HOST_TIMINGS=${HOST_TIMINGS:-1}
HT_RUNS=${HT_RUNS:-3}
HT_VARIANT=${HT_VARIANT:-unpatched}
say() { echo "[host-timings $(date +%H:%M:%S)] $*"; }
command -v hyperfine >/dev/null || { say "error: hyperfine missing (make deps)"; exit 1; }
W=$D/host-timings
mkdir -p "$W" || exit 1
q() { printf '%q' "$1"; }
hf() { # json, then hyperfine arguments
	local out=$1
	shift
	hyperfine --style basic --export-json "$out.tmp" "$@" >>"$W/hyperfine.log" 2>&1 ||
		{ say "error: hyperfine failed, see $W/hyperfine.log"; tail -5 "$W/hyperfine.log"; return 1; }
	mv -f "$out.tmp" "$out"
}

say "kernel $HT_VARIANT via kernel/variant.sh ($HT_RUNS runs each)"
vs="$(q "$TOP/kernel/variant.sh") $(q "$HT_VARIANT") >/dev/null"
hf "$D/host-timings-kernel.json" --runs "$HT_RUNS" \
	--prepare true --prepare "rm -f $(q "$BUILD/$HT_VARIANT/out/.emrcu-built")" \
	--command-name "kernel $HT_VARIANT: variant.sh, up to date (stamp check)" "$vs" \
	--command-name "kernel $HT_VARIANT: up-to-date rebuild (make Image modules, nothing changed)" "$vs" ||
	exit 1
cp "$BUILD/$HT_VARIANT/build-seconds" "$W/kernel-lock-seconds.txt" 2>/dev/null

say "guest boot to init ($HT_RUNS runs per mode)"
run() { printf '%q --variant %q --mode %s --cmd true --outdir %q >/dev/null' \
	"$TOP/qemu-runner/emrcu-run" "$HT_VARIANT" "$1" "$W/boot-$1"; }
hf "$D/host-timings-boot.json" --warmup 1 --runs "$HT_RUNS" \
	--command-name "boot $HT_VARIANT to init (emrcu-run --cmd true), realtime mode" "$(run realtime)" \
	--command-name "boot $HT_VARIANT to init (emrcu-run --cmd true), deterministic mode" "$(run deterministic)" ||
	exit 1

if [ "$HOST_TIMINGS" = full ]; then
	say "one full QUICK bench + report + gate (nested run $W/quick-bench)"
	n=$W/quick-bench
	rm -rf "$n"
	gate="$(q "$TOP/results/emrcu-compare")"
	[ -f "$TOP/results/baselines/noise.json" ] && gate="$gate --noise $(q "$TOP/results/baselines/noise.json")"
	cmd="env -u BASELINES -u NUMERATORS -u UPDATE_HZ -u MODES -u BOOTS -u NRUNS \
QUICK=1 AA=0 HOST_TIMINGS=0 RUNDIR=$(q "$n") $(q "$TOP/bench/run-bench.sh") >$(q "$W/quick-bench.log") 2>&1 && \
/usr/bin/python3 $(q "$TOP/results/report.py") $(q "$n") 2>>$(q "$W/quick-bench.log") && \
$gate --json $(q "$n/gate.json") $(q "$TOP/results/baselines/quick.json") $(q "$n/summary.json") >$(q "$n/gate.txt")"
	# -i: a failing gate is recorded (exit code in the JSON), not fatal here
	hf "$D/host-timings-bench.json" --runs 1 -i \
		--command-name "full QUICK bench (bench/run-bench.sh QUICK=1 + report.py) + gate vs baselines/quick.json" \
		"$cmd" || { tail -3 "$W/quick-bench.log"; exit 1; }
fi
say "done: $(ls "$D"/host-timings-*.json | xargs -n1 basename | tr '\n' ' ')"

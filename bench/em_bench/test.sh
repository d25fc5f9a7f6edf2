#!/bin/bash
# bench/em_bench/test.sh — guest tests of em_bench (PASS:/FAIL: lines).
#
# Needs the variants unpatched, patched and upstream built and
# qemu-runner/emrcu-run.
# Builds bench/platform and bench/em_bench for both (platform first, so that
# em_bench compiles against its header), then boots deterministic guests:
#  - every bad parameter makes insmod fail with EINVAL (guest rc 22) and a
#    pr_err naming the parameter; no energy model → ENODEV (rc 19);
#  - unpatched readers-only: a result block, every checksum_ok true,
#    updater {"available":false}, runtime_em false;
#  - patched (v2's callback API) and upstream (the merged design's tables
#    built ahead of time) with update_hz=1000 and scaling=1: updater
#    available with errors 0, one scaling entry per test PD, no FAILURE line.
# Each boot takes a few seconds; the whole suite well under two minutes.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
RUN=$TOP/qemu-runner/emrcu-run
TEST_PDS=4,8,16,32,64
tmp=$(mktemp -d "${TMPDIR:-/tmp}/em_bench_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
suite=em_bench
. "$TOP/tests/lib.sh"

[ -x "$RUN" ] || { ko setup "qemu-runner/emrcu-run missing: run make tools"; finish; }
for v in unpatched patched upstream; do
	"$TOP/bench/kmod.sh" "$v" bench/platform bench/em_bench >/dev/null ||
		{ ko setup "modules do not build for $v"; finish; }
done

# boot NAME VARIANT PLATFORM_PARAMS EM_BENCH_PARAMS: outdir $tmp/NAME;
# PLATFORM_PARAMS "-" loads no platform module.
boot() {
	n=$1 v=$2 pp=$3 ep=$4
	m=$BUILD/$v/mod
	set -- --variant "$v" --mode deterministic --timeout 60 --outdir "$tmp/$n"
	if [ "$pp" != - ]; then
		set -- "$@" --module "$m/platform/emrcu_platform.ko${pp:+:$pp}"
	fi
	"$RUN" "$@" --module "$m/em_bench/em_bench.ko${ep:+:$ep}" >"$tmp/$n.log" 2>&1
}

# bad NAME VARIANT PARAMS RC WORD: insmod fails with RC and a pr_err with WORD.
bad() {
	boot "$1" "$2" "" "$3"
	c=$tmp/$1/console.log
	if ! grep -q "insmod .*em_bench.ko failed (rc $4)" "$c"; then
		ko "$1" "'$3' on $2 did not fail with rc $4"
	elif ! grep -q "em_bench: .*$5" "$c"; then
		ko "$1" "'$3' on $2: no error message naming $5"
	else
		ok "$1" "'$3' on $2 refused (rc $4)"
	fi
}

bad readers-empty unpatched "readers=" 22 "parameter readers"
bad readers-absent unpatched "readers=99" 22 "parameter readers"
bad readers-junk unpatched "readers=x" 22 "parameter readers"
bad loops-0 unpatched "loops=0" 22 "parameter loops"
bad nruns-0 unpatched "nruns=0" 22 "parameter nruns"
bad hz-max patched "update_hz=10001" 22 "parameter update_hz"
bad pd-unknown patched "update_hz=10 update_pd=3" 22 "parameter update_pd"
bad hz-unpatched unpatched "update_hz=100" 22 "parameter update_hz"
bad scaling-unpatched unpatched "scaling=1" 22 "parameter scaling"
bad nops-3 unpatched "inject_nops=3" 22 "parameter inject_nops"
bad slow-101 unpatched "inject_slow_pct=101" 22 "parameter inject_slow_pct"
bad slow-and-nops unpatched "inject_slow_pct=5 inject_nops=1" 22 "parameter inject_slow_pct"
bad hold-max patched "update_hz=10 inject_hold_ns=1000001" 22 "parameter inject_hold_ns"
bad hold-null unpatched "update_hz=10 null_update=1 inject_hold_ns=10" 22 "parameter inject_hold_ns"
bad block-junk unpatched "block=a/b" 22 "parameter block"

boot no-em unpatched - ""
if grep -q "insmod .*em_bench.ko failed (rc 19)" "$tmp/no-em/console.log"; then
	ok "no-em" "without an energy model insmod fails with ENODEV"
else
	ko "no-em" "without an energy model insmod did not fail with ENODEV"
fi

# booted NAME: the boot passed and left em_bench.json
booted() {
	j=$tmp/$1/em_bench.json
	if ! tail -1 "$tmp/$1.log" | grep -q '^emrcu-run: PASS'; then
		ko "$1" "$(tail -1 "$tmp/$1.log")"
		return 1
	fi
	if [ ! -s "$j" ]; then
		ko "$1" "no em_bench.json"
		return 1
	fi
	if grep -q 'em_bench: FAILURE' "$tmp/$1/console.log"; then
		ko "$1" "$(grep -m1 'em_bench: FAILURE' "$tmp/$1/console.log")"
		return 1
	fi
	return 0
}

# has NAME PATTERN WHAT: em_bench.json (lines joined) matches PATTERN
has() {
	if tr -d '\n' <"$tmp/$1/em_bench.json" | grep -q "$2"; then
		ok "$1" "$3"
	else
		ko "$1" "$3 (no match for $2)"
	fi
}

boot readers unpatched "" "nruns=50 update_hz=100 null_update=1"
if booted readers; then
	has readers '"runtime_em":false' "runtime_em false"
	has readers '"updater":{"available":false,"null_update":true,"hz":100,' "null updater (the control) on a kernel without the runtime EM"
	has readers '"null_update":true,.*"events":[1-9]' "null updater woke up"
	has readers '"checksum_ok":true' "checksums verified"
	if tr -d '\n' <"$tmp/readers/em_bench.json" | grep -q '"checksum_ok":false'; then
		ko "readers" "a reader's checksum differs from the reference"
	else
		ok "readers" "no checksum mismatch"
	fi
	nr=$(tr -d '\n' <"$tmp/readers/em_bench.json" | grep -o '"ns_per_call":\[' | wc -l)
	if [ "$nr" -ge 1 ]; then
		ok "readers" "$nr readers reported"
	else
		ko "readers" "no reader reported"
	fi
fi

# The realtime gate's positive control: inject_slow_pct=20 must slow every
# perf domain's median ns/call by about 20 % against the readers boot above
# (deterministic mode: time is instructions, so the calibration is exact up
# to one spin iteration and the null updater's 100 wake-ups).
boot slow unpatched "" "nruns=50 inject_slow_pct=20"
if booted slow; then
	has slow '"inject_spin":[1-9]' "a spin calibrated on every reader"
	med='[.readers | group_by(.pd)[] | {pd: .[0].pd, m: ([.[].ns_per_call[]] | sort | .[length / 2 | floor])}]'
	tr -d '\n' <"$tmp/readers/em_bench.json" >"$tmp/plain.json"
	tr -d '\n' <"$tmp/slow/em_bench.json" >"$tmp/slowed.json"
	ratios=$(jq -n -c --slurpfile a "$tmp/plain.json" --slurpfile b "$tmp/slowed.json" \
		"[(\$a[0] | $med), (\$b[0] | $med)] as [\$x, \$y] | [range(\$x | length) |
		 \$y[.].m / \$x[.].m * 1000 | round / 1000]" 2>&1)
	if echo "$ratios" | jq -e 'length > 0 and all(. >= 1.1 and . <= 1.3)' >/dev/null 2>&1; then
		ok "slow" "inject_slow_pct=20 slowed every perf domain by 10..30 % (ratios $ratios)"
	else
		ko "slow" "inject_slow_pct=20: ratios per perf domain $ratios, want 1.1..1.3"
	fi
fi

for v in patched upstream; do
	n=updater-$v
	boot "$n" "$v" "test_pds=$TEST_PDS" "update_hz=1000 scaling=1 nruns=50"
	booted "$n" || continue
	has "$n" '"runtime_em":true' "runtime_em true"
	has "$n" '"updater":{"available":true,"null_update":false,"hz":1000' "updater available at 1000 Hz"
	has "$n" '"errors":0,' "no update error"
	has "$n" '"update_ns":\[[0-9]' "update durations recorded"
	has "$n" '"free_delay_ns":\[[0-9]' "free delays recorded"
	has "$n" '"callback_ns":\[[0-9]' "the driver's own work timed beside each scaling update"
	ns=$(tr -d '\n' <"$tmp/$n/em_bench.json" | grep -o '{"nr_states":[0-9]*' | wc -l)
	want=$(echo "$TEST_PDS" | tr ',' '\n' | wc -l)
	if [ "$ns" -eq "$want" ]; then
		ok "$n" "scaling on $ns test PDs"
	else
		ko "$n" "scaling has $ns entries, want $want"
	fi
done

finish

#!/bin/bash
# bench/guest-check.sh [--placement] TOPO VARIANT...
#
# Boot each variant on the topology with emrcu_platform loaded and report
# what the guest kernel made of it: one JSON object per variant on stdout
# (capacities, policies and governors, perf domains, EAS), then one
# `PASS:`/`FAIL:` line per check.  The checks are the guest's own
# (EAS started, schedutil everywhere, PDs cover the CPUs) plus the
# topology's expectation from `emrcu-topo --expect`: capacities as given
# and one perf domain per cluster.  --placement also runs the EAS placement
# smoke (small task on the lowest-capacity CPUs, big task on the highest).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
placement=0
# The placement smoke runs in deterministic mode: PELT then sees guest time
# only, so host load (2 cores shared by 8 vCPUs) cannot inflate utilisation.
mode=
if [ "${1:-}" = --placement ]; then
	placement=1
	mode="--mode deterministic"
	shift
fi
topo=${1:?usage: bench/guest-check.sh [--placement] TOPO VARIANT...}
shift
[ $# -gt 0 ] || set -- unpatched patched

for t in "$TOP/qemu-runner/emrcu-run" "$TOP/qemu-runner/emrcu-topo" "$BUILD/guest/emrcu-guest-check"; do
	[ -x "$t" ] || { echo "guest-check: $t missing: run make tools" >&2; exit 2; }
done
# An invalid spec is refused here, before anything boots (exit 2).
expect=$("$TOP/qemu-runner/emrcu-topo" --expect "$topo") || exit 2
G=$BUILD/guest
rc=0
for v in "$@"; do
	ko=$("$TOP/bench/kmod.sh" "$v" "$TOP/bench/platform" | tail -1) || {
		echo "FAIL: guest-check/$v/$topo (platform module did not build)"
		rc=1
		continue
	}
	out=$BUILD/guest-check/$v-${topo//+/_}
	mkdir -p "$BUILD/guest-check"
	cmd="emrcu-guest-check --expect-eas $expect"
	[ $placement = 1 ] && cmd="$cmd; r=\$?; emrcu-guest-placement || exit 1; exit \$r"
	t0=$(date +%s.%N)
	"$TOP/qemu-runner/emrcu-run" --variant "$v" --topo "$topo" --module "$ko" $mode \
		--file "$G/emrcu-guest-check" --file "$G/emrcu-guest-placement" \
		--cmd "$cmd" --outdir "$out" --timeout 120 --idle-timeout 60 \
		>"$out.log" 2>&1
	run=$?
	wall=$(echo "$(date +%s.%N) - $t0" | bc)
	r=$out/guest-check.json
	if [ -f "$r" ]; then
		printf '{"variant": "%s", "topo": "%s", "wall_s": %.1f, "guest": %s}\n' \
			"$v" "$topo" "$wall" "$(cat "$r")"
		jq -r --arg p "guest-check/$v/$topo" \
			'.checks[] | "\(if .pass then "PASS" else "FAIL" end): \($p)/\(.name)"' "$r" ||
			echo "FAIL: guest-check/$v/$topo (not JSON: $r)"
		jq -e '.pass' "$r" >/dev/null 2>&1 || rc=1
	else
		echo "FAIL: guest-check/$v/$topo (no result: $(tail -1 "$out.log"))"
		rc=1
		continue
	fi
	if [ $placement = 1 ]; then
		p=$out/placement.json
		if jq -e '.pass' "$p" >/dev/null 2>&1 && [ $run = 0 ]; then
			echo "PASS: placement/$v/$topo ($(jq -c 'first(.. | objects | select(has("small")) | {small})' "$p"))"
		else
			echo "FAIL: placement/$v/$topo ($(tail -1 "$out.log"); see $p)"
			rc=1
		fi
	fi
done
exit $rc

#!/bin/bash
# tests/late-online.sh VARIANT...
#
# Efficiencies of a cluster whose CPUs come online after the CPUFreq driver
# registered (kernel-review item 2).  Boots VARIANT with maxcpus=$MAXCPUS
# (the first cluster of the default topology), loads bench/platform (its
# policies, hence its CPU EMs, exist only for online CPUs), onlines every
# other CPU, then compares per cluster the states the EM flags inefficient
# with the frequencies CPUFreq skips (debugfs emrcu_platform/power:
# em_inefficient_khz, cpufreq_inefficient_khz).
#
# Checks, per variant:
#   late-online/V/control   the cluster online at load: both sets equal
#   late-online/V/late      clusters that got their EM when their first CPU
#                           came online: both sets equal on 6.1 and with
#                           kernel/fixes; on the v2 series (a declared gap,
#                           kernel/tests/expected-v2-gaps: guest/late-online)
#                           and on the merged design (kernel/upstream/tests/
#                           expected-upstream-gaps, the same line) some
#                           EM-flagged state is not marked in CPUFreq
# A late cluster must have an inefficient state (the boot EM of the mid and
# big classes has one at nominal conditions): without one the check could
# not fail, and it is a FAIL.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
. "$TOP/kernel/env.sh"
MAXCPUS=${MAXCPUS:-4}
[ $# -gt 0 ] || set -- unpatched patched
P=/sys/kernel/debug/emrcu_platform/power
suite=late-online
. "$TOP/tests/lib.sh"

grep -qx 'guest/late-online' <(sed 's/#.*//; s/[[:space:]]//g' "$TOP/kernel/tests/expected-v2-gaps") ||
	{ ko declared "guest/late-online not in kernel/tests/expected-v2-gaps"; finish; }

for v in "$@"; do
	suite=late-online/$v
	# A scratch kernel in $BUILD/V (kernel/tests/mutants.sh) is named by
	# KUNIT_EXPECT, as for kernel/tests/run-kunit.sh.
	if ! variant_lookup "$v"; then
		ko setup "unknown variant (kernel/variants); for a scratch build set KUNIT_EXPECT=fixed|v2"
		continue
	fi
	# The gap is expected where the variant's declared gaps list it.
	gaps=$(variant_gaps)
	if [ -n "$gaps" ] && grep -qx 'guest/late-online' <(sed 's/#.*//; s/[[:space:]]//g' "$gaps"); then
		expect=gap
	else
		expect=match
	fi
	if [ "$VARIANT_SCRATCH" = 0 ] && ! "$TOP/kernel/variant.sh" "$v" >/dev/null 2>&1; then
		ko build "kernel/variant.sh $v"
		continue
	fi
	if ! ko=$("$TOP/bench/kmod.sh" "$v" bench/platform | tail -1) || [ ! -f "$ko" ]; then
		ko build "bench/kmod.sh $v bench/platform"
		continue
	fi
	out=$BUILD/late-online/$v
	rm -rf "$out"
	mkdir -p "$out"
	cat >"$out/guest.sh" <<-EOS
	echo EMRCU-RESULT-BEGIN before; cat $P; echo EMRCU-RESULT-END before
	for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ "\$(cat \$c)" = 1 ] || echo 1 >\$c
	done
	echo EMRCU-RESULT-BEGIN after; cat $P; echo EMRCU-RESULT-END after
	EOS
	"$TOP/qemu-runner/emrcu-run" --variant "$v" --append "maxcpus=$MAXCPUS" \
		--module "$ko" --cmd-file "$out/guest.sh" --outdir "$out/run" \
		--timeout 180 --idle-timeout 90 >"$out/runner.log" 2>&1
	r=$?
	if [ $r -ne 0 ] || [ ! -s "$out/run/after" ] || [ ! -s "$out/run/before" ]; then
		ko boot "emrcu-run exit $r, see $out/runner.log"
		continue
	fi
	# Per cluster: late (no EM before the online), the two sets.
	jq -r --slurpfile b "$out/run/before" '.clusters[] as $c |
		($b[0].clusters[] | select(.id == $c.id) | .em_inefficient_khz == null) as $late |
		"\($c.id) \($late) \($c.em_inefficient_khz | tojson) \($c.cpufreq_inefficient_khz | tojson)"' \
		"$out/run/after" >"$out/sets" 2>"$out/jq.err" ||
		{ ko parse "jq: $(head -1 "$out/jq.err")"; continue; }
	ctl= late= nlate=0 flagged=0 differ=0
	while read -r id is_late em cf; do
		line="cluster$id em=$em cpufreq=$cf"
		if [ "$em" = null ]; then
			ko parse "cluster$id has no EM after the online"
		elif [ "$is_late" = false ]; then
			[ "$em" = "$cf" ] && ctl="$ctl; $line" || ctl="$ctl; DIFFER $line"
		else
			nlate=$((nlate + 1))
			[ "$em" != "[]" ] && flagged=$((flagged + 1))
			[ "$em" != "$cf" ] && differ=$((differ + 1))
			late="$late; $line"
		fi
	done <"$out/sets"
	ctl=${ctl#; } late=${late#; }
	if [ -z "$ctl" ]; then
		ko control "no cluster was online at load"
	elif [[ $ctl == *DIFFER* ]]; then
		ko control "$ctl"
	else
		ok control "$ctl"
	fi
	if [ "$nlate" -eq 0 ] || [ "$flagged" -eq 0 ]; then
		ko late "$nlate late cluster(s), $flagged with an inefficient state: the check cannot fail"
	elif [ $expect = match ] && [ $differ -eq 0 ]; then
		ok late "$late"
	elif [ $expect = gap ] && [ $differ -gt 0 ]; then
		warned=$(grep -c 'EM: No online CPU for CPUFreq policy' "$out/run/console.log")
		ok late "expected failure, declared gap: $differ late cluster(s) differ, $warned 'No online CPU' warning(s): $late"
	elif [ $expect = gap ]; then
		ko late "v2 should miss the marks of a late cluster (expected-v2-gaps) but: $late"
	else
		ko late "$differ late cluster(s) differ: $late"
	fi
done
finish

#!/bin/bash
# kernel/tests/run-kunit.sh VARIANT [--module PATH.ko[:PARAMS]]...
#
# Boot kernel variant VARIANT (kernel/variants) in QEMU, load the Energy Model
# KUnit suite (kernel/tests: CONFIG_EM_KUNIT_TEST=m, energy_model_test.ko),
# parse the console's KTAP with the tree's own parser
# (tools/testing/kunit/kunit.py parse --json) and compare with the expectation:
#   - a variant whose patches include kernel/fixes: every case passes;
#   - a variant without the fix: exactly the cases of kernel/tests/
#     expected-v2-gaps fail (an unexpected pass is an error too);
#   - a variant of the merged design (patches include kernel/upstream, with
#     its port of the suite, kernel/upstream/tests): exactly the cases of
#     kernel/upstream/tests/expected-upstream-gaps fail, likewise.
# --module loads a fixture before the suite, e.g. a CPUFreq driver that
# registers CPU Energy Models (bench/platform, see tests/kunit.sh): the CPU
# cases need one.  Without a fixture a skipped case is reported as SKIP;
# with one, a skip is a failure.
# Prints `PASS: kunit/VARIANT/CASE` or `FAIL: kunit/VARIANT/CASE (why)` per
# case, checks of the boot itself (kunit/VARIANT/boot, .../kmemleak on a
# kmemleak kernel), then `N passed, N failed`; exits non-zero on any FAIL.
#
# Environment: BUILD (default <top>/build), KUNIT_TIMEOUT (limit of the
# guest run in seconds, default 300), NO_BUILD=1 (do not run
# kernel/variant.sh first), KUNIT_EXPECT=fixed|v2 (for a scratch kernel in
# $BUILD/VARIANT that kernel/variants does not declare, e.g. a mutation
# check).  Logs: $BUILD/test-logs/kunit-VARIANT/ (the run's console,
# meta.json and result blocks in run/, ktap.log, results.json, parse.txt).
# Needs python3 (kunit.py) and jq (its JSON) on the host.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
. "$TOP/kernel/env.sh"
V=${1:?usage: kernel/tests/run-kunit.sh VARIANT [--module PATH.ko[:PARAMS]]...}
shift
fixtures=()
while [ $# -gt 0 ]; do
	case $1 in
	--module) fixtures+=(--module "${2:?--module needs PATH.ko}"); shift 2 ;;
	*) echo "run-kunit.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
SUITE=energy_model_runtime
TEST_SRC=kernel/power/energy_model_test.c
TEST_KO=kernel/power/energy_model_test.ko
TIMEOUT=${KUNIT_TIMEOUT:-300}

src=$BUILD/$V/src
out=$BUILD/$V/out
logs=$BUILD/test-logs/kunit-$V
suite=kunit/$V
. "$TOP/tests/lib.sh"

rm -rf "$logs"
mkdir -p "$logs"

# --- the variant: built, with the suite as a module ------------------------
if ! variant_lookup "$V"; then
	ko setup "unknown variant (kernel/variants); for a scratch build in $BUILD/$V set KUNIT_EXPECT=fixed|v2"
	finish
fi
# A scratch kernel (a mutation check) is built by hand, not by variant.sh.
[ "$VARIANT_SCRATCH" = 1 ] && NO_BUILD=1
if [ "${NO_BUILD:-0}" != 1 ] &&
	! "$TOP/kernel/variant.sh" "$V" >"$logs/build.log" 2>&1; then
	ko build "kernel/variant.sh $V failed, see $logs/build.log"
	finish
fi
for f in "$src/$TEST_SRC" "$out/$TEST_KO" "$out/arch/arm64/boot/Image"; do
	if [ ! -f "$f" ]; then
		ko build "$f missing"
		finish
	fi
done

# The cases, from the suite's own case table (the one place they are listed).
mapfile -t cases < <(sed -n 's/^[[:space:]]*KUNIT_CASE(\([A-Za-z0-9_]*\)),.*/\1/p' \
	"$src/$TEST_SRC")
if [ ${#cases[@]} -eq 0 ]; then
	ko setup "no KUNIT_CASE in $src/$TEST_SRC"
	finish
fi

# The expected failures: the v2 gaps, unless the variant carries the fix;
# the merged design's own gaps for a variant of it.
declare -A expect_fail=()
gaps=$(variant_gaps)
case $gaps in
'') expectation="all pass (fixed)" ;;
*/upstream/*) gap="upstream gap" design="the merged design" ;;
*) gap="v2 gap" design="v2" ;;
esac
if [ -n "$gaps" ]; then
	expectation="${gap}s fail (${gaps#"$TOP"/})"
	while read -r c _; do
		expect_fail[$c]=1
		if ! printf '%s\n' "${cases[@]}" | grep -qx "$c"; then
			ko "${gaps##*/}" "'$c' is no case of the suite"
		fi
	done < <(sed 's/#.*//' "$gaps" | grep -v '^[[:space:]]*$' | grep -v /)
fi
echo "# variant $V: ${#cases[@]} cases, expectation: $expectation"

# --- boot --------------------------------------------------------------------
# qemu-runner/emrcu-run boots the variant (realtime mode, default topology),
# loads the fixtures, then runs the guest command: it sets failslab up where
# the kernel has it, loads the suite (KUnit runs it at load time;
# kunit.enable=1 because the config has KUNIT_DEFAULT_ENABLED=n), and on a
# kmemleak kernel lets the freed tables age and reports what kmemleak finds.
# The runner judges the boot (panic, oops, BUG, KASAN, WARNING, lockdep, RCU
# stall, kmemleak, hang) with its exit code.
cat >"$logs/guest-cmd.sh" <<EOF
# The nomem case: failslab (debug kernels) must count GFP_KERNEL
# allocations; nothing fails unless the case arms its task's fail-nth.
F=/sys/kernel/debug/failslab/ignore-gfp-wait
[ ! -e \$F ] || echo N >\$F || exit 1
insmod /emrcu/bin/${TEST_KO##*/} || exit 1
EOF
cat >>"$logs/guest-cmd.sh" <<'EOF'
if [ -e /sys/kernel/debug/kmemleak ]; then
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	echo "EMRCU-RESULT-BEGIN kmemleak"
	cat /sys/kernel/debug/kmemleak
	echo "EMRCU-RESULT-END kmemleak"
fi
EOF
runner=$TOP/qemu-runner/emrcu-run
if [ ! -x "$runner" ]; then
	ko boot "$runner missing: run make tools"
	finish
fi
run=$logs/run
"$runner" --variant "$V" --mode realtime --append kunit.enable=1 \
	"${fixtures[@]}" --file "$out/$TEST_KO" --cmd-file "$logs/guest-cmd.sh" \
	--timeout "$TIMEOUT" --outdir "$run" >"$logs/runner.log" 2>&1
boot_rc=$?
console=$run/console.log
verdict=$(grep '^emrcu-run: ' "$logs/runner.log" | tail -1)
if [ "$boot_rc" -eq 0 ]; then
	ok boot
else
	ko boot "emrcu-run exit $boot_rc: ${verdict#emrcu-run: }"
fi
if [ -f "$run/kmemleak" ]; then
	# The filter's negative control first: it must see the EM leak of the
	# fixture and not the unrelated one.
	em_leaks() { awk -f "$HERE/kmemleak-em.awk" "$1"; }
	if [ "$(em_leaks "$HERE/fixtures/kmemleak-em.txt")" != 1 ] ||
		[ "$(em_leaks "$HERE/fixtures/kmemleak-unrelated.txt")" != 0 ]; then
		ko kmemleak "kmemleak-em.awk misreads kernel/tests/fixtures/kmemleak-*.txt"
	else
		leaks=$(em_leaks "$run/kmemleak")
		all=$(grep -c '^unreferenced object ' "$run/kmemleak")
		if [ "$leaks" -eq 0 ]; then
			ok kmemleak "no leak through the EM; $all other leak(s) of the boot"
		else
			ko kmemleak "$leaks of $all kmemleak report(s) run through the Energy Model, see $run/kmemleak"
		fi
	fi
fi
if [ ! -s "$console" ]; then
	ko parse "no console log $console"
	finish
fi

# --- parse with the tree's KUnit parser -------------------------------------
# A module's suite prints its KTAP as a subtest (indented, numbered 1) with no
# top-level header, after the boot-time executor's empty run ("1..0"), which
# would end the parse.  Give the parser the module's KTAP under the header
# the executor prints for one built-in suite.
ktap=$logs/ktap.log
{
	printf 'KTAP version 1\n1..1\n'
	awk -v s="$SUITE" '
	{ sub(/\r$/, ""); sub(/^\[ *[0-9]+\.[0-9]+\] /, "") }
	/KTAP version 1$/ { prev = $0; next }
	$0 ~ "# Subtest: " s "$" { on = 1; print prev }
	on { print }
	on && $0 ~ "^(not )?ok [0-9]+ " s "$" { exit }' "$console"
} >"$ktap"
json=$logs/results.json
python3 "$src/tools/testing/kunit/kunit.py" parse --json="$json" "$ktap" \
	>"$logs/parse.txt" 2>&1
if [ ! -s "$json" ]; then
	ko parse "kunit.py parse wrote no JSON, see $logs/parse.txt"
	finish
fi
declare -A status=()
while read -r c s; do
	status[$c]=$s
done < <(jq -r --arg s "$SUITE" '.. | objects | select(.name? == $s) |
	.test_cases[] | "\(.name) \(.status)"' "$json")
if [ ${#status[@]} -eq 0 ]; then
	ko parse "suite $SUITE not in the KTAP output, see $logs/parse.txt"
fi

# --- verdicts ----------------------------------------------------------------
# The first failed expectation of a case, from its KTAP diagnostics.
why_of() {
	awk -v c="$1" '
	/^    (not )?ok [0-9]+ / { if ($0 ~ " " c "$") { print first; exit } first = ""; next }
	first == "" && /^    # .*(EXPECTATION|ASSERTION) FAILED/ { want = 2; next }
	want { sub(/^ +/, ""); first = first (first == "" ? "" : " ") $0; want-- }' "$ktap"
}
skip_why() {
	sed -n "s/^ *ok [0-9]* $1 # SKIP //p" "$ktap" | head -1
}
for c in "${cases[@]}"; do
	s=${status[$c]:-}
	unset "status[$c]"
	if [ -z "$s" ]; then
		ko "$c" "no result in the KTAP output"
	elif [ "$s" = SKIP ]; then
		if [[ $(skip_why "$c") == "needs CONFIG_"* ]]; then
			skip "$c" "$(skip_why "$c")"
		elif [ ${#fixtures[@]} -eq 0 ]; then
			skip "$c" "needs a fixture module: $(skip_why "$c")"
		else
			ko "$c" "skipped although ${fixtures[*]} was loaded: $(skip_why "$c")"
		fi
	elif [ -n "${expect_fail[$c]:-}" ]; then
		case $s in
		FAIL) ok "$c" "expected failure, $gap: $(why_of "$c")" ;;
		PASS) ko "$c" "passed, but ${gaps##*/} says $design fails it" ;;
		*) ko "$c" "$s, expected FAIL ($gap)" ;;
		esac
	else
		case $s in
		PASS) ok "$c" ;;
		*) ko "$c" "$s: $(why_of "$c")" ;;
		esac
	fi
done
for c in "${!status[@]}"; do
	ko "$c" "result for a case the source does not list"
done
finish

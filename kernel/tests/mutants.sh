#!/bin/bash
# kernel/tests/mutants.sh [NAME...]   (make check-fixes)
#
# Every fix of kernel/fixes is pinned by a check that fails without it.  A
# mutant is the fixed kernel (the 17, kernel/fixes, the KUnit suite; the
# config of patched-fixed) with one line of one fix deleted or changed in
# kernel/power/energy_model.c; the check that pins that fix must then print
# the declared FAIL line.  The unmutated kernel ("none") must pass the same
# checks, so a failure is the mutation's.
#
# One scratch kernel in $BUILD/mutant: a mutant after the first recompiles
# energy_model.c and relinks.  Not in make test: it builds one more kernel.
# Prints `PASS: mutants/NAME (the FAIL line seen)` or `FAIL: mutants/NAME
# (why)`, then `N passed, N failed`.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/kernel/env.sh"
F=kernel/power/energy_model.c

# name | sed script on $F (one line deleted or changed) | check | FAIL line
KUNIT="KUNIT_EXPECT=fixed kernel/tests/run-kunit.sh mutant --module \$ko"
LATE="KUNIT_EXPECT=fixed tests/late-online.sh mutant"
MUTANTS=(
	# 0001: the power check no longer sets the error: 0 is returned
	"validate|/run-time update invalid power/{n;n;d}|$KUNIT|FAIL: kunit/mutant/em_test_update_power_zero"
	# 0002: the stale marks are not cleared
	"clear-stale|/^\tem_cpufreq_clear_efficient(policy, table, pd->nr_perf_states);\$/d|$KUNIT|FAIL: kunit/mutant/em_test_cpu_update_clears_inefficiency"
	# 0003: the policy through an active CPU again, as v2
	"late-online|s/em_span_cpus(pd), cpu_online_mask)/em_span_cpus(pd), cpu_active_mask)/|$LATE|FAIL: late-online/mutant/late"
)

suite=mutants
. "$TOP/tests/lib.sh"

M=$BUILD/mutant
src=$M/src
out=$M/out
logs=$M/logs
mkdir -p "$logs"

# The fixed tree, once per change of its inputs.
"$TOP/kernel/variant.sh" patched-fixed config >"$logs/config.log" 2>&1 ||
	{ cat "$logs/config.log" >&2; die "patched-fixed: no config"; }
"$TOP/kernel/pristine.sh"
if [ ! -e "$src/.git" ]; then
	git -C "$BUILD/pristine" worktree prune
	git -C "$BUILD/pristine" worktree add -q --detach "$src" base
fi
inputs=$(cat "$BUILD/patched-fixed/src/.emrcu-inputs")
if [ "$(cat "$src/.emrcu-inputs" 2>/dev/null)" != "$inputs" ]; then
	git -C "$src" reset -q --hard base
	git -C "$src" clean -q -f -d -x
	for d in kernel/patches kernel/fixes kernel/tests; do
		for p in $(patch_list "$d"); do
			git -C "$src" -c user.name=emrcu -c user.email=emrcu@localhost \
				am -q --keep-cr "$p" || die "$p does not apply"
		done
	done
	echo "$inputs" >"$src/.emrcu-inputs"
fi
mkdir -p "$out"
cmp -s "$BUILD/patched-fixed/out/.config" "$out/.config" ||
	cp "$BUILD/patched-fixed/out/.config" "$out/.config"

# build NAME: the mutant's kernel and the platform module ($ko)
build() {
	rm -f "$out/.emrcu-built"
	(
		flock 9
		kmake -C "$src" O="$out" LOCALVERSION=-emrcu-mutant Image modules \
			>"$logs/$1.build.log" 2>&1
	) 9>"$KLOCK" || return 1
	echo "$1" >"$out/.emrcu-built"
	ko=$("$TOP/bench/kmod.sh" mutant bench/platform | tail -1) && [ -f "$ko" ]
}

[ $# -gt 0 ] && want=" $* " || want=
for m in "none|||" "${MUTANTS[@]}"; do
	IFS='|' read -r name script check failline <<<"$m"
	[ -n "$want" ] && [ "$name" != none ] && [[ $want != *" $name "* ]] && continue
	git -C "$src" checkout -q -- "$F"
	if [ -n "$script" ]; then
		sed -i "$script" "$src/$F"
		changed=$(git -C "$src" diff --numstat -- "$F" | awk '{ print $2 }')
		if [ "$changed" != 1 ]; then
			ko "$name" "the sed script changed ${changed:-no} line(s) of $F, not one: the fix changed?"
			continue
		fi
		git -C "$src" diff -U0 -- "$F" >"$logs/$name.diff"
	fi
	say "mutant $name: building"
	if ! build "$name"; then
		ko "$name" "build failed, see $logs/$name.build.log"
		continue
	fi
	if [ "$name" = none ]; then
		# The unmutated fixed kernel: every check passes.
		for m2 in "${MUTANTS[@]}"; do
			IFS='|' read -r _ _ c _ <<<"$m2"
			echo "$c"
		done | sort -u | while read -r c; do
			(cd "$TOP" && eval "$c")
		done >"$logs/none.log" 2>&1
		nf=$(grep -c '^FAIL: ' "$logs/none.log")
		np=$(grep -c '^PASS: ' "$logs/none.log")
		if [ "$nf" -eq 0 ] && [ "$np" -gt 0 ]; then
			ok none "the fixed kernel passes every check: $np PASS lines"
		else
			ko none "$nf FAIL, $np PASS lines, see $logs/none.log"
		fi
		continue
	fi
	(cd "$TOP" && eval "$check") >"$logs/$name.log" 2>&1
	if seen=$(grep -m1 -F "$failline" "$logs/$name.log"); then
		ok "$name" "$(cut -c1-200 <<<"$seen")"
	else
		ko "$name" "no '$failline' with $(tr -d '\n' <"$logs/$name.diff" | cut -c1-120): see $logs/$name.log"
	fi
done
git -C "$src" checkout -q -- "$F"
finish

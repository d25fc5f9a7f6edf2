#!/bin/bash
# The series as posted: 17 patches in git format-patch form, a cover letter,
# subjects exactly as the v2 cover letter lists them, and `git am` applies
# them to the pristine tree (the `patched` worktree is exactly that).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/kernel/env.sh"
suite=series
. "$TOP/tests/lib.sh"
P=$TOP/kernel/patches
expect=$BUILD/expected-subjects
grep -v '^#' "$TOP/kernel/expected-subjects" >"$expect"

check() { # name, condition-command...
	local n=$1
	shift
	if "$@"; then ok "$n"; else ko "$n" "failed"; fi
}

n=$(grep -cv '^\s*\(#\|$\)' "$P/series" 2>/dev/null || echo 0)
check "17-patches-in-series" test "$n" -eq 17
check "cover-letter" test -f "$P/0000-cover-letter.patch"

# Subjects of the patch files, in series order.
subjects() {
	for f in $(patch_list "$P"); do patch_subject "$f"; done
}
if diff <(subjects) "$expect" >"$BUILD/series-subjects.diff"; then
	ok "subjects-match-cover-letter"
else
	ko "subjects-match-cover-letter" "diff in $BUILD/series-subjects.diff"
	cat "$BUILD/series-subjects.diff"
fi

# git am onto pristine: the patched variant's worktree holds the result.
src=$BUILD/patched/src
if [ -d "$src" ]; then
	applied=$(git -C "$src" log --format=%s base.. | tac | head -17)
	if diff <(echo "$applied") "$expect" >/dev/null; then
		ok "git-am-onto-linux-source-6.1"
	else
		ko "git-am-onto-linux-source-6.1" "patched worktree does not hold the 17"
	fi
else
	ko "git-am-onto-linux-source-6.1" "no patched worktree: build failed?"
fi

# check-series' coverage rule (kernel/patch-objects.sh): a changed C file
# without an object in O= was not compiled.  On the lean patched build:
# patch 10's energy_model.c is compiled; patch 13's cpufreq_cooling.c
# (thermal, coverage config only) is not, and must be named.
. "$TOP/kernel/patch-objects.sh"
out=$BUILD/patched/out
p10=$(ls "$P"/0010-*.patch)
p13=$(ls "$P"/0013-*.patch)
if [ -f "$out/.emrcu-built" ]; then
	check "uncompiled-check-passes-a-compiled-file" \
		test -z "$(patch_uncompiled "$p10" "$out")"
	check "uncompiled-check-names-a-file-the-config-skips" \
		grep -qx drivers/thermal/cpufreq_cooling.c <(patch_uncompiled "$p13" "$out")
else
	ko "uncompiled-check" "no patched build in $out"
fi
finish

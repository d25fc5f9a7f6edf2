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

# The merged design's backport (kernel/upstream): 23 patches in upstream's
# order, a cover letter whose shortlog lists their subjects, and `git am`
# of them onto the pristine tree (the upstream variant's worktree).
U=$TOP/kernel/upstream
usubjects() {
	for f in $(patch_list "$U"); do patch_subject "$f"; done
}
n=$(usubjects | grep -c .)
check "upstream-23-patches" test "$n" -eq 23
# The shortlog of git format-patch --cover-letter: "  subject", wrapped
# lines continue with four spaces.
shortlog() {
	awk '/^emrcu-bench \([0-9]+\):$/ { on = 1; next }
		on && /^$/ { exit }
		on && /^    / { sub(/^ +/, ""); line = line " " $0; next }
		on && /^  / { if (line != "") print line; sub(/^ +/, ""); line = $0 }
		END { if (line != "") print line }' "$U/0000-cover-letter.patch"
}
if [ -f "$U/0000-cover-letter.patch" ] &&
	diff <(usubjects) <(shortlog) >"$BUILD/upstream-subjects.diff"; then
	ok "upstream-subjects-match-cover-letter"
else
	ko "upstream-subjects-match-cover-letter" "diff in $BUILD/upstream-subjects.diff"
fi
src=$BUILD/upstream/src
if [ -d "$src" ]; then
	if diff <(git -C "$src" log --format=%s base.. | tac | head -23) <(usubjects) >/dev/null; then
		ok "upstream-git-am-onto-linux-source-6.1"
	else
		ko "upstream-git-am-onto-linux-source-6.1" "upstream worktree does not hold the 23"
	fi
else
	ko "upstream-git-am-onto-linux-source-6.1" "no upstream worktree: build failed?"
fi
finish

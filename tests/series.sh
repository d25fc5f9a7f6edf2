#!/bin/bash
# The series as posted: 17 patches in git format-patch form, a cover letter,
# subjects exactly as the v2 cover letter lists them, and `git am` applies
# them to the pristine tree (the `patched` worktree is exactly that).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/kernel/env.sh"
P=$TOP/kernel/patches
expect=$BUILD/expected-subjects
grep -v '^#' "$TOP/kernel/expected-subjects" >"$expect"

check() { # name, condition-command...
	local n=$1
	shift
	if "$@"; then echo "PASS: series/$n"; else echo "FAIL: series/$n"; fi
}

n=$(grep -cv '^\s*\(#\|$\)' "$P/series" 2>/dev/null || echo 0)
check "17-patches-in-series" test "$n" -eq 17
check "cover-letter" test -f "$P/0000-cover-letter.patch"

# Subjects of the patch files, in series order.
subjects() {
	for f in $(patch_list "$P"); do patch_subject "$f"; done
}
if diff <(subjects) "$expect" >"$BUILD/series-subjects.diff"; then
	echo "PASS: series/subjects-match-cover-letter"
else
	echo "FAIL: series/subjects-match-cover-letter (diff in $BUILD/series-subjects.diff)"
	cat "$BUILD/series-subjects.diff"
fi

# git am onto pristine: the patched variant's worktree holds the result.
src=$BUILD/patched/src
if [ -d "$src" ]; then
	applied=$(git -C "$src" log --format=%s base.. | tac | head -17)
	if diff <(echo "$applied") "$expect" >/dev/null; then
		echo "PASS: series/git-am-onto-linux-source-6.1"
	else
		echo "FAIL: series/git-am-onto-linux-source-6.1 (patched worktree does not hold the 17)"
	fi
else
	echo "FAIL: series/git-am-onto-linux-source-6.1 (no patched worktree: build failed?)"
fi

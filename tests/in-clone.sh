#!/bin/bash
# tests/in-clone.sh DIR TARGET [VAR=VALUE...] — a documented make target as a
# newcomer's first command on a fresh clone, in `make test`.
#
# DIR/tree is a new `git clone` of this tree, plus the work tree's changes to
# tracked files and its untracked, unignored files (so an uncommitted change
# is tested as it stands): no host binaries, no guest programs, no results.
# DIR/build is its BUILD: the kernels `make test` already built are reused
# through links (the pristine tree, every variant of kernel/variants, the
# guest image and ccache; kernel/variant.sh hashes its inputs relative to
# the tree, so they are up to date), everything else is built there from
# nothing.  Then `make -C DIR/tree TARGET VAR=VALUE... BUILD=DIR/build` runs
# with its output passed through (the target's own PASS:/FAIL: lines count),
# and one line says whether it worked as a first command:
#   PASS: clone/TARGET (exit 0, nothing missing)
#   FAIL: clone/TARGET (exit N | a "No such file" line)
# Exit: make's.  NO_TOOLS=1 runs TARGET with the `tools` prerequisite
# taken off every target (the negative control: that must fail at once).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
DIR=${1:?usage: tests/in-clone.sh DIR TARGET [VAR=VALUE...]}
TARGET=${2:?usage: tests/in-clone.sh DIR TARGET [VAR=VALUE...]}
shift 2
name=clone/$TARGET${NO_TOOLS:+-without-tools}

rm -rf "$DIR"
mkdir -p "$DIR/build"
if ! git -C "$TOP" rev-parse -q --verify HEAD >/dev/null ||
	! git clone -q "$TOP" "$DIR/tree"; then
	echo "FAIL: $name (cannot git clone $TOP)"
	exit 1
fi
# The work tree as it stands: changes to tracked files, new unignored files.
git -C "$TOP" diff --binary HEAD >"$DIR/worktree.diff"
if [ -s "$DIR/worktree.diff" ] && ! git -C "$DIR/tree" apply "$DIR/worktree.diff"; then
	echo "FAIL: $name (the work tree's changes do not apply to the clone)"
	exit 1
fi
(cd "$TOP" && git ls-files -z --others --exclude-standard | xargs -0 -r cp --parents -t "$DIR/tree")

# Kernels, pristine tree, image, ccache: this tree's, by links.
for v in pristine image ccache $(. "$TOP/kernel/env.sh" && variant_names); do
	[ -e "$BUILD/$v" ] && ln -s "$BUILD/$v" "$DIR/build/$v"
done
[ -z "${NO_TOOLS:-}" ] || sed -i -E 's/^([a-z-]+:.*) tools(-host|-guest)?( |$)/\1\3/' "$DIR/tree/Makefile"

log=$DIR/make.log
start=$(date +%s)
make -C "$DIR/tree" "$TARGET" "$@" BUILD="$DIR/build" KLOCK="$BUILD/.kbuild.lock" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
secs=$(($(date +%s) - start))
if [ "$rc" -ne 0 ]; then
	echo "FAIL: $name (make $TARGET $*: exit $rc after ${secs}s; $log)"
elif grep -q 'No such file or directory' "$log"; then
	echo "FAIL: $name (exit 0, but: $(grep -m1 'No such file or directory' "$log"))"
	rc=1
else
	echo "PASS: $name (make $TARGET $*: exit 0 in ${secs}s, nothing missing)"
fi
exit "$rc"

#!/bin/sh
# Extract the Debian linux-source-6.1 tarball once into $BUILD/pristine and
# commit it (tag "base"), so variants are git worktrees that `git am` onto.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/kernel/env.sh"

tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$tarball" ] || die "$tarball missing: apt-get install linux-source-6.1 (or run: make deps)"
p=$BUILD/pristine
if git -C "$p" rev-parse -q --verify base >/dev/null 2>&1; then
	exit 0
fi
say "extracting $(basename "$tarball") into $p (once)"
rm -rf "$p.tmp"
mkdir -p "$p.tmp"
tar -xf "$tarball" -C "$p.tmp" --strip-components=1
cd "$p.tmp"
ver=$(make -s kernelversion)
git init -q
# Debian's top-level .gitignore ignores everything: add by force.
git add -f -A
git -c user.name=emrcu -c user.email=emrcu@localhost commit -q \
	-m "linux-source-6.1 $ver (pristine, from $(basename "$tarball"))"
git tag base
cd "$BUILD"
rm -rf "$p"
mv "$p.tmp" "$p"
say "pristine tree $ver ready"

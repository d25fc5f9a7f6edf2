#!/bin/sh
# bench/kmod.sh VARIANT MODDIR...
# Build out-of-tree modules (bench/platform, bench/em_bench, ...) against one
# kernel variant. Sources are copied to $BUILD/VARIANT/mod/<name> first so
# that no object file lands in the source tree and variants never share one.
# Prints the path of each built .ko.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/kernel/env.sh"
v=${1:?usage: bench/kmod.sh VARIANT MODDIR...}
shift
out=$BUILD/$v/out
[ -f "$out/.emrcu-built" ] || die "variant $v is not built: make kernels"
# Copy only what changed so kbuild's timestamps stay meaningful.
sync_dir() {
	mkdir -p "$2"
	for f in "$1"/*; do
		[ -f "$f" ] || continue
		cmp -s "$f" "$2/$(basename "$f")" || cp "$f" "$2/"
	done
}
# Headers shared by the bench modules (-I$(src)/../common in their Kbuild).
sync_dir "$TOP/bench/common" "$BUILD/$v/mod/common"
# fresh SRC MODDIR STAMP: MODDIR has .ko files, none older than a file of SRC,
# a header of SRC's sibling module directories (shared headers) or STAMP.
fresh() {
	set -- "$1" "$2" "$3" "$2"/*.ko
	[ -f "$4" ] || return 1
	src=$1 stamp=$3
	shift 3
	for ko in "$@"; do
		[ "$stamp" -nt "$ko" ] && return 1
		for f in "$src"/* "$(dirname "$src")"/*/*.h; do
			[ -f "$f" ] && [ "$f" -nt "$ko" ] && return 1
		done
	done
	return 0
}
for d in "$@"; do
	case "$d" in /*) ;; *) d=$TOP/$d ;; esac
	[ -f "$d/Kbuild" ] || die "$d: no Kbuild file"
	n=$(basename "$d")
	m=$BUILD/$v/mod/$n
	sync_dir "$d" "$m"
	# Up to date (every .ko newer than its sources and the kernel): no
	# build, so no wait on the kernel-build lock while another variant builds.
	if fresh "$d" "$m" "$out/.emrcu-built"; then
		ls "$m"/*.ko
		continue
	fi
	(
		flock 9
		kmake -s -C "$BUILD/$v/src" O="$out" M="$m" W=1 modules >"$m/build.log" 2>&1
	) 9>"$KLOCK" || { cat "$m/build.log" >&2; die "$v: module $n failed to build"; }
	ls "$m"/*.ko
done

#!/bin/sh
# kernel/variant.sh NAME [check|config|build]
#
# Prepare and build one kernel variant declared in kernel/variants:
#   $BUILD/NAME/src  worktree of the pristine tree with the variant's patches
#   $BUILD/NAME/out  O= directory: .config, Image, modules
# Nothing is redone when the inputs (patches, fragments, base) are unchanged.
# PATCHES=<dir> declares the extra variant "custom" (PATCHES_BASE=patched puts
# it on top of the 17 patches instead of the pristine tree).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/kernel/env.sh"

name=${1:?usage: kernel/variant.sh NAME [check|config|build]}
# V=1 (make kernels V=1): the build's output streams to stderr as well as
# to build.log (and kbuild, given V=1 by make, prints whole command lines).
stream=${V:-0}
stage=${2:-build}

line=$(variant_line "$name")
if [ "$name" = custom ]; then
	[ -n "${PATCHES:-}" ] || die "variant custom needs PATCHES=<dir>"
	[ -d "$PATCHES" ] || die "PATCHES=$PATCHES: no such directory"
	[ -n "$(patch_list "$PATCHES")" ] ||
		die "PATCHES=$PATCHES: no patches (*.patch files or a series file)"
	case "${PATCHES_BASE:-pristine}" in
	pristine) line="custom $PATCHES guest,preempt-none" ;;
	patched) line="custom kernel/patches,$PATCHES guest,preempt-none" ;;
	*) die "PATCHES_BASE=$PATCHES_BASE: use pristine or patched" ;;
	esac
fi
[ -n "$line" ] || die "unknown variant '$name' (see kernel/variants)"
set -- $line
pdirs=$2
frags=$3

patches=
if [ "$pdirs" != - ]; then
	for d in $(echo "$pdirs" | tr , ' '); do
		patches="$patches $(patch_list "$d")"
	done
fi
fraglist=
for f in $(echo "$frags" | tr , ' '); do
	fp=$TOP/kernel/config/$f.config
	[ -f "$fp" ] || die "variant $name: config fragment $fp missing"
	fraglist="$fraglist $fp"
done

# check: the declaration alone (name, patch directories and files,
# fragments), in a blink, before anything is extracted or built.
[ "$stage" = check ] && exit 0

"$TOP/kernel/pristine.sh"
P=$BUILD/pristine
V=$BUILD/$name
src=$V/src
out=$V/out
mkdir -p "$V"

# The variant's name goes into the release by make's LOCALVERSION, not by
# CONFIG_LOCALVERSION: autoconf.h is included by every file, so a name in the
# config would make every object of every variant a ccache miss.  Variants
# with the same fragments (patched/patched-fixed, patched-debug/-broken)
# then rebuild only what their patches touch; a patch to energy_model.h
# (kernel/fixes) touches about half the objects (patched-fixed after
# patched, cold cache: 48 % hits, 478 s vs 570 s for the first kernel).
lvtag=-emrcu-$name
# Paths inside the tree are hashed relative to it, so a clone elsewhere that
# shares $BUILD (tests/fresh-clone.sh) finds its kernels up to date.
inputs=$( (git -C "$P" rev-parse base; for f in "$TOP/kernel/env.sh" $patches $fraglist; do
	echo "${f#"$TOP"/}"; cat "$f"; done) | sha256sum | cut -c1-16)

# --- source: worktree at base + patches -------------------------------------
if [ "$(cat "$src/.emrcu-inputs" 2>/dev/null)" != "$inputs" ]; then
	say "$name: preparing source tree"
	if [ ! -e "$src/.git" ]; then
		rm -rf "$src"
		git -C "$P" worktree prune
		git -C "$P" worktree add -q --detach "$src" base
	fi
	git -C "$src" am --abort >/dev/null 2>&1 || true
	git -C "$src" reset -q --hard base
	git -C "$src" clean -q -f -d -x
	n=0
	for p in $patches; do
		n=$((n + 1))
		if ! git -C "$src" -c user.name=emrcu -c user.email=emrcu@localhost \
			am -q --keep-cr "$p" >"$V/am.log" 2>&1; then
			git -C "$src" am --abort >/dev/null 2>&1 || true
			cat "$V/am.log" >&2
			die "variant $name: patch $p does not apply (patch $n)"
		fi
	done
	say "$name: $n patches applied"
	echo "$inputs" >"$src/.emrcu-inputs"
fi

# --- config: allnoconfig + fragments, every requested value checked ---------
if [ "$(cat "$out/.emrcu-config" 2>/dev/null)" != "$inputs" ]; then
	say "$name: configuring (allnoconfig +$(echo "$frags" | tr , ' '))"
	mkdir -p "$out"
	(cd "$src" && scripts/kconfig/merge_config.sh -n -O "$out" $fraglist \
		>"$V/merge.log" 2>&1) || { cat "$V/merge.log" >&2; die "$name: merge_config failed"; }
	"$TOP/kernel/checkconfig.sh" "$out/.config" $fraglist ||
		die "$name: config fragments not honoured (see above)"
	echo "$inputs" >"$out/.emrcu-config"
fi
[ "$stage" = config ] && exit 0

# --- build: Image + in-tree modules ------------------------------------------
if [ "$(cat "$out/.emrcu-built" 2>/dev/null)" = "$inputs" ] &&
	[ -f "$out/arch/arm64/boot/Image" ]; then
	say "$name: up to date ($(cat "$out/include/config/kernel.release"))"
	exit 0
fi
say "$name: building Image and modules (-j$JOBS, log $V/build.log)"
# Timed inside the lock, so waiting for another build does not count.  The
# ccache statistics are global: they are exact only when nothing else builds.
(
	flock -n 9 || { say "$name: waiting for the build lock ($KLOCK: another variant is building)"; flock 9; }
	say "$name: build started"
	ccache -z >/dev/null 2>&1 || true
	start=$(date +%s)
	: >"$V/build.log"
	# A line every 30 s: files compiled so far, of a full build's count;
	# with V=1 the build's own output instead.
	total=$(cat "$V/build-files" 2>/dev/null || echo "?")
	if [ "$stream" = 1 ]; then
		tail -n +1 -f "$V/build.log" >&2 &
	else
		(
			trap 'kill "$s" 2>/dev/null; exit 0' TERM
			while :; do
				sleep 30 &
				s=$!
				wait "$s"
				say "$name: $(grep -c '^  CC' "$V/build.log")/$total files compiled, $(($(date +%s) - start)) s"
			done
		) &
	fi
	tick=$!
	rc=0
	kmake -C "$src" O="$out" LOCALVERSION="$lvtag" Image modules >>"$V/build.log" 2>&1 || rc=1
	[ "$stream" = 1 ] && sleep 1 # tail -f polls once a second
	kill "$tick" 2>/dev/null || true
	wait "$tick" 2>/dev/null || true
	[ "$rc" -eq 0 ] || exit 1
	echo $(($(date +%s) - start)) >"$V/build-seconds"
	# the most files one build compiled: a full build's count
	n=$(grep -c '^  CC' "$V/build.log" || true)
	[ "${n:-0}" -le "$(cat "$V/build-files" 2>/dev/null || echo 0)" ] ||
		echo "$n" >"$V/build-files"
) 9>"$KLOCK" || { tail -40 "$V/build.log" >&2; die "$name: kernel build failed"; }
secs=$(cat "$V/build-seconds")
hits=$(ccache --print-stats 2>/dev/null | awk -F'\t' '
	$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
	$1 == "cache_miss" { m += $2 }
	END { if (h + m) printf "%.1f", 100 * h / (h + m); else printf "n/a" }')
echo "$inputs" >"$out/.emrcu-built"
echo "variant=$name seconds=$secs ccache_hit_pct=$hits" >"$V/build-time"
say "$name: built $(cat "$out/include/config/kernel.release") in ${secs}s (ccache hits $hits%)"

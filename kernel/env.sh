# Shared build environment for every kernel and module build (sourced).
# One place for the cross toolchain, ccache layout and the build folder.
#
# Every variant lives at $BUILD/<variant>/src (a worktree of $BUILD/pristine)
# and $BUILD/<variant>/out (O=), so with CCACHE_BASEDIR=$BUILD the compiler
# sees the same relative paths for every variant and ccache hits across them.

: "${TOP:?TOP must be set before sourcing kernel/env.sh}"
BUILD=${BUILD:-$TOP/build}
export ARCH=arm64
export CROSS_COMPILE=aarch64-linux-gnu-
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=emrcu
export KBUILD_BUILD_HOST=emrcu-bench
# Empty (but set) LOCALVERSION: no "+" suffix for a git tree.  A variant's
# build passes LOCALVERSION=-emrcu-<name> (kernel/variant.sh); the module
# builds against it (M=) reuse its include/config/kernel.release.
export LOCALVERSION=
JOBS=${JOBS:-$(nproc)}
kmake() {
	make -j"$JOBS" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" \
		CC="ccache ${CROSS_COMPILE}gcc" HOSTCC="ccache gcc" "$@"
}
# Serialises kernel builds: two cores never run two kernel builds at once.
KLOCK=${KLOCK:-$BUILD/.kbuild.lock}

die() { echo "error: $*" >&2; exit 1; }

# The one reader of kernel/variants: variant_line NAME prints NAME's
# declaration ("NAME PATCH_DIRS FRAGMENTS"), variant_names every name.
variant_line() { awk -v n="$1" '!/^#/ && $1 == n' "$TOP/kernel/variants"; }
variant_names() { awk '!/^#/ && NF { print $1 }' "$TOP/kernel/variants"; }

# variant_lookup NAME: VARIANT_PDIRS, the patch directories of variant NAME
# as kernel/variants declares them ("-": none), and VARIANT_SCRATCH=0.  A
# scratch kernel built by hand in $BUILD/NAME (a mutation check,
# kernel/tests/mutants.sh) is not declared: KUNIT_EXPECT=fixed|v2 names its
# series, and VARIANT_SCRATCH=1.  Returns 1 for neither.
variant_lookup() {
	VARIANT_SCRATCH=0
	VARIANT_PDIRS=$(variant_line "$1" | awk '{ print $2 }')
	[ -n "$VARIANT_PDIRS" ] && return 0
	VARIANT_SCRATCH=1
	case ${KUNIT_EXPECT:-} in
	fixed) VARIANT_PDIRS=kernel/patches,kernel/fixes,kernel/tests ;;
	v2) VARIANT_PDIRS=kernel/patches,kernel/tests ;;
	*) return 1 ;;
	esac
}
# The declared gaps of the variant variant_lookup() found: the file that
# lists what fails on it (the merged design's, or v2's as posted), nothing
# for 6.1 and for v2 with kernel/fixes.
variant_gaps() {
	case ",$VARIANT_PDIRS," in
	*,kernel/fixes,*) ;;
	*,kernel/upstream,*) echo "$TOP/kernel/upstream/tests/expected-upstream-gaps" ;;
	*,kernel/patches,*) echo "$TOP/kernel/tests/expected-v2-gaps" ;;
	esac
}
say() { echo "[$(date +%H:%M:%S)] $*"; }

# List the patch files of one directory, in order: its `series` file (quilt
# style) when there is one, else every *.patch but the cover letter.
patch_list() {
	d=$1
	case "$d" in /*) ;; *) d=$TOP/$d ;; esac
	[ -d "$d" ] || die "patch directory $d missing"
	if [ -f "$d/series" ]; then
		grep -v '^[[:space:]]*\(#\|$\)' "$d/series" | while read -r f _; do
			[ -f "$d/$f" ] || die "$d/series names missing $f"
			echo "$d/$f"
		done
	else
		ls "$d"/*.patch 2>/dev/null | grep -v '/0000-cover-letter.patch$' || true
	fi
}

# Subject of a patch file, without the [PATCH ...] prefix (unfolded).
patch_subject() {
	awk '/^Subject: / { s = $0; sub(/^Subject: /, "", s); insub = 1; next }
	     insub && /^[ \t]/ { sub(/^[ \t]+/, " "); s = s $0; next }
	     insub { exit }
	     END { sub(/^\[[^]]*\] */, "", s); print s }' "$1"
}

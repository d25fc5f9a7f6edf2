# kernel/patch-objects.sh: sourced (after kernel/env.sh) by check-series.sh
# and tests/series.sh.  Kept out of env.sh, whose text is a kernel input
# (variant.sh hashes it): these helpers build nothing.

# Files a patch touches (new names).
patch_files() {
	sed -n 's|^diff --git a/[^ ]* b/||p' "$1" | sort -u
}

# The C files patch $1 changes that the build in $2 (O=) did not compile.
patch_uncompiled() {
	for f in $(patch_files "$1"); do
		case "$f" in
		*.c) [ -f "$2/${f%.c}.o" ] || echo "$f" ;;
		esac
	done
	return 0
}

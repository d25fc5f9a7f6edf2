#!/bin/sh
# kernel/check-series.sh [PATCHDIR...]
#
# Per-patch gate for the Energy Model series (default: kernel/patches, then
# kernel/fixes). In $BUILD/check-series/src (a worktree of the pristine tree)
# and $BUILD/check-series/out (O=, configured like the variant "coverage":
# the unpatched guest plus every driver the series converts),
# for each patch in order:
#   - apply it with git am, build `Image modules` incrementally (under flock),
#   - check that every C file the patch changes was compiled (an object in
#     O=): a hunk this configuration does not build is a hunk nobody built,
#   - run scripts/checkpatch.pl --strict on the patch file,
#   - run sparse (make C=2) on the objects of the C files the patch touches,
#     plus, for a touched header, the built C files that #include it
#     directly, and count the warnings that the unpatched tree does not have.
# Prints one row per patch:
#   NN  build OK/FAIL  compiled N/M  checkpatch E/W/C  sparse-new N  subject
# and exits non-zero on any build failure, changed C file not compiled,
# checkpatch error or new sparse warning. Logs: $BUILD/check-series/logs/, table: $BUILD/check-series/report.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/kernel/env.sh"

CS=$BUILD/check-series
src=$CS/src
out=$CS/out
logs=$CS/logs
# checkpatch runs scripts/spdxcheck.py, which needs the Debian python3 (ply).
CP_PATH=/usr/bin:$PATH

[ $# -gt 0 ] || set -- kernel/patches kernel/fixes

# patch_list and patch_subject come from kernel/env.sh, patch_files and
# patch_uncompiled from kernel/patch-objects.sh.
. "$TOP/kernel/patch-objects.sh"

# Objects to run sparse on for one patch, given the tree it applies to.
patch_objects() {
	for f in $(patch_files "$1"); do
		case "$f" in
		*.c) echo "${f%.c}.o" ;;
		include/*.h)
			git -C "$src" grep -l -F "#include <${f#include/}>" -- '*.c' |
				sed 's/\.c$/.o/' ;;
		*.h)
			git -C "$src" grep -l -F "#include \"$(basename "$f")\"" \
				-- "$(dirname "$f")/*.c" | sed 's/\.c$/.o/' ;;
		esac
	done | sort -u | while read -r o; do
		# Only objects this configuration builds.
		[ -f "$out/$o" ] && echo "$o"
	done
	return 0
}

kbuild() {
	(
		flock 9
		kmake -C "$src" O="$out" "$@"
	) 9>"$KLOCK"
}

# Run sparse on objects; print "object<TAB>file: message" per warning, with
# line and column numbers removed so that moved code compares equal.
sparse_run() {
	[ $# -gt 0 ] || return 0
	kbuild -j1 C=2 "$@" >"$logs/sparse.raw" 2>&1 || true
	cat "$logs/sparse.raw" >>"$logs/sparse.log"
	# -j1: each warning follows the CHECK line of its object. Objects
	# checked on the way (e.g. the vDSO in prepare) are left out.
	awk -v src="$src/" -v objs=" $* " '
		function rel(f) {
			sub("^" src, "", f); sub(/^(\.\.\/)*src\//, "", f)
			return f
		}
		/^  CHECK   / {
			cur = rel($2); sub(/\.c$/, ".o", cur)
			keep = index(objs, " " cur " ") > 0
			next
		}
		keep && /: (warning|error): / {
			l = rel($0)
			sub(/:[0-9]+:[0-9]+: /, ": ", l)
			print cur "\t" l
		}' "$logs/sparse.raw"
}

# Count lines of $1 (multiset) not in $2; print them to stderr.
count_new() {
	sort "$1" | uniq -c | while read -r n rest; do
		b=$(grep -c -x -F -- "$rest" "$2" || true)
		if [ "$n" -gt "$b" ]; then
			printf '%s\n' "$rest" | sed 's/^/  new sparse: /' >&2
			echo $((n - b))
		fi
	done | awk '{ s += $1 } END { print s + 0 }'
}

start=$(date +%s)
mkdir -p "$CS" "$logs"
rm -f "$logs"/*
"$TOP/kernel/pristine.sh"

patches=
for d in "$@"; do
	patches="$patches $(patch_list "$d")"
done
[ -n "$(echo $patches)" ] || die "no patches in $*"

# --- tree and config ---------------------------------------------------------
if [ ! -e "$src/.git" ]; then
	rm -rf "$src"
	git -C "$BUILD/pristine" worktree prune
	git -C "$BUILD/pristine" worktree add -q --detach "$src" base
fi
git -C "$src" am --abort >/dev/null 2>&1 || true
git -C "$src" reset -q --hard base
git -C "$src" clean -q -f -d -x

# variant.sh configures (and checks every fragment value of) the coverage
# variant; it is a no-op when the fragments have not changed.
"$TOP/kernel/variant.sh" coverage config
mkdir -p "$out"
cmp -s "$BUILD/coverage/out/.config" "$out/.config" ||
	cp "$BUILD/coverage/out/.config" "$out/.config"

# --- baseline: unpatched build and its sparse warnings ------------------------
say "check-series: building the unpatched tree (log $logs/00-base.build.log)"
kbuild Image modules >"$logs/00-base.build.log" 2>&1 ||
	{ tail -30 "$logs/00-base.build.log" >&2; die "unpatched tree does not build"; }
base_objs=$(for p in $patches; do patch_objects "$p"; done | sort -u)
# shellcheck disable=SC2086
sparse_run $base_objs >"$logs/sparse.base"
say "check-series: sparse baseline: $(wc -l <"$logs/sparse.base") warnings in" \
	"$(echo $base_objs | wc -w) objects"

# --- one patch at a time -----------------------------------------------------
fail=0
n=0
nfix=0
table=$CS/report
: >"$table"
notes=$logs/notes
: >"$notes"
for p in $patches; do
	case "$p" in
	*/kernel/fixes/*) nfix=$((nfix + 1)); id=F$nfix ;;
	*) n=$((n + 1)); id=$(printf '%02d' "$n") ;;
	esac
	subj=$(patch_subject "$p")
	blog=$logs/$id.build.log

	if ! git -C "$src" -c user.name=emrcu -c user.email=emrcu@localhost \
		am -q --keep-cr "$p" >"$logs/$id.am.log" 2>&1; then
		git -C "$src" am --abort >/dev/null 2>&1 || true
		printf '%s  build %-4s  compiled -  checkpatch -/-/-  sparse-new -  %s (does not apply)\n' \
			"$id" FAIL "$subj" | tee -a "$table"
		fail=1
		break
	fi

	if kbuild Image modules >"$blog" 2>&1; then
		build=OK
	else
		build=FAIL
		fail=1
	fi
	ctot=$(patch_files "$p" | grep -c '\.c$' || true)
	if [ "$build" = OK ]; then
		unc=$(patch_uncompiled "$p" "$out")
		[ -z "$unc" ] || fail=1
		for f in $unc; do
			echo "$id not compiled by this configuration: $f" >>"$notes"
		done
		comp="$((ctot - $(echo $unc | wc -w)))/$ctot"
	else
		comp="-/$ctot"
	fi
	# The unpatched build has no compiler warning: any one here is new.
	grep ': warning: ' "$blog" | sed "s|^|$id compiler: |" >>"$notes" || true

	cpl=$logs/$id.checkpatch.log
	(cd "$src" && PATH=$CP_PATH perl scripts/checkpatch.pl --strict \
		--color=never "$p") >"$cpl" 2>&1 || true
	tot=$(sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1 \2 \3/p' "$cpl")
	[ -n "$tot" ] || tot="1 0 0"	# checkpatch did not run: an error
	set -- $tot
	ce=$1 cw=$2 cc=$3
	[ "$ce" -eq 0 ] || fail=1
	[ $((cw + cc)) -eq 0 ] ||
		grep -E '^(ERROR|WARNING|CHECK):' "$cpl" | sed "s|^|$id checkpatch: |" >>"$notes"

	if [ "$build" = OK ]; then
		objs=$(patch_objects "$p")
		# shellcheck disable=SC2086
		sparse_run $objs >"$logs/$id.sparse"
		new=$(count_new "$logs/$id.sparse" "$logs/sparse.base" 2>>"$notes")
	else
		new=-
	fi
	[ "$new" = 0 ] || fail=1

	printf '%s  build %-4s  compiled %s  checkpatch %s/%s/%s  sparse-new %s  %s\n' \
		"$id" "$build" "$comp" "$ce" "$cw" "$cc" "$new" "$subj" | tee -a "$table"
done

secs=$(($(date +%s) - start))
if [ -s "$notes" ]; then
	echo "notes:"
	sed 's/^/  /' "$notes"
fi | tee -a "$table"
echo "check-series: $(grep -c '^[0-9F][0-9]  build' "$table") patches in ${secs}s," \
	"$([ "$fail" = 0 ] && echo PASS || echo FAIL)" | tee -a "$table"
exit "$fail"

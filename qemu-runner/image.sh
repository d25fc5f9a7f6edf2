#!/bin/bash
# qemu-runner/image.sh — build the base guest initramfs (cached).
#
# Inputs: image.pkgs (top-level arm64 packages), the dependency closure that
# apt-cache derives from them (with versions), init (the guest's /init), this
# script and the tree's usr/gen_init_cpio.c.  The image is
# $BUILD/image/base-<hash of inputs>.cpio (uncompressed newc: the kernel unpacks
# it without decompression, which matters under TCG); $BUILD/image/base.cpio is
# a symlink to the newest.  Prints the image path.  Rebuilds only when an
# input changes.  Needs root only when the arm64 architecture or the package
# lists are missing (dpkg --add-architecture arm64 && apt-get update).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
BUILD=${BUILD:-$TOP/build}
OUT=$BUILD/image
GEN_SRC=${GEN_INIT_CPIO_SRC:-$BUILD/pristine/usr/gen_init_cpio.c}
# Paths dropped from the staging root: documentation only, nothing executable.
PRUNE="usr/share/doc usr/share/man usr/share/info usr/share/locale usr/share/lintian usr/share/bug"
DEPFLAGS="--no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances"

say() { echo "[image] $*" >&2; }
die() { echo "image.sh: error: $*" >&2; exit 1; }

mkdir -p "$OUT"
exec 9>"$OUT/.lock"
flock 9

# --- arm64 package lists ---------------------------------------------------
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	[ "$(id -u)" = 0 ] || die "arm64 architecture missing: run as root 'dpkg --add-architecture arm64 && apt-get update'"
	say "adding arm64 architecture"
	dpkg --add-architecture arm64
	apt-get update -q >&2
fi
if ! apt-cache show --no-all-versions busybox-static:arm64 2>/dev/null | grep -c "^Package:" >/dev/null; then
	[ "$(id -u)" = 0 ] || die "no arm64 package lists: run as root 'apt-get update'"
	apt-get update -q >&2
fi

# --- dependency closure ----------------------------------------------------
# Names to download, for bare package names on stdin: NAME:arm64 for arm64
# packages, NAME for Architecture: all ones (one apt-cache call per batch).
archnames() {
	local names
	names=$(sort -u)
	[ -n "$names" ] || return 0
	local arm
	arm=$(apt-cache show --no-all-versions $(sed 's/$/:arm64/' <<<"$names") 2>/dev/null |
		awk '/^Package:/ {p = $2} /^Architecture: arm64/ {print p}' | sort -u)
	local n
	for n in $names; do
		if grep -qx -- "$n" <<<"$arm"; then echo "$n:arm64"; else echo "$n"; fi
	done
}
# One `apt-cache depends` level for the given packages: for each dependency
# group (a run of '|Depends' alternatives ended by a plain one) the first
# alternative that is a real package, or else the first provider of a
# virtual one.  Names come out without their arch suffix.
deps_of() {
	apt-cache depends $DEPFLAGS "$@" | awk '
	function endgroup() { if (chosen != "") print chosen; chosen = ""; open = 0 }
	/^[^ ]/ { if (open) endgroup(); next }
	/^ [ |](Pre)?Depends: / {
		if (open && !cont) endgroup()
		open = 1
		cont = ($0 ~ /^ \|/)
		t = $2
		virt = (t ~ /^</)
		if (chosen == "" && !virt) chosen = t
		next
	}
	/^    / { if (open && virt && chosen == "") chosen = $1; next }
	END { if (open) endgroup() }
	' | sed 's/:.*//' | sort -u
}

# Breadth-first closure from the top-level packages.  (Not `apt-cache depends
# --recurse`: it follows every alternative of an or-group and the amd64
# candidates of Multi-Arch: foreign dependencies, pulling perl and other host
# packages; one level at a time we keep the first alternative, in arm64.)
declare -A have=()
mapfile -t todo < <(sed 's/#.*//' "$HERE/image.pkgs" | tr -s ' \t' '\n\n' | grep -v '^$' | archnames)
closure=()
while [ ${#todo[@]} -gt 0 ]; do
	for p in "${todo[@]}"; do
		[ -n "${have[$p]:-}" ] && continue
		have[$p]=1
		closure+=("$p")
	done
	mapfile -t new < <(deps_of "${todo[@]}" | archnames)
	todo=()
	for a in "${new[@]}"; do
		[ -n "${have[$a]:-}" ] || todo+=("$a")
	done
done
[ ${#closure[@]} -gt 0 ] || die "empty package closure"
# NAME[:arm64]=VERSION lines, sorted: part of the image key, and written next
# to the image and into it (/emrcu/packages).
pkglist=$(apt-cache show --no-all-versions "${closure[@]}" |
	awk '/^Package:/ {p = $2} /^Version:/ {v = $2} /^Architecture:/ {a = $2}
	     /^$/ && p != "" { print p (a == "all" ? "" : ":" a) "=" v; p = "" }
	     END { if (p != "") print p (a == "all" ? "" : ":" a) "=" v }' | grep -v ':amd64=' | LC_ALL=C sort -u)
[ "$(wc -l <<<"$pkglist")" -eq ${#closure[@]} ] ||
	die "closure of ${#closure[@]} packages, but versions for $(wc -l <<<"$pkglist")"

[ -f "$GEN_SRC" ] || die "$GEN_SRC missing (the pristine tree: make pristine)"
key=$( { echo "$pkglist"; echo "prune: $PRUNE"; cat "$HERE/init" "$0" "$GEN_SRC"; } | sha256sum | cut -c1-16)
img=$OUT/base-$key.cpio
if [ -s "$img" ]; then
	ln -sfn "base-$key.cpio" "$OUT/base.cpio"
	echo "$img"
	exit 0
fi
say "building $img (${#closure[@]} packages)"

# --- download, extract, pack -------------------------------------------------
debs=$OUT/debs
mkdir -p "$debs"
# debs/NAME_VERSION_ARCH.deb, as apt-get download names them (epoch ':' as %3a).
debfile() {
	local n=${1%%=*} v=${1#*=} a
	case $n in *:arm64) a=arm64 ;; *) a=all ;; esac
	echo "$debs/${n%%:*}_${v//:/%3a}_$a.deb"
}
chmod 0755 "$debs"
fetch=()
for l in $pkglist; do [ -s "$(debfile "$l")" ] || fetch+=("$l"); done
if [ ${#fetch[@]} -gt 0 ]; then
	(cd "$debs" && apt-get download -q "${fetch[@]}" >&2) || die "apt-get download failed"
fi
stage=$OUT/stage.$$
gen=$OUT/gen_init_cpio
trap 'rm -rf "$stage" "$img.tmp" "$OUT/list.$$"' EXIT
rm -rf "$stage"
mkdir -p "$stage"
for l in $pkglist; do
	f=$(debfile "$l")
	[ -s "$f" ] || die "$f missing after download"
	dpkg-deb -x "$f" "$stage"
done
for p in $PRUNE; do rm -rf "${stage:?}/$p"; done
mkdir -p "$stage"/{proc,sys,dev,tmp,run,root,emrcu,lib/modules-emrcu,sys/kernel/debug,sys/kernel/tracing}
install -m 0755 "$HERE/init" "$stage/init"
echo "$pkglist" >"$stage/emrcu/packages"

gcc -O2 -o "$gen.tmp" "$GEN_SRC" && mv "$gen.tmp" "$gen"
# gen_init_cpio list: directories, files, symlinks (no device files in the
# tree except /dev/console, which the kernel needs before /init runs).
list=$OUT/list.$$
{
	echo "nod /dev/console 0600 0 0 c 5 1"
	cd "$stage"
	find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r p; do
		case "$p" in *[[:space:]]*) die "path with whitespace: $p" ;; esac
		r=${p#.}
		m=$(stat -c %a "$p")
		if [ -L "$p" ]; then
			echo "slink $r $(readlink "$p") $m 0 0"
		elif [ -d "$p" ]; then
			echo "dir $r $m 0 0"
		elif [ -f "$p" ]; then
			echo "file $r $stage$r $m 0 0"
		fi
	done
} >"$list"
"$gen" -t 0 "$list" >"$img.tmp"
mv "$img.tmp" "$img"
echo "$pkglist" >"$OUT/base-$key.pkgs"
ln -sfn "base-$key.cpio" "$OUT/base.cpio"
say "$(du -h "$img" | cut -f1) $img"
echo "$img"

#!/bin/sh
# Install the host packages the project needs on a fresh Debian 12 (as root).
# Fast no-op when everything is present.
set -eu
pkgs="linux-source-6.1 gcc-aarch64-linux-gnu ccache qemu-system-arm
device-tree-compiler sparse flex bison bc libssl-dev libelf-dev cpio xz-utils
kmod rsync jq gcc make libc6-dev libc6-dev-arm64-cross python3 python3-ply python3-matplotlib python3-numpy python3-jsonschema hyperfine dpkg-dev
libjson-c-dev libjson-c-dev:arm64 libcmocka-dev"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
arm64=$(dpkg --print-foreign-architectures | grep -c '^arm64$' || true)
[ -z "$missing" ] && [ "$arm64" -gt 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "error: missing packages:$missing; run as root: make deps" >&2
	exit 1
fi
echo "[deps] installing:$missing (arm64 foreign architecture for guest packages)"
[ "$arm64" -gt 0 ] || dpkg --add-architecture arm64
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing

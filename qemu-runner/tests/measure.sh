#!/bin/bash
# qemu-runner/tests/measure.sh [VARIANT] — runner figures, measured:
#  1. boot to EMRCU-EXIT (host wall clock, meta.json wall_to_exit_s) and boot
#     to /init (printk time, boot_to_init_s) with --cmd true, N boots
#     (default 7) in each mode, default topology: median, min, max;
#  2. deterministic mode: a guest busy loop (tests/guest/loop.c, pinned to
#     cpu6, PASSES (50) passes of ITERS (100000, ~1.6 ms) iterations: short
#     passes, so most see no tick of the HZ_PERIODIC kernel) in 3 boots: per boot the min
#     and median pass; spread across boots = (max - min) / mean of the
#     per-boot values.
# Writes $BUILD/measure/<variant>/summary.txt and prints it.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
QR=$(cd "$HERE/.." && pwd)
TOP=$(cd "$QR/.." && pwd)
BUILD=${BUILD:-$TOP/build}
V=${1:-unpatched}
N=${N:-7}
ITERS=${ITERS:-100000}
PASSES=${PASSES:-50}
OUT=$BUILD/measure/$V
rm -rf "$OUT"
mkdir -p "$OUT"
[ -x "$QR/emrcu-run" ] || { echo "measure.sh: emrcu-run missing: run make tools" >&2; exit 2; }
field() { sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" "$1/meta.json" | head -1; }
stats() { sort -g | awk '{v[NR]=$1} END {m = NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2;
	printf "n=%d median %.3f min %.3f max %.3f", NR, m, v[1], v[NR]}'; }
{
echo "variant $V, topology $("$QR/emrcu-topo" --default), $(qemu-system-aarch64 --version | head -1)"
echo "host: $(nproc) CPUs, $(uname -r)"
for mode in realtime deterministic; do
	: >"$OUT/$mode.exit"
	: >"$OUT/$mode.init"
	for i in $(seq 1 "$N"); do
		d=$OUT/$mode-$i
		"$QR/emrcu-run" --variant "$V" --mode "$mode" --cmd true --outdir "$d" \
			--timeout 120 2>/dev/null || { echo "boot $d failed"; exit 1; }
		field "$d" wall_to_exit_s >>"$OUT/$mode.exit"
		field "$d" boot_to_init_s >>"$OUT/$mode.init"
	done
	echo "$mode: boot to EMRCU-EXIT (host wall s): $(stats <"$OUT/$mode.exit")"
	echo "$mode: boot to /init (guest printk s):   $(stats <"$OUT/$mode.init")"
done
aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -Werror -o "$OUT/loop" "$HERE/guest/loop.c"
: >"$OUT/loop.min"
: >"$OUT/loop.median"
for i in 1 2 3; do
	d=$OUT/loop-$i
	"$QR/emrcu-run" --variant "$V" --mode deterministic --file "$OUT/loop" \
		--cmd "taskset -c 6 loop $ITERS $PASSES" --outdir "$d" --timeout 120 2>/dev/null ||
		{ echo "boot $d failed"; exit 1; }
	sed 's/.*"ns": \[\(.*\)\].*/\1/' "$d/loop.json" | tr ',' '\n' | tr -d ' ' | grep . >"$d/passes"
	sort -g "$d/passes" | head -1 >>"$OUT/loop.min"
	sort -g "$d/passes" | awk '{v[NR]=$1} END {print NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}' >>"$OUT/loop.median"
	echo "loop boot $i: passes(ns) $(tr '\n' ' ' <"$d/passes")"
	echo "loop boot $i: $(sort -g "$d/passes" | awk '{v[NR]=$1} END {for (i=1;i<=NR;i++) if (v[i] > v[1]*1.001) c++;
		printf "%d of %d passes more than 0.1 %% above the boot'"'"'s min (contaminated)", c, NR}')"
done
for s in min median; do
	awk -v s=$s '{v[NR]=$1; t+=$1; if (NR==1||$1<lo) lo=$1; if ($1>hi) hi=$1}
	END {printf "deterministic loop (%s pass per boot, ns): %s; spread across 3 boots %.4f %%\n",
		s, substr(line, 2), 100*(hi-lo)/(t/NR)} {line = line " " $1}' "$OUT/loop.$s"
done
} | tee "$OUT/summary.txt"

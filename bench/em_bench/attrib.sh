#!/bin/bash
# bench/em_bench/attrib.sh OUTDIR BASE [NEW] — the instructions one
# em_cpu_energy() call executes, counted from what ran, per source line:
# em_bench's emb_call() (one call, em_cpu_energy() inlined) under QEMU's
# per-instruction exec log, for the kernel variant BASE and, with NEW, the
# difference NEW - BASE per source line (what a patch adds to every call,
# where disasm.sh can only count the static instructions).
#
# Per variant, deterministic boots of the same guest (same kernel and
# modules, no KASLR: the module loads at the same address every boot):
#   1. probe: em_bench runs; the guest prints em_bench's .text address;
#   2. per perf domain, a trace boot: em_bench with one reader, the
#      domain's first CPU, under emrcu-run --exec-trace over emb_call()
#      (QEMU -singlestep -d exec,nochain -dfilter); the address is checked
#      to be the probe's.  One reader: no other reader spins through
#      emb_call() waiting for it (warm-up and cool-down barriers).
# results/emrcu-execprof counts per instruction and per source line, per
# domain: OUTDIR/execprof-pdK.{txt,json}; OUTDIR/execprof.json holds them
# all ({"schema": "emrcu/execprof-set/1", "pds": [...]}).  em_bench runs
# few passes (PARAMS, default below: every instruction of emb_call is a
# line of the log) of em_bench's default loops=100 calls, so the inputs (a
# seeded sequence of `loops` entries) are those the bench times, and the
# executed difference per domain is comparable with its icount figures.
# Exit 0; 1 when a boot or the count failed; 2 on bad arguments.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck disable=SC1091 # sourced from the tree
. "$TOP/kernel/env.sh"
OUT=${1:?usage: bench/em_bench/attrib.sh OUTDIR BASE [NEW]}
shift
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: bench/em_bench/attrib.sh OUTDIR BASE [NEW]" >&2; exit 2; }
PARAMS=${PARAMS:-loops=100 nruns=3 warmup=1}
FUNC=emb_call
RUN=$TOP/qemu-runner/emrcu-run
PROF=$TOP/results/emrcu-execprof
[ -n "${TOPO+set}" ] || TOPO=$(cat "$TOP/qemu-runner/default.topo")
for t in "$RUN" "$PROF" "$TOP/qemu-runner/emrcu-topo"; do
	[ -x "$t" ] || { echo "attrib: ${t#"$TOP"/} missing: run make tools" >&2; exit 2; }
done
mkdir -p "$OUT"
say() { echo "[attrib $(date +%H:%M:%S)] $*"; }
fail() { say "FAILED: $*" >&2; exit 1; }

# text_of DIR: em_bench's .text address the guest printed
text_of() { sed -n 's/^emrcu-attrib: em_bench .text \(0x[0-9a-f]*\).*/\1/p' "$1/console.log" | head -1; }

# First CPU of every cluster: one perf domain each.
firsts=$("$TOP/qemu-runner/emrcu-topo" --json "$TOPO" | jq -r '.clusters[].first_cpu') ||
	{ echo "attrib: TOPO=$TOPO: not a topology" >&2; exit 2; }

boot() { # VARIANT OUTDIR READER [emrcu-run options...]
	local v=$1 d=$2 cpu=$3 m=$BUILD/$1/mod
	shift 3
	"$RUN" --variant "$v" --mode deterministic --topo "$TOPO" \
		--module "$m/platform/emrcu_platform.ko" \
		--module "$m/em_bench/em_bench.ko:$PARAMS readers=$cpu" \
		--cmd 'echo "emrcu-attrib: em_bench .text $(cat /sys/module/em_bench/sections/.text)"' \
		--timeout 600 --idle-timeout 300 --outdir "$d" "$@" >"$d.log" 2>&1 ||
		fail "$v: boot $(basename "$d"): $(tail -1 "$d.log")"
}

declare -A base		# emb_call's address in the guest, per variant
for v in "$@"; do
	"$TOP/bench/kmod.sh" "$v" bench/platform bench/em_bench >/dev/null ||
		fail "$v: modules do not build"
	ko=$BUILD/$v/mod/em_bench/em_bench.ko
	"${CROSS_COMPILE}objdump" -dl --no-show-raw-insn "$ko" >"$OUT/$v.listing"
	# emb_call's offset in .text and its size, from the module's symbols
	read -r off size < <("${CROSS_COMPILE}nm" -S "$ko" | awk -v f="$FUNC" '$4 == f { print $1, $2 }') || true
	[ -n "${off:-}" ] || fail "$v: no $FUNC in $ko"
	say "$v: probe boot (em_bench $PARAMS)"
	boot "$v" "$OUT/$v-probe" "${firsts%%[!0-9]*}"
	text=$(text_of "$OUT/$v-probe")
	[ -n "$text" ] || fail "$v: the guest did not print em_bench's .text address"
	lo=$(printf '0x%x' $((text + 0x$off)))
	hi=$(printf '0x%x' $((text + 0x$off + 0x$size - 1)))
	for cpu in $firsts; do
		d=$OUT/$v-trace-cpu$cpu
		say "$v: trace boot, reader CPU $cpu, over $FUNC [$lo..$hi]"
		boot "$v" "$d" "$cpu" --exec-trace "$lo..$hi"
		[ "$(text_of "$d")" = "$text" ] ||
			fail "$v: em_bench loaded at $(text_of "$d") in $d, $text in the probe"
		[ -s "$d/exec.log" ] || fail "$v: no exec log in $d"
	done
	base[$v]=$lo
done
k=0 files=()
for cpu in $firsts; do
	args=()
	for v in "$@"; do
		args+=("$v" "$OUT/$v-trace-cpu$cpu/exec.log" "$OUT/$v.listing" "${base[$v]}")
	done
	"$PROF" --func "$FUNC" --json "$OUT/execprof-pd$k.json" "${args[@]}" >"$OUT/execprof-pd$k.txt" ||
		fail "emrcu-execprof: see $OUT/execprof-pd$k.txt"
	echo "--- perf domain $k (reader CPU $cpu)"
	cat "$OUT/execprof-pd$k.txt"
	files+=("$OUT/execprof-pd$k.json")
	k=$((k + 1))
done
jq -s --arg topo "$TOPO" --arg params "$PARAMS" --argjson cpus "[$(echo $firsts | tr ' ' ,)]" \
	'{schema: "emrcu/execprof-set/1", what: .[0].what, function: .[0].function,
	  topology: $topo, em_bench_params: $params,
	  pds: [range(length) as $i | {pd: $i, reader_cpu: $cpus[$i]} + .[$i]]}' \
	"${files[@]}" >"$OUT/execprof.json"
# The logs are large and redone in seconds: keep the counts only.
rm -f "$OUT"/*-trace-cpu*/exec.log

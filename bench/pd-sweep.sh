#!/bin/bash
# bench/pd-sweep.sh OUTDIR — runtime EM update cost against the number of
# perf domains registered (the merged design's users have many devices).
#
# For each N in COUNTS (default "1 4 16"; emrcu_platform takes at most 16
# test domains), one deterministic boot of VARIANT (default patched) with N
# test perf domains of OPPS (default 16) OPPs on non-CPU devices
# (emrcu_platform test_pds=OPPS,OPPS,...) beside the guest's CPU domains,
# and em_bench's update-cost run (scaling=1: scaling_n updates of each test
# domain in turn, the callback alone timed before each).  Each boot is
# summarised on its own (emrcu-summarize); the per-update figures at OPPS
# OPPs (update_scaling_us, update_callback_us, their instructions) go to
# OUTDIR/pd-sweep.json and a table in OUTDIR/pd-sweep.txt.
# Exit 0 when every boot ran; 1 otherwise; 2 on bad arguments.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
OUT=${1:?usage: bench/pd-sweep.sh OUTDIR}
COUNTS=${COUNTS:-1 4 16}
OPPS=${OPPS:-16}
VARIANT=${VARIANT:-patched}
SCALING_N=${SCALING_N:-200}
say() { echo "[pd-sweep $(date +%H:%M:%S)] $*"; }
for t in qemu-runner/emrcu-run results/emrcu-summarize; do
	[ -x "$TOP/$t" ] || { echo "pd-sweep: $t missing: run make tools" >&2; exit 2; }
done
for n in $COUNTS; do
	case $n in '' | *[!0-9]* | 0) echo "pd-sweep: COUNTS: $n is not a count of 1..16" >&2; exit 2 ;; esac
	[ "$n" -le 16 ] || { echo "pd-sweep: COUNTS: $n above the platform's 16 test domains" >&2; exit 2; }
done
mkdir -p "$OUT" || exit 2
[ -z "$(ls -A "$OUT")" ] || { echo "pd-sweep: $OUT is not empty: earlier results are kept, choose another" >&2; exit 2; }
"$TOP/kernel/variant.sh" "$VARIANT" >"$OUT/kernel.log" 2>&1 &&
	"$TOP/bench/kmod.sh" "$VARIANT" bench/platform bench/em_bench >>"$OUT/kernel.log" 2>&1 ||
	{ say "FAILED: $VARIANT does not build (see $OUT/kernel.log)"; exit 1; }
m=$BUILD/$VARIANT/mod
rows=()
for n in $COUNTS; do
	d=$OUT/pds-$n
	pds=$(printf "$OPPS,%.0s" $(seq 1 "$n"))
	say "$n test perf domain(s) of $OPPS OPPs, $SCALING_N updates each"
	"$TOP/qemu-runner/emrcu-run" --variant "$VARIANT" --mode deterministic \
		--module "$m/platform/emrcu_platform.ko:test_pds=${pds%,}" \
		--module "$m/em_bench/em_bench.ko:nruns=20 scaling=1 scaling_n=$SCALING_N mode_hint=deterministic" \
		--timeout 300 --outdir "$d" >"$d.log" 2>&1 ||
		{ say "FAILED: boot with $n domain(s): $(tail -1 "$d.log")"; exit 1; }
	"$TOP/results/emrcu-summarize" -o "$d/summary.json" "$d" 2>"$d.summarize.log" ||
		{ say "FAILED: summary of $d: $(tail -1 "$d.summarize.log")"; exit 1; }
	rows+=("$d/summary.json")
done
jq -s --arg counts "$COUNTS" --argjson opps "$OPPS" --arg variant "$VARIANT" \
	--arg commit "$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)" '
	def fig($s; $name): [$s.figures[] | select(.name == $name and .nr_states == $opps)][0]
		| if . then {median, ci_low, ci_high, n} else null end;
	{ schema: "emrcu/pd-sweep/1",
	  what: "runtime EM update cost against the number of perf domains registered (bench/pd-sweep.sh): deterministic mode, one boot per count",
	  commit: $commit, variant: $variant, opps: $opps,
	  rows: [range(length) as $i | .[$i] as $s |
		{ test_pds: ($counts | split(" ") | map(select(length > 0) | tonumber))[$i],
		  update_us: fig($s; "update_scaling_us"),
		  callback_us: fig($s; "update_callback_us"),
		  shift: ([$s.figures[] | select(.name == "update_scaling_us") | .shift][0]) }] }' \
	"${rows[@]}" >"$OUT/pd-sweep.json" || exit 1
jq -r '"| test perf domains (+ the CPU domains) | µs per update of one domain [95 % CI] | n | callback alone µs | instructions per update |",
	"|---|---|---|---|---|",
	(.rows[] | "| \(.test_pds) | \(.update_us.median) [\(.update_us.ci_low), \(.update_us.ci_high)] | \(.update_us.n) | \(.callback_us.median // "-") | \(if .shift then (.update_us.median * 1000 / pow(2; .shift) | round) else "-" end) |")' \
	"$OUT/pd-sweep.json" | tee "$OUT/pd-sweep.txt"

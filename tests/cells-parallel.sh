#!/bin/bash
# tests/cells-parallel.sh: the driver's cells are independent.  Two
# deterministic em_bench cells of unpatched (column A, and column N whose
# em_bench adds one nop per call) run one after the other, then side by
# side (emrcu-cells --jobs 2): each cell's figures (the summary's
# per-perf-domain medians; icount time: instructions) must be the same both
# ways, and must differ between A and N: the comparison sees one
# instruction (its negative control).  Single samples are not compared:
# they jitter by a tick between any two boots, side by side or not.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
suite=cells
. "$TOP/stress/lib.sh"
build build unpatched bench/platform bench/em_bench
D=$BUILD/test-cells
rm -rf "$D"
mkdir -p "$D"
cat >"$D/cells.conf" <<CONF
kind = em_bench
topo = $(cat "$TOP/qemu-runner/default.topo")
build = $BUILD
modes = deterministic
boots = 1
boots_realtime = 1
nruns = 20
update_hz = 0
baselines = unpatched
numerators = -
test_pds = 4
columns = A N
inject = inject_nops=1
CONF
cells=$("$TOP/bench/driver/emrcu-cells" list "$D/cells.conf" | awk '{ print $1 }' | tr '\n' ' ')
[ "$cells" = "unpatched-deterministic-hz0-A-b1 unpatched-deterministic-hz0-N-b1 " ] &&
	ok "list ($cells)" || ko list "got '$cells'"
for how in serial:1 parallel:2; do
	t0=$(date +%s.%N)
	"$TOP/bench/driver/emrcu-cells" run "$D/cells.conf" "$D/${how%:*}" --jobs "${how#*:}" \
		>"$D/${how%:*}.log" 2>&1 || { ko "run-${how%:*}" "$(tail -1 "$D/${how%:*}.log")"; finish; }
	echo "$(date +%s.%N) - $t0" | bc >"$D/${how%:*}.wall"
done
ok "run (serial $(cat "$D/serial.wall") s, side by side $(cat "$D/parallel.wall") s)"
# figures RUN ID: the cell's figures as results/emrcu-summarize computes
# them (per perf domain: the median over the samples), one JSON line.
figures() {
	"$TOP/results/emrcu-summarize" -o "$D/$1-$2.json" "$D/$1/runs/$2/" >/dev/null 2>&1 &&
		jq -c '[.figures[] | {name, cluster, median}] | sort_by(.name, .cluster)' "$D/$1-$2.json"
}
for c in $cells; do
	a=$(figures serial "$c") b=$(figures parallel "$c")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		ok "same-figures/${c%-b1} ($(jq -c '[.[] | select(.name == "hot_path_instructions_per_call") | .median]' <<<"$a") instructions/call)"
	else
		ko "same-figures/${c%-b1}" "serial $a, side by side $b"
	fi
done
if [ "$(figures parallel unpatched-deterministic-hz0-A-b1)" != \
	"$(figures parallel unpatched-deterministic-hz0-N-b1)" ]; then
	ok "nop-seen (column N's figures differ from A's)"
else
	ko nop-seen "one nop per call did not change the figures: the comparison sees nothing"
fi
finish

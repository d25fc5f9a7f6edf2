#!/bin/bash
# tests/cells-parallel.sh: the driver's cells are independent.  Two
# deterministic em_bench cells of unpatched (column A, and column N whose
# em_bench adds one nop per call) run one after the other, then side by
# side (emrcu-cells --jobs 2): each cell's figures must be the same both
# ways as the regression gate judges figures (results/emrcu-compare, either
# direction: nothing flagged), and the gate must flag column N against A on
# every perf domain (the negative control: it sees one instruction).  Not
# bit equality: two boots of one deterministic configuration differ by a
# tick in single samples, and so by 0.08 instructions in a 20-pass median,
# side by side or not.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
suite=cells
. "$TOP/tests/lib.sh"
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
	# the driver's record of what ran, beside the declaration
	if jq -e 'length == 2 and all(.[]; .exit_code == 0 and .wall_s > 0)' "$D/cells.json" >/dev/null 2>&1; then
		ok "record-${how%:*} ($(jq -c '[.[] | {id, exit_code, wall_s}]' "$D/cells.json"))"
	else
		ko "record-${how%:*}" "$D/cells.json: $(head -c 200 "$D/cells.json" 2>/dev/null)"
	fi
done
ok "run (serial $(cat "$D/serial.wall") s, side by side $(cat "$D/parallel.wall") s)"
# summary RUN ID: the cell's summary (results/emrcu-summarize), its path.
summary() {
	"$TOP/results/emrcu-summarize" -o "$D/$1-$2.json" "$D/$1/runs/$2/" >/dev/null 2>&1 &&
		echo "$D/$1-$2.json"
}
# gate BASE NEW: the regression gate's verdict lines (exit 1: a regression).
gate() { "$TOP/results/emrcu-compare" "$1" "$2" 2>&1; }
ipc() { jq -c '[.figures[] | select(.name == "hot_path_instructions_per_call") | .median * 100 | round / 100]' "$1"; }
for c in $cells; do
	a=$(summary serial "$c") b=$(summary parallel "$c")
	if [ -z "$a" ] || [ -z "$b" ]; then
		ko "same-figures/${c%-b1}" "no summary of the serial or side-by-side run"
	elif gate "$a" "$b" >"$D/$c.gate" && gate "$b" "$a" >>"$D/$c.gate"; then
		ok "same-figures/${c%-b1} (the gate flags nothing either way: $(ipc "$a") vs $(ipc "$b") instructions/call)"
	else
		ko "same-figures/${c%-b1}" "the gate flags serial vs side by side: $(grep REGRESSION "$D/$c.gate" | head -2 | tr '\n' ' ')"
	fi
done
# The negative control: one nop per call is flagged on every perf domain.
a=$(summary parallel unpatched-deterministic-hz0-A-b1)
n=$(summary parallel unpatched-deterministic-hz0-N-b1)
flags=$(gate "$a" "$n" | grep -c '^REGRESSION: hot_path_instructions_per_call ')
if [ "$flags" -eq "$(jq '[.figures[] | select(.name == "hot_path_instructions_per_call")] | length' "$a")" ] &&
	[ "$flags" -gt 0 ]; then
	ok "nop-seen (the gate flags column N on all $flags perf domains)"
else
	ko nop-seen "one nop per call flagged on $flags perf domain(s): the comparison sees nothing"
fi
finish

#!/bin/sh
# bench/em_bench/disasm.sh VARIANT [VARIANT2]
# Disassemble the measured code of em_bench.ko built for VARIANT: emb_call()
# (one em_cpu_energy() call, inlined there) and emb_pass() (the timed loop),
# and count instructions: per function, memory loads not from the stack,
# divisions, calls, and every loop (a conditional backward branch; its span
# = target..branch, an upper bound of one iteration's path).
# With VARIANT2, also print a diff of the two emb_call() instruction streams
# (addresses and relocation offsets dropped).  Builds the module with
# bench/kmod.sh when it is missing or older than its sources.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck disable=SC1091 # sourced from the tree
. "$TOP/kernel/env.sh"
OBJDUMP=${CROSS_COMPILE}objdump

ko_of() {
	ko=$BUILD/$1/mod/em_bench/em_bench.ko
	if [ ! -f "$ko" ] || [ -n "$(find "$TOP/bench/em_bench" -newer "$ko" -type f)" ]; then
		"$TOP/bench/kmod.sh" "$1" bench/em_bench >/dev/null
	fi
	echo "$ko"
}

# dis KO FUNC: "addr<TAB>insn operands" lines of FUNC (relocations folded in)
dis() {
	"$OBJDUMP" -d -r --no-show-raw-insn "$1" | awk -v f="$2" '
	$0 ~ "^[0-9a-f]+ <" f ">:$" { on = 1; next }
	on && /^$/ { exit }
	on && /R_AARCH64_/ { sub(/^[ \t]+[0-9a-f]+: /, ""); last = last "  [" $0 "]"; next }
	on && /^ +[0-9a-f]+:/ {
		if (last != "") print last
		a = $1; sub(/:$/, "", a); $1 = ""; sub(/^ +/, "")
		last = a "\t" $0
	}
	END { if (last != "") print last }'
}

# count FUNC: summary of the disassembly on stdin
count() {
	awk -F'\t' -v f="$1" '
	function hex(s,   i, v) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	{ addr[NR] = hex($1); ins[NR] = $2; n = NR
	  split($2, w, /[ \t]+/); op = w[1]
	  if (op ~ /^ld/ && $2 !~ /\[sp/) loads++
	  if (op ~ /div$/) divs++
	  if (op ~ /^(bl|blr)$/) calls++ }
	END {
		printf "%s: %d instructions, %d loads (not from the stack), %d divisions, %d calls\n", f, n, loads, divs, calls
		for (i = 1; i <= n; i++) {
			split(ins[i], w, /[ \t]+/)
			if (w[1] !~ /^(b\..*|cbn?z|tbn?z)$/) continue
			m = split(ins[i], t, /[ \t,]+/)
			for (k = 2; k <= m; k++) if (t[k] ~ /^[0-9a-f]+$/ && length(t[k]) >= 2) tgt = hex(t[k])
			if (tgt >= addr[i] || tgt < addr[1]) continue
			for (j = 1; j <= n && addr[j] < tgt; j++) ;
			printf "  loop %x..%x (conditional backward branch): span %d instructions\n", tgt, addr[i], i - j + 1
		}
	}'
}

# Drop addresses: branch targets become T, relocated symbols stay.
norm() {
	cut -f2- | sed 's/ <[^>]*>//; s| *//.*||' | awk '
	$1 ~ /^(b|bl|b\..*|cbn?z|tbn?z)$/ && $NF ~ /^[0-9a-f]+$/ { $NF = "T" } { print }'
}

show() {
	ko=$(ko_of "$1")
	echo "== $1: $ko"
	for fn in emb_call emb_pass; do
		echo "-- $fn"
		dis "$ko" "$fn" | sed 's/^/   /'
		dis "$ko" "$fn" | count "$fn"
	done
}

v1=${1:?usage: bench/em_bench/disasm.sh VARIANT [VARIANT2]}
show "$v1"
if [ $# -ge 2 ]; then
	show "$2"
	echo "== diff emb_call $v1 -> $2 (mnemonics and operands)"
	a=$(mktemp) b=$(mktemp)
	dis "$(ko_of "$v1")" emb_call | norm >"$a"
	dis "$(ko_of "$2")" emb_call | norm >"$b"
	diff -u "$a" "$b" | tail -n +3 || true
	rm -f "$a" "$b"
fi

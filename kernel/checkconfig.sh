#!/bin/sh
# kernel/checkconfig.sh .config FRAGMENT...
# Fail, naming each symbol, when a value a fragment asked for did not survive
# Kconfig (a dependency missing, a typo): merge_config.sh only warns.
set -eu
cfg=$1
shift
# Later fragments override earlier ones, as in merge_config.sh.
awk '
FNR == NR { have[$0] = 1; next }
/^CONFIG_[A-Za-z0-9_]+=/ {
	sym = $0; sub(/=.*/, "", sym); want[sym] = $0; order[sym] = ++n
}
/^# CONFIG_[A-Za-z0-9_]+ is not set/ { sym = $2; want[sym] = sym "=n"; order[sym] = ++n }
END {
	bad = 0
	for (sym in want) {
		w = want[sym]
		if (w ~ /=n$/) {
			if ((sym "=y") in have || (sym "=m") in have) {
				print "config: " sym " wanted n, is set" > "/dev/stderr"; bad++
			}
		} else if (!(w in have)) {
			print "config: " w " requested but not in final .config" > "/dev/stderr"; bad++
		}
	}
	exit bad != 0
}' "$cfg" "$@"

# tests/em-trace-check.awk EXPECT TRACE
# Checks the em_perf_state trace events of one runtime update per CPU perf
# domain against what the platform pushed.  EXPECT: one line per state,
# "DEV NR IDX KHZ UW" (the cluster's first CPU device, its number of states,
# the state, its frequency, the power pushed), from the platform's debugfs.
# TRACE: the tracefs lines of the update.  A trace line must carry exactly
# that frequency and power, the cost em_compute_costs() derives from them
# (fmax * power / freq, rounded down) and the inefficiency flag (cost not
# below the cost of a higher state).  Prints one "ok"/"bad" line per check
# and exits 1 on any bad one.
FNR == NR {
	key = $1 " " $3
	nr[$1] = $2; khz[key] = $4; uw[key] = $5
	if ($4 > fmax[$1]) fmax[$1] = $4
	next
}
/ em_perf_state: / {
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] != "" && kv[2] != "") f[kv[1]] = kv[2]
	}
	key = f["dev_name"] " " f["state"]
	if (seen[key]++) { print "bad: " key ": traced twice"; bad++; next }
	got_nr[f["dev_name"]] = f["nr_perf_states"]
	tf[key] = f["frequency"]; tp[key] = f["power"]
	tc[key] = f["cost"]; tfl[key] = f["flags"]
}
END {
	for (d in nr) {
		if (got_nr[d] != nr[d]) {
			print "bad: " d ": nr_perf_states " got_nr[d] ", expected " nr[d]; bad++
			continue
		}
		min_above = -1
		for (s = nr[d] - 1; s >= 0; s--) {
			key = d " " s
			if (!(key in tf)) { print "bad: " key ": not traced"; bad++; continue }
			cost = int(fmax[d] * uw[key] / khz[key])
			fl = (min_above >= 0 && cost >= min_above) ? 1 : 0
			if (min_above < 0 || cost < min_above) min_above = cost
			nflagged += fl
			if (tf[key] != khz[key] || tp[key] != uw[key] || tc[key] != cost || tfl[key] != fl) {
				printf "bad: %s: traced %s kHz %s uW cost %s flags %s, expected %s %s %d %d\n",
					key, tf[key], tp[key], tc[key], tfl[key], khz[key], uw[key], cost, fl
				bad++
			} else {
				good++
			}
		}
	}
	printf "ok: %d states of %d domains as pushed, %d flagged inefficient\n", good, length(nr), nflagged
	exit bad > 0
}

# Count the kmemleak reports (one per "unreferenced object") whose backtrace
# runs through the Energy Model: a frame of an em_* / __em_* function (the
# framework, its KUnit suite) or of energy_model*.  Other leaks of the boot
# do not count.  Prints the count.
/^unreferenced object / { n++; hit[n] = 0; next }
n && /\] (__)?(em_|energy_model)[A-Za-z0-9_]*\+0x/ { hit[n] = 1 }
END {
	c = 0
	for (i = 1; i <= n; i++)
		c += hit[i]
	print c
}

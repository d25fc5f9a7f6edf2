#!/bin/sh
# stress/guest.sh — guest command of a stress run (busybox sh, /emrcu/cmd).
# stress/run.sh prepends the settings: HOTPLUG_CPUS (list of CPU numbers;
# "auto": every CPU but cpu0; "none"), HOTPLUG_MS.
#
# While em_torture (loaded at boot) runs: CPU hotplug cycles, one CPU at a
# time (offline, wait, online, wait), so every cluster keeps a CPU online.  When it is done:
# every CPU back online, rmmod em_torture (frees its perf domains and their
# tables), then two kmemleak scans; prints the block stress_guest.json and
# the suspected leaks.
D=/sys/kernel/debug/em_torture
KL=/sys/kernel/debug/kmemleak
: "${HOTPLUG_CPUS:=auto}"
: "${HOTPLUG_MS:=300}"
KMEMLEAK_AGE_S=6	# kmemleak reports objects older than 5 s only

state() { cat "$D/state" 2>/dev/null || echo missing; }
msleep() { usleep $(($1 * 1000)); }

[ -d "$D" ] || { echo "stress: em_torture is not loaded"; exit 2; }
case "$HOTPLUG_CPUS" in
none) HOTPLUG_CPUS= ;;
auto)
	HOTPLUG_CPUS=
	for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		c=${f#/sys/devices/system/cpu/cpu}
		c=${c%/online}
		[ "$c" = 0 ] || HOTPLUG_CPUS="$HOTPLUG_CPUS $c"
	done
	;;
esac
HOTPLUG_CPUS=$(echo $HOTPLUG_CPUS)
[ -w "$KL" ] && echo clear >"$KL"

cycles=0
errors=0
while [ "$(state)" = running ]; do
	for c in $HOTPLUG_CPUS; do
		[ "$(state)" = running ] || break
		f=/sys/devices/system/cpu/cpu$c/online
		if echo 0 >"$f"; then
			msleep "$HOTPLUG_MS"
			echo 1 >"$f" || errors=$((errors + 1))
			cycles=$((cycles + 1))
		else
			errors=$((errors + 1))
		fi
		msleep "$HOTPLUG_MS"
	done
	[ -n "$HOTPLUG_CPUS" ] || msleep 1000
done
echo "stress: em_torture $(state); $cycles hotplug cycles, $errors errors"
offline=0
for f in /sys/devices/system/cpu/cpu*/online; do
	[ "$(cat "$f")" = 1 ] && continue
	echo 1 >"$f" || offline=$((offline + 1))
done

rmmod em_torture || { echo "stress: rmmod em_torture failed"; exit 3; }

leaks=-1
if [ -w "$KL" ]; then
	sleep "$KMEMLEAK_AGE_S"
	echo scan >"$KL"
	sleep 1
	echo scan >"$KL"
	leaks=$(grep -c '^unreferenced object' "$KL")
fi
em_leaks=0
[ "$leaks" -gt 0 ] && em_leaks=$(grep -c -e 'em_' -e 'energy_model' "$KL")
echo "EMRCU-RESULT-BEGIN stress_guest.json"
echo "{\"hotplug_cpus\":\"$HOTPLUG_CPUS\",\"hotplug_ms\":$HOTPLUG_MS,"
echo "\"hotplug_cycles\":$cycles,\"hotplug_errors\":$errors,\"left_offline\":$offline,"
echo "\"kmemleak_leaks\":$leaks,\"kmemleak_em_lines\":$em_leaks}"
echo "EMRCU-RESULT-END stress_guest.json"
if [ "$leaks" -gt 0 ]; then
	echo "stress: kmemleak report:"
	head -60 "$KL"
fi
exit 0

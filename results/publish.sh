#!/bin/sh
# results/publish.sh RUNDIR — point results/latest at a finished run, atomically.
# results/publish.sh --failed RUNDIR — say the run failed and what latest still is.
set -eu
# RUNDIR is relative to the caller's directory: resolve it before moving.
[ "$1" = --failed ] || run=$(realpath -e "$1")
cd "$(dirname "$0")"
if [ "$1" = --failed ]; then
	echo "bench: run $2 failed; results/latest unchanged ($(readlink latest 2>/dev/null || echo none))" >&2
	exit 1
fi
d=$(realpath --relative-to=. "$run")
[ -f "$d/summary.json" ] || { echo "publish: $d has no summary.json" >&2; exit 1; }
ln -sfn "$d" latest.tmp.$$
mv -Tf latest.tmp.$$ latest
echo "bench: results/latest -> $d ($(ls "$d"/*.png 2>/dev/null | wc -l) plots, report: results/latest/report.md)"

#!/bin/bash
# tests/kunit.sh VARIANT
# The EM KUnit suite on VARIANT (kernel/tests/run-kunit.sh) with
# bench/platform loaded first: its CPUFreq driver registers the CPU Energy
# Models the suite's CPU cases update.  Builds the variant and the module.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
V=${1:?usage: tests/kunit.sh VARIANT}
if ! "$TOP/kernel/variant.sh" "$V"; then
	echo "FAIL: kunit/$V/build (kernel/variant.sh $V failed)"
	exit 1
fi
if ! ko=$("$TOP/bench/kmod.sh" "$V" bench/platform | tail -1) || [ ! -f "$ko" ]; then
	echo "FAIL: kunit/$V/fixture (bench/kmod.sh $V bench/platform failed)"
	exit 1
fi
exec "$TOP/kernel/tests/run-kunit.sh" "$V" --module "$ko"

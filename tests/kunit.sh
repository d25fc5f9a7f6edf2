#!/bin/bash
# tests/kunit.sh VARIANT
# The EM KUnit suite on VARIANT (kernel/tests/run-kunit.sh) with
# bench/platform loaded first: its CPUFreq driver registers the CPU Energy
# Models the suite's CPU cases update.  Builds the variant and the module.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
V=${1:?usage: tests/kunit.sh VARIANT}
suite=kunit/$V
. "$TOP/tests/lib.sh"
build build "$V" bench/platform
exec "$TOP/kernel/tests/run-kunit.sh" "$V" --module "${KOS[0]}"

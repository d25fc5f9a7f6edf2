#!/bin/bash
# tests/harness.sh: the negative control of the unit-test harness.  A cmocka
# program with one passing, one failing and one skipped case (lib/tests/
# check.h, as every C unit test uses it) must come out of tests/cases.sed
# as exactly one PASS, one FAIL and one SKIP, and exit non-zero: a failing
# C test can not pass unseen.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
make -s -C "$TOP/lib" >/dev/null || { echo "FAIL: harness/build (make -C lib)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/demo.c" <<'C'
#include "check.h"

TEST(passes) { assert_true(1); }
TEST(fails) { assert_msg(0, "on purpose"); }
TEST(skips) { skip(); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE("demo", passes), CASE("demo", fails), CASE("demo", skips),
	};

	return run_group("demo", tests);
}
C
if ! gcc -Wall -Wextra -Werror -I"$TOP/lib/tests" -o "$tmp/demo" "$tmp/demo.c" \
	"$BUILD/lib/host/libcheck.a" "$BUILD/lib/host/libemrcu.a" -lcmocka -ljson-c -lm; then
	echo "FAIL: harness/build (demo program)"
	exit 1
fi
"$tmp/demo" >"$tmp/out" 2>&1
rc=$?
cases=$(sed -nEf "$TOP/tests/cases.sed" "$tmp/out" | sort | tr '\n' ' ')
want='FAIL: demo/fails PASS: demo/passes SKIP: demo/skips '
if [ "$rc" -ne 0 ] && [ "$cases" = "$want" ]; then
	echo "PASS: harness/failing-case-reported (exit $rc; $cases)"
else
	echo "FAIL: harness/failing-case-reported (exit $rc; got '$cases', want '$want')"
	sed 's/^/    /' "$tmp/out"
fi

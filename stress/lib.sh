# stress/lib.sh — sourced by stress/run.sh and stress/faults.sh, and for
# build() by tests/kunit.sh and tests/em-trace.sh (they set TOP, BUILD and
# $suite, the prefix of their PASS/FAIL lines, first).
# Counting of PASS:/FAIL:/SKIP: lines, the closing count line, and the
# build of what a guest run on a debug kernel needs.

passed=0
failed=0
skipped=0
ok() { echo "PASS: $suite/$1"; passed=$((passed + 1)); }
ko() { echo "FAIL: $suite/$1 ($2)"; failed=$((failed + 1)); }
skip() { echo "SKIP: $suite/$1 ($2)"; skipped=$((skipped + 1)); }
finish() {
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
	exit
}

# build STEP VARIANT MODULE_DIR...: the kernel variant, the runner, then each
# module against it; the array KOS holds the .ko paths in order.  Any
# failure is a FAIL line named STEP, then finish.
build() {
	local step=$1 v=$2 log ko_
	shift 2
	log=$BUILD/${suite%%/*}-$v-build.log
	if ! "$TOP/kernel/variant.sh" "$v" >"$log" 2>&1; then
		ko "$step" "kernel/variant.sh $v failed: $(tail -1 "$log")"
		finish
	fi
	[ -x "$TOP/qemu-runner/emrcu-run" ] || { ko "$step" "qemu-runner/emrcu-run missing: run make tools"; finish; }
	KOS=()
	for m in "$@"; do
		ko_=$("$TOP/bench/kmod.sh" "$v" "$m" 2>&1 | tail -1)
		[ -f "$ko_" ] || { ko "$step" "$(basename "$m"): $ko_"; finish; }
		KOS+=("$ko_")
	done
}

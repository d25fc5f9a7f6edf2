# tests/lib.sh (bash) — the shell suites' one set of helpers.  A suite sets
# $suite (the prefix of its case names) and sources it; TOP and BUILD for
# build() and runner_case().
#   ok NAME [DETAIL], ko NAME WHY, skip NAME WHY: a PASS:/FAIL:/SKIP: line,
#     counted; result NAME WHY: ok when WHY is empty, else ko;
#   finish: the count line, exit status 0 only when nothing failed.

passed=0
failed=0
skipped=0
ok() { echo "PASS: $suite/$1${2:+ ($2)}"; passed=$((passed + 1)); }
ko() { echo "FAIL: $suite/$1 ($2)"; failed=$((failed + 1)); }
skip() { echo "SKIP: $suite/$1 ($2)"; skipped=$((skipped + 1)); }
result() { if [ -z "$2" ]; then ok "$1"; else ko "$1" "$2"; fi; }
finish() {
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" -eq 0 ]
	exit
}

# runner_case NAME WANT_RC WANT_LINE_REGEX -- emrcu-run ARGS...: one boot
# of $V (with the array RUNNER_ARGS first), outdir $OUTDIR_OVERRIDE or
# $OUT/NAME, output in $OUT/NAME.out.  $line is its verdict line (the last
# "emrcu-run: " line that is not a warning).  0, or 1 after a FAIL line
# naming the exit code or the line that does not match.
runner_case() {
	local name=$1 want=$2 re=$3 rc d=${OUTDIR_OVERRIDE:-$OUT/$1}
	shift 4
	"$TOP/qemu-runner/emrcu-run" --variant "$V" "${RUNNER_ARGS[@]}" \
		--outdir "$d" "$@" >"$OUT/$name.out" 2>&1
	rc=$?
	line=$(grep '^emrcu-run: ' "$OUT/$name.out" | grep -v '^emrcu-run: warning' | tail -1)
	if [ "$rc" != "$want" ]; then
		ko "$name" "exit $rc, want $want: $line"
		return 1
	elif ! grep -Eq -- "$re" <<<"$line"; then
		ko "$name" "line '$line' does not match /$re/"
		return 1
	fi
	return 0
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

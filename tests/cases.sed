# sed -nEf tests/cases.sed LOG: a test log's cases as PASS:/FAIL:/SKIP:
# lines, from either form the suites print: those lines themselves, or TAP
# (`ok N - NAME`, `not ok N - NAME`, and cmocka's `not ok N # SKIP NAME`).
s/^ok [0-9]+ - (.*) # SKIP.*/SKIP: \1/p
t
s/^(not )?ok [0-9]+ # SKIP (.*)/SKIP: \2/p
t
s/^ok [0-9]+ - (.*)/PASS: \1/p
t
s/^not ok [0-9]+ - (.*)/FAIL: \1/p
t
/^(PASS|FAIL|SKIP): /p

#!/bin/bash
# The OVSDB fuzz harness (fuzz_ovsdb_decode.c, built here as a plain
# driver) over its seed corpus: a session as ovs-vsctl starts one, a
# transaction of every operation, echo and locks, malformed streams, and
# every input the fuzzer once failed on.  Under configure
# --enable-sanitizers this is the fuzzer's regression test.
. "$(dirname "$0")/../lib.sh"
CORPUS=$(cd "$(dirname "$0")" && pwd)/ovsdb_corpus
DRIVER=$(dirname "$SBSIM")/../tests/fuzz/fuzz_ovsdb_decode
[ -x "$DRIVER" ] || fail "no harness driver at $DRIVER"
set -- "$CORPUS"/*
[ -f "$1" ] || fail "no seeds in $CORPUS"
"$DRIVER" "$@" >"$TMPD/driver.log" 2>&1
rc=$?
cat "$TMPD/driver.log"
[ $rc -eq 0 ] || fail "harness driver exited $rc"
grep -q "^$# inputs run, 0 unreadable\$" "$TMPD/driver.log" ||
    fail "not every seed ran"
echo "$# seeds decoded without a fault"

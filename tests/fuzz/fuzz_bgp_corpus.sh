#!/bin/bash
# The BGP codec fuzz harness (fuzz_bgp_decode.c, built here as a plain
# driver) over its seed corpus: OPENs (ours and real speakers'), UPDATEs
# of every shape the builder makes, RFC 7606 error cases, a whole session
# stream, and every input the fuzzer once failed on.  Under configure
# --enable-sanitizers this is the fuzzer's regression test.
. "$(dirname "$0")/../lib.sh"
CORPUS=$(cd "$(dirname "$0")" && pwd)/bgp_corpus
DRIVER=$(dirname "$SBSIM")/../tests/fuzz/fuzz_bgp_decode
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

#!/bin/bash
# The OVSDB fuzz harness (fuzz_ovsdb_decode.c, built here as a plain
# driver) over its seed corpus: a session as ovs-vsctl starts one, a
# transaction of every operation, echo and locks, malformed streams, and
# every input the fuzzer once failed on.  Under configure
# --enable-sanitizers this is the fuzzer's regression test.
. "$(dirname "$0")/../lib.sh"
run_fuzz_corpus fuzz_ovsdb_decode ovsdb_corpus

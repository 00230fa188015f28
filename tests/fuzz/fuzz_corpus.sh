#!/bin/bash
# The OpenFlow decoder fuzz harness (fuzz_of_decode.c, built here as a
# plain driver) over its seed corpus: valid messages of every kind for
# both versions, and every input the fuzzer once crashed on.  Under
# configure --enable-sanitizers this is the fuzzer's regression test.
. "$(dirname "$0")/../lib.sh"
run_fuzz_corpus fuzz_of_decode corpus

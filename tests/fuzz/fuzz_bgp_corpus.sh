#!/bin/bash
# The BGP codec fuzz harness (fuzz_bgp_decode.c, built here as a plain
# driver) over its seed corpus: OPENs (ours and real speakers'), UPDATEs
# of every shape the builder makes, RFC 7606 error cases, a whole session
# stream, and every input the fuzzer once failed on.  Under configure
# --enable-sanitizers this is the fuzzer's regression test.
. "$(dirname "$0")/../lib.sh"
run_fuzz_corpus fuzz_bgp_decode bgp_corpus

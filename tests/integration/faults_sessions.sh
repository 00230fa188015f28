#!/bin/bash
# faults.sh's part: PCEP, BGP, OVSDB and NETCONF faults.
# One test file stays under 60 s (docs/design.md, "The test budget");
# faults.sh by hand runs every part.
CASES="pcep bgp ovsdb netconf slow_rpc" exec "$BASH" "$(dirname "$0")/faults.sh"

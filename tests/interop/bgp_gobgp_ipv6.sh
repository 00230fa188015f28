#!/bin/bash
# bgp_gobgp.sh's part: IPv6 unicast (MP-BGP) through GoBGP.
# One test file stays under 60 s (docs/design.md, "The test budget");
# bgp_gobgp.sh by hand runs every part.
CASES="ipv6" exec "$BASH" "$(dirname "$0")/bgp_gobgp.sh"

#!/bin/bash
# bgp_gobgp.sh's part: IPv4 unicast through GoBGP.
# One test file stays under 60 s (docs/design.md, "The test budget");
# bgp_gobgp.sh by hand runs every part.
CASES="ipv4" exec "$BASH" "$(dirname "$0")/bgp_gobgp.sh"

#!/bin/bash
# bgp_tshark.sh's part: IPv6 sessions decoded by tshark.
# One test file stays under 60 s (docs/design.md, "The test budget");
# bgp_tshark.sh by hand runs every part.
CASES="ipv6" exec "$BASH" "$(dirname "$0")/bgp_tshark.sh"

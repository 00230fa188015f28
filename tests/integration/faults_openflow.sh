#!/bin/bash
# faults.sh's part: the options, and OpenFlow's faults.
# One test file stays under 60 s (docs/design.md, "The test budget");
# faults.sh by hand runs every part.
CASES="usage openflow stall delay lost" exec "$BASH" "$(dirname "$0")/faults.sh"

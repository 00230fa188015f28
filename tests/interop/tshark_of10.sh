#!/bin/bash
# tshark.sh's part: OpenFlow 1.0 sessions decoded by tshark.
# One test file stays under 60 s (docs/design.md, "The test budget");
# tshark.sh by hand runs every part.
CASES="of10" exec "$BASH" "$(dirname "$0")/tshark.sh"

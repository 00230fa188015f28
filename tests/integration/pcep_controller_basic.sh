#!/bin/bash
# pcep_controller.sh's part: delegated LSPs, updates, ODL's RPCs and topology.
# One test file stays under 60 s (docs/design.md, "The test budget");
# pcep_controller.sh by hand runs every part.
CASES="basic" exec "$BASH" "$(dirname "$0")/pcep_controller.sh"

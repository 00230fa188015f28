#!/bin/bash
# pcep_controller.sh's part: the update test through the northbound.
# One test file stays under 60 s (docs/design.md, "The test budget");
# pcep_controller.sh by hand runs every part.
CASES="northbound" exec "$BASH" "$(dirname "$0")/pcep_controller.sh"

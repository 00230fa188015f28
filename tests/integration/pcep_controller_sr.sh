#!/bin/bash
# pcep_controller.sh's part: SR paths, LSP-DB-VERSION, several LSPs per PCRpt.
# One test file stays under 60 s (docs/design.md, "The test budget");
# pcep_controller.sh by hand runs every part.
CASES="sr" exec "$BASH" "$(dirname "$0")/pcep_controller.sh"

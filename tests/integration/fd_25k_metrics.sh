#!/bin/bash
# fd_25k.sh's part: a flood of a run's --metrics-listen server.
# One test file stays under 60 s (docs/design.md, "The test budget");
# fd_25k.sh by hand runs every part.
CASES="metrics" exec "$BASH" "$(dirname "$0")/fd_25k.sh"

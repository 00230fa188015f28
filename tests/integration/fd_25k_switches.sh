#!/bin/bash
# fd_25k.sh's part: 25 000 real switches against the limit.
# One test file stays under 60 s (docs/design.md, "The test budget");
# fd_25k.sh by hand runs every part.
CASES="switches" exec "$BASH" "$(dirname "$0")/fd_25k.sh"

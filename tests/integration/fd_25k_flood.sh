#!/bin/bash
# fd_25k.sh's part: refused up front, a flood beside 200 switches.
# One test file stays under 60 s (docs/design.md, "The test budget");
# fd_25k.sh by hand runs every part.
CASES="refused flood" exec "$BASH" "$(dirname "$0")/fd_25k.sh"

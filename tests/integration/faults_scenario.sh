#!/bin/bash
# faults.sh's part: NETCONF drop, and faults in a scenario.
# One test file stays under 60 s (docs/design.md, "The test budget");
# faults.sh by hand runs every part.
CASES="netconf_drop scenario" exec "$BASH" "$(dirname "$0")/faults.sh"

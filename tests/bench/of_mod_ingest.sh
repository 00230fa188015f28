#!/bin/sh
# How fast one passive sbsim switch takes FLOW_MODs, GROUP_MODs and
# METER_MODs, and what an entry costs in memory (of_mod_ingest.py: one
# row per message kind).  N entries of each kind (200 000
# unless given) are added, modified and deleted, each phase ended by a
# BARRIER; it prints messages per CPU-second of the switch process for
# each phase, the add rate relative to FLOW_MOD's, and the RSS bytes an
# added entry holds; then the CPU of a GROUP_MOD DELETE that takes its
# flow from a table of N other flows.  PERF=DIR also perf-records each
# phase into DIR.
# Run from the build directory: tests/bench/of_mod_ingest.sh [N].
set -eu
SBSIM=${SBSIM:-src/sbsim}
exec /usr/bin/python3 "$(dirname "$0")/of_mod_ingest.py" "$SBSIM" "${1:-200000}"

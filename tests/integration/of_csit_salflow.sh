#!/bin/bash
# sal-flow's add-flow and remove-flow against the embedded controller, as
# CSIT's FlowLib (XML, /rests/operations: 204) and clustering suites
# (add_flow_rpc.json, /restconf/operations: 200) send them: the flow
# reaches the named switch and leaves it; the error cases.
. "$(dirname "$0")/of_csit.sh"
N=2		# switches

csit_start $N
csit_run salflow $N

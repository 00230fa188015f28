#!/bin/bash
# bulk-o-matic's sal-bulk-flow operations against the embedded
# controller, as flow_config_blaster_bulk.py (add/remove-flows-rpc and
# -ds) and the Performance_Bulkomatic suites (flow-test,
# flow-rpc-add-multiple) call them, both URL styles; the flows counted in
# the inventory as ScaleClient counts them; the error cases.
. "$(dirname "$0")/of_csit.sh"
N=3		# switches
K=40		# flows per switch

csit_start $N
csit_run bulkomatic $N $K

#!/bin/bash
# CSIT's cleanup steps against the embedded controller: DELETE of one
# config node and of opendaylight-inventory:nodes, both URL styles; the
# config flows leave the switches, the controller's own stay; errors.
. "$(dirname "$0")/of_csit.sh"
N=3		# switches
K=20		# config flows per switch
OWN=5		# flows the controller pushes itself

csit_start $N --switches $N --flows-per-switch $OWN
csit_run cleanup $N $K $OWN

#!/bin/bash
# The switches' ports and links as OpenDaylight shows them: node-connector
# entries with their flow-capable-node-connector fields and statistics in
# the inventory (CSIT's Check Nodes Stats), and network-topology's flow:1
# with a node per switch, a termination point per port and the links the
# controller's LLDP found in a linear chain of sbsim switches.
. "$(dirname "$0")/of_csit.sh"
N=3		# switches in a line
PORTS=4		# ports of an sbsim switch

OF_SWITCH_ARGS="--topology linear"
csit_start $N --lldp
csit_run topology $N $PORTS

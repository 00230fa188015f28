#!/bin/bash
# CSIT's flow scale tools against the embedded controller: flows POSTed
# as flow_config_blaster.py does, counted in the whole operational and
# config inventory as inventory_crawler.py and ScaleClient.py count them
# (every table's flow list and its flow-table-statistics at node level),
# both URL styles, JSON and XML; replacing PUTs, per-flow DELETEs, errors.
. "$(dirname "$0")/of_csit.sh"
N=3		# switches
K=100		# flows per switch

csit_start $N
csit_run inventory $N $K

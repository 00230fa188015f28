#!/bin/bash
# sbsim's northbound driver against the embedded controller's RESTCONF:
# flows pushed through HTTP arrive at the simulated switches (program),
# the operational inventory confirms them, and they are deleted, in both
# URL styles, both body formats, one flow per request and batches.
. "$(dirname "$0")/../lib.sh"
need ss
N=4
F=400
P=$(free_ports 2)
OF=$P
RC=$((P + 1))

start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$OF:127.0.0.1 \
    --restconf 127.0.0.1:$RC --stats-interval 0.2
CTL=$LAST_PID
wait_listen "$RC" || fail "controller did not listen on $RC"

run() {
	local tag=$1
	shift
	"$SBSIM" openflow --switches $N --controller tcp:127.0.0.1:$OF \
	    --northbound odl:http://127.0.0.1:$RC --flows $F --timeout 20 \
	    --report "$TMPD/$tag.json" -q "$@" >"$TMPD/sw-$tag.log" 2>&1 ||
	    fail "$tag: sbsim exited $?"
	for ph in connect program nb_program confirm delete nb_delete \
	    confirm_delete; do
		st=$(json_get "$TMPD/$tag.json" \
		    "[p['state'] for p in r['phases'] if p['name']=='$ph'][0]")
		[ "$st" = DONE ] || fail "$tag: phase $ph is $st"
	done
	for ph in program delete confirm confirm_delete; do
		n=$(json_get "$TMPD/$tag.json" \
		    "[p['items'] for p in r['phases'] if p['name']=='$ph'][0]")
		[ "$n" = "$F" ] || fail "$tag: $ph has $n items, want $F"
	done
	bad=$(json_get "$TMPD/$tag.json" \
	    "r['counters'].get('nb_http_4xx',0)+r['counters'].get('nb_http_5xx',0)+r['counters'].get('nb_transport_errors',0)")
	[ "$bad" = 0 ] || fail "$tag: $bad northbound errors"
	echo "$tag: $F flows programmed, confirmed and deleted"
}

run put-json --flows-per-request 1 --northbound-parallel 4
run post-json --flows-per-request 50 --northbound-parallel 2
run put-xml-draft --flows-per-request 1 --northbound-format xml \
    --northbound-style draft --northbound-parallel 8
run post-json-draft --flows-per-request 100 --northbound-style draft
stop_pid "$CTL"

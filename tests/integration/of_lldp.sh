#!/bin/bash
# LLDP link discovery over the simulated topologies: the embedded
# controller (--lldp) sends LLDP out of every port, the switches carry it
# to their peers as PACKET_INs.  The controller must see every directed
# link exactly once (linear N: 2(N-1), ring: 2N, tree of N nodes: 2(N-1)),
# and the switches must have forwarded exactly as many.  Some runs stagger
# the connects (--connect-rate) so that LLDP sent before a peer is up has
# to be sent again.  The runs go in parallel, each on its own ports.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss

RUNS=""
# start_run TAG TOPOLOGY SWITCHES PORTS VERSION CONNECT_RATE LINKS
start_run() {
	local tag=$1 topo=$2 n=$3 ports=$4 v=$5 rate=$6 links=$7 port
	port=$(free_ports 1)
	start_bg "$TMPD/ctl-$tag.log" "$SBSIM" controller \
	    --openflow ptcp:$port --lldp --duration 3
	eval "CTL_$tag=$LAST_PID"
	wait_listen "$port" || fail "$tag: controller did not listen"
	start_bg "$TMPD/sw-$tag.log" "$SBSIM" openflow --switches "$n" \
	    --ports "$ports" --topology "$topo" --of-version "$v" \
	    --connect-rate "$rate" --controller tcp:127.0.0.1:$port \
	    --duration 2.7 --report "$TMPD/$tag.json" -q
	eval "SW_$tag=$LAST_PID"
	eval "LINKS_$tag=$links"
	RUNS="$RUNS $tag"
}

check_run() {
	local tag=$1 ctl sw links seen fwd out
	eval "ctl=\$CTL_$tag sw=\$SW_$tag links=\$LINKS_$tag"
	wait_exit "$sw" 15 || fail "$tag: switches did not stop"
	[ "$EXIT_RC" -eq 0 ] || fail "$tag: sbsim openflow exited $EXIT_RC"
	wait_exit "$ctl" 15 || fail "$tag: controller did not stop"
	[ "$EXIT_RC" -eq 0 ] || fail "$tag: controller exited $EXIT_RC"
	out=$(grep '^controller:' "$TMPD/ctl-$tag.log")
	seen=$(echo "$out" | sed -n 's/.* \([0-9]*\) links seen.*/\1/p')
	[ "$seen" = "$links" ] ||
	    fail "$tag: controller saw '$seen' links, want $links: $out"
	case "$out" in
	*" 0 errors received, 0 bad messages"*) ;;
	*) fail "$tag: controller: $out" ;;
	esac
	fwd=$(json_get "$TMPD/$tag.json" 'r["counters"]["lldp_forwarded"]')
	[ "$fwd" = "$links" ] ||
	    fail "$tag: switches forwarded $fwd LLDP frames, want $links"
	errs=$(json_get "$TMPD/$tag.json" \
	    'r["counters"]["errors_sent"] + r["counters"]["decode_errors"]')
	[ "$errs" = 0 ] || fail "$tag: $errs errors sent by the switches"
	echo "$tag: $links directed links"
}

#         tag      topology  N  ports version rate links
start_run lin13    linear    6  4     1.3     0    10
start_run lin10    linear    6  4     1.0     10   10
start_run ring13   ring      5  2     1.3     10   10
start_run ring10   ring      5  4     1.0     0    10
start_run tree13   tree:2    7  3     1.3     0    12
start_run tree10   tree:2    6  4     1.0     10   10
start_run tree3    tree:3    10 4     1.3     0    18
for t in $RUNS; do
	check_run "$t"
done

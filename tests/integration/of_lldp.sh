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
	    --openflow ptcp:$port --lldp --duration 5
	eval "CTL_$tag=$LAST_PID"
	wait_listen "$port" || fail "$tag: controller did not listen"
	start_bg "$TMPD/sw-$tag.log" "$SBSIM" openflow --switches "$n" \
	    --ports "$ports" --topology "$topo" --of-version "$v" \
	    --connect-rate "$rate" --controller tcp:127.0.0.1:$port \
	    --duration 4.5 --report "$TMPD/$tag.json" -q
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

# --fault link-move: a line of 4 switches, each with a free port 3; at
# 2.5 s one inter-switch link moves to a third switch's free port.  The
# controller's topology (RESTCONF, flow:1) holds the line's 6 directed
# links before; after, the moved link's pair is gone and a pair to the
# new neighbour is found from the same port (PORT_STATUS link down and
# up, LLDP again).  8 links seen and forwarded in all.
need curl
port=$(free_ports 2)
rest=$((port + 1))
start_bg "$TMPD/ctl-move.log" "$SBSIM" controller --openflow ptcp:$port \
    --lldp --restconf 127.0.0.1:$rest --duration 6
ctl=$LAST_PID
wait_listen "$port" && wait_listen "$rest" || fail "move: controller did not listen"
start_bg "$TMPD/sw-move.log" "$SBSIM" openflow --switches 4 --ports 3 \
    --topology linear --controller tcp:127.0.0.1:$port \
    --fault link-move@2.5 --duration 5 --report "$TMPD/move.json"
sw=$LAST_PID
# links FILE: the topology in FILE (RESTCONF's JSON), its directed links,
# "source-tp dest-tp" a line.
links() {
	"$PY" -c 'import json, sys
t = json.load(open(sys.argv[1]))["network-topology:topology"][0]
for l in sorted(t.get("link", []), key=lambda l: l["link-id"]):
    print(l["source"]["source-tp"], l["destination"]["dest-tp"])' "$1" \
	    2>/dev/null
}
# wait_links N [NOT]: the topology once it has N links, other than the
# file NOT (read by curl alone, fast enough to see the line before the
# move; 20 s by the clock at most), its links in $TMPD/links.
wait_links() {
	local end=$((SECONDS + 20))
	while [ $SECONDS -lt $end ]; do
		curl -s -u admin:admin "http://127.0.0.1:$rest/rests/data/network-topology:network-topology/topology=flow%3A1?content=nonconfig" \
		    >"$TMPD/topo.json"
		if [ "$(grep -o '"link-id"' "$TMPD/topo.json" | wc -l)" = "$1" ]; then
			links "$TMPD/topo.json" >"$TMPD/links"
			{ [ -z "${2:-}" ] || ! cmp -s "$TMPD/links" "$2"; } &&
			    return 0
		fi
		sleep 0.05
	done
	links "$TMPD/topo.json" >"$TMPD/links"
	return 1
}
wait_links 6 || fail "move: before: $(cat "$TMPD/links")"
mv "$TMPD/links" "$TMPD/links.before"
wait_links 6 "$TMPD/links.before" ||
    fail "move: the topology did not change: $(cat "$TMPD/links")"
"$PY" - "$TMPD/links.before" "$TMPD/links" <<'PYEOF' || fail "move: links"
import sys
before, after = ({tuple(l.split()) for l in open(f)} for f in sys.argv[1:])
gone, new = before - after, after - before
# One pair gone and one pair found, both at the port that moved.
def pair(s):
    if len(s) != 2:
        return None
    a, b = min(s)
    return (a, b) if (b, a) in s else None
g, n = pair(gone), pair(new)
if g is None or n is None or not set(g) & set(n):
    sys.exit("gone %r, found %r" % (sorted(gone), sorted(new)))
print("moved:", g, "->", n)
PYEOF
wait_exit "$sw" 15 && [ "$EXIT_RC" = 0 ] || fail "move: sbsim exited $EXIT_RC"
wait_exit "$ctl" 15 || fail "move: controller did not stop"
seen=$(sed -n 's/.* \([0-9]*\) links seen.*/\1/p' "$TMPD/ctl-move.log")
[ "$seen" = 8 ] || fail "move: controller saw $seen links, want 8"
for kv in fault_link_move=1 fault_link_move_missed=0 lldp_forwarded=8; do
	[ "$(json_get "$TMPD/move.json" "r['counters']['${kv%=*}']")" = \
	    "${kv#*=}" ] || fail "move: ${kv%=*} is not ${kv#*=}"
done
exit 0

#!/bin/bash
# MRT interop (RFC 6396): GoBGP dumps the UPDATEs it receives from sbsim's
# peers as BGP4MP (its [[mrt-dump]] "updates"; its "table" dumps come a
# minute apart at the soonest), bgpdump counts the routes in that file,
# and `sbsim bgp --mrt` replays it into BIRD, which must import exactly
# that many, from as many peers as the dump has, with the recorded
# attributes (a sampled route's communities, MED and AS_PATH).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
need gobgpd
need bird
need birdc
need bgpdump
need ss
N=3
P=2000
NP=$((N * P))
NET=$((RANDOM % 100 + 20))
NET2=$((NET + 100))

gobgp_conf() {
	{
		gobgp_global "$2"
		gobgp_group sbsim 65001 "127.$NET.0.0/24" ipv4-unicast
		cat <<EOT
[[mrt-dump]]
  [mrt-dump.config]
    dump-type = "updates"
    file-name = "updates.mrt"
EOT
	} >"$1"
}

bird_conf() {
	cat >"$1" <<EOT
log stderr { warning, error, auth, fatal, bug };
router id 192.0.2.253;
protocol device { }
template bgp peers {
	local 127.0.0.1 port $2 as 65000;
	multihop;
	ipv4 { import all; export none; };
}
protocol bgp p1 from peers {
	neighbor range 127.$NET2.0.0/24 as 65001;
	dynamic name "dyn";
}
EOT
}

dump_routes() {
	bgpdump -m "$TMPD/updates.mrt" 2>/dev/null | grep -c '|A|'
}

# 1. GoBGP records what sbsim's peers announce.
ports=$(free_ports 3)
read -r gport api bport <<<"$(seq "$ports" $((ports + 2)) | tr '\n' ' ')"
gobgp_conf "$TMPD/gobgpd.toml" "$gport"
# GoBGP passes the file name through Go's time layout (the rotation
# interval is never 0 for "updates"): a relative name without layout
# tokens, in $TMPD, whose random name may hold some.
# (start_gobgpd runs it in $TMPD.)
start_gobgpd "$TMPD/gobgpd.log" "$TMPD/gobgpd.toml" "$gport" "$api"
gobgpd=$GOBGPD_PID
start_bg "$TMPD/sb-gen.log" "$SBSIM" bgp --peers $N --prefixes $P \
    --as 65001 --peer-as 65000 --source 127.$NET.0.0/24 \
    --controller tcp:127.0.0.1:$gport --duration 40 -q --communities 2 \
    --med 7
sb=$LAST_PID
wait_until 30 eval '[ "$(dump_routes)" = $NP ]' ||
    fail "GoBGP's dump holds $(dump_routes) routes, not $NP"
stop_early "$sb" "sbsim (generated)"
stop_term "$gobgpd"
n=$(dump_routes)
[ "$n" = $NP ] || fail "bgpdump counts $n routes in GoBGP's dump"
echo "GoBGP's BGP4MP dump: $n routes (bgpdump -m)"

# 2. The dump replayed into BIRD: one peer per dump peer, every route.
bird_conf "$TMPD/bird.conf" "$bport"
start_bird bird "$TMPD/bird.conf" "$bport"
bird=$BIRD_PID
start_bg "$TMPD/sb-mrt.log" "$SBSIM" bgp --mrt "$TMPD/updates.mrt" \
    --as 65001 --peer-as 65000 --source 127.$NET2.0.0/24 \
    --controller tcp:127.0.0.1:$bport --duration 40 \
    --report "$TMPD/mrt.json" -q
sb=$LAST_PID
wait_until 30 bird_is "$BIRD_SOCK" 'dyn[0-9]+' "$N $n 0" ||
    fail "BIRD: $(bird_sum "$BIRD_SOCK" 'dyn[0-9]+'), want $N up, $n imported"
sleep 0.5
bird_is "$BIRD_SOCK" 'dyn[0-9]+' "$N $n 0" ||
    fail "BIRD later: $(bird_sum "$BIRD_SOCK" 'dyn[0-9]+')"
# The recorded attributes went out: the communities and MED of the
# generated run, its AS_PATH behind the replaying peer's AS.
birdc -s "$BIRD_SOCK" show route for 10.0.0.1 all >"$TMPD/route.txt"
grep -q "BGP.community: (65001,1) (65001,2)" "$TMPD/route.txt" &&
    grep -q "BGP.med: 7" "$TMPD/route.txt" &&
    grep -q "BGP.as_path: 65001 65001\$" "$TMPD/route.txt" ||
    fail "BIRD's route 10.0.0.0/24: $(cat "$TMPD/route.txt")"
stop_early "$sb" "sbsim --mrt" "$TMPD/mrt.json"
report_check "$TMPD/mrt.json" announce "$n"
echo "BIRD imported $n routes from $N replaying peers"
stop_bird "$bird" "$BIRD_SOCK"
exit 0

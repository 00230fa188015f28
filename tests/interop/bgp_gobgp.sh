#!/bin/bash
# Interop with GoBGP (gobgpd, configured by a TOML file, counted through
# the gobgp CLI on gobgpd's own gRPC port): N sbsim peers (a dynamic
# neighbor range, eBGP) announce P prefixes each; sbsim's monitor (a
# static neighbor) receives what GoBGP re-advertises.  IPv4 and IPv6
# (MP-BGP over the IPv4 sessions):
#   1. a run with --withdraw held up by --duration: while the sessions are
#      still up every peer has withdrawn exactly P prefixes to GoBGP
#      (its message counters) and GoBGP's global RIB is empty again;
#      sbsim's report: learn and withdraw DONE with N*P items, ok;
#   2. a run without --withdraw: every peer's adj-RIB-in in GoBGP holds
#      exactly P accepted routes, its global RIB N*P destinations, and its
#      adj-RIB-out towards the monitor N*P; the report's learn phase is
#      DONE with N*P and the monitor holds N*P prefixes.
# GoBGP treats a route whose next hop is a loopback address as a
# withdraw: the peers send next hop 192.0.2.1 (IPv6: 2001:db8:ffff::1).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
need_peer gobgp
N=3
P=2000
NP=$((N * P))

# gobgp_conf FILE PORT FAMILY
gobgp_conf() {
	{
		gobgp_global "$2"
		# The peers 127.1.0.1 to 127.1.0.3; the monitor is 127.1.0.4.
		gobgp_group sbsim 65001 127.1.0.0/30 "$3"
		cat <<EOF
[[neighbors]]
  [neighbors.config]
    neighbor-address = "127.1.0.$((N + 1))"
    peer-as = 65002
  [neighbors.transport.config]
    passive-mode = true
    local-address = "127.0.0.1"
  # After a session went down GoBGP refuses the neighbor for 30 s by
  # default; the second run's monitor comes back at once.
  [neighbors.timers.config]
    idle-hold-time-after-reset = 1
EOF
		gobgp_afi_safis neighbors "$3"
	} >"$1"
}

# gobgp_sum API FAMILY: "ESTABLISHED ACCEPTED WITHDRAWN RIB MONITOR ADJ_OUT":
# the peers' sessions up, routes accepted from them and prefixes they
# withdrew (GoBGP's per-session message counters), destinations in the
# global RIB, the monitor's session up (1) or not, and destinations in the
# adj-RIB-out towards it.
gobgp_sum() {
	"$PY" - "$1" "$2" "$N" <<'PYEOF'
import json, subprocess, sys
api, fam, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def gobgp(*args):
    return subprocess.run(["gobgp", "-u", "127.0.0.1", "-p", api] + list(args),
                          capture_output=True, text=True, timeout=10).stdout
def dests(out):
    for line in out.splitlines():
        if line.startswith("Destination:"):
            return int(line.split()[1].rstrip(","))
    return 0
est = acc = wd = mon = 0
for i in range(1, n + 2):
    try:
        nb = json.loads(gobgp("-j", "neighbor", "127.1.0.%d" % i))
    except ValueError:
        continue
    st = nb.get("state", {})
    if i > n:
        mon = 1 if st.get("session_state") == 6 else 0
        continue
    if st.get("session_state") == 6:
        est += 1
    wd += st.get("messages", {}).get("received", {}).get("withdraw_prefix", 0)
    for af in nb.get("afi_safis", []):
        acc += af.get("state", {}).get("accepted", 0)
rib = dests(gobgp("global", "rib", "-a", fam, "summary"))
out = dests(gobgp("neighbor", "127.1.0.%d" % (n + 1), "adj-out", "-a", fam, "summary"))
print(est, acc, wd, rib, mon, out)
PYEOF
}

# scenario NAME FAMILY GOBGP_AFI_SAFI SBSIM_ARGS...
scenario() {
	local name=$1 fam=$2 afisafi=$3 base port api sb got
	shift 3
	base=$(free_ports 2)
	port=$base api=$((base + 1))
	gobgp_conf "$TMPD/$name.toml" "$port" "$afisafi"
	start_gobgpd "$TMPD/gobgpd-$name.log" "$TMPD/$name.toml" "$port" "$api"
	local gobgpd=$GOBGPD_PID
	local args="--peers $N --prefixes $P --as 65001 --peer-as 65000
	    --controller tcp:127.0.0.1:$port --monitor tcp:127.0.0.1:$port
	    --monitor-as 65002 --timeout 20 -q $*"

	# 1. Announce, withdraw once the monitor has them all; stay up.
	# shellcheck disable=SC2086
	start_bg "$TMPD/sb-$name-wd.log" "$SBSIM" bgp $args --withdraw \
	    --duration 30 --report "$TMPD/$name-wd.json"
	sb=$LAST_PID
	wd_done() {
		got=$(gobgp_sum "$api" "$fam")
		[ "$got" = "$N 0 $NP 0 1 0" ]
	}
	wait_until 25 wd_done ||
	    fail "$name: GoBGP: $got, want $N 0 $NP 0 1 0 (up accepted withdrawn rib monitor adj-out)"
	# GoBGP has sent the monitor every withdrawal: give sbsim's monitor a
	# moment to read them, then stop (--duration is only the bound).
	sleep 1
	stop_early "$sb" "$name: sbsim (withdraw run)" "$TMPD/$name-wd.json"
	report_check "$TMPD/$name-wd.json" learn $NP
	report_check "$TMPD/$name-wd.json" withdraw $NP

	# 2. Announce and stay.
	# shellcheck disable=SC2086
	start_bg "$TMPD/sb-$name.log" "$SBSIM" bgp $args --duration 60 \
	    --report "$TMPD/$name.json"
	sb=$LAST_PID
	learned() {
		got=$(gobgp_sum "$api" "$fam")
		[ "$got" = "$N $NP 0 $NP 1 $NP" ]
	}
	wait_until 20 learned ||
	    fail "$name: GoBGP: $got, want $N $NP 0 $NP 1 $NP (up accepted withdrawn rib monitor adj-out)"
	sleep 0.5
	learned || fail "$name: GoBGP later: $got"
	stop_early "$sb" "$name: sbsim" "$TMPD/$name.json"
	report_check "$TMPD/$name.json" learn $NP
	[ "$(counter "$TMPD/$name.json" monitor_prefixes)" = $NP ] ||
	    fail "$name: the monitor holds $(counter "$TMPD/$name.json" monitor_prefixes) prefixes"
	[ "$(counter "$TMPD/$name.json" notifications_received)" = 0 ] ||
	    fail "$name: GoBGP sent NOTIFICATIONs"
	stop_pid "$gobgpd"
	echo "$name: GoBGP learned $NP prefixes, re-advertised and forgot them"
}

# Each family is a test file of its own (bgp_gobgp_*.sh: one file stays
# under 60 s, docs/design.md "The test budget"); by hand, this file runs
# both.
run_case ipv4 scenario ipv4 ipv4 ipv4-unicast --next-hop 192.0.2.1
run_case ipv6 scenario ipv6 ipv6 ipv6-unicast --afi ipv6 \
    --next-hop 2001:db8:ffff::1

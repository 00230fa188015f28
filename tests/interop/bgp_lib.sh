# Helpers for the BGP interop tests (sourced after tests/lib.sh; not a
# test by itself).

# need_peer KIND: skips the test unless $PY, ss and the programs of the
# peer KIND are installed (gobgp: gobgpd and gobgp; frr: FRR's bgpd, left
# in BGPD, and vtysh; bird: bird and birdc).
need_peer() {
	[ -x "$PY" ] || skip "$PY is not installed"
	case $1 in
	gobgp)	need gobgpd; need gobgp ;;
	frr)	BGPD=/usr/lib/frr/bgpd
		[ -x "$BGPD" ] || skip "FRR's bgpd is not installed"
		need vtysh ;;
	bird)	need bird; need birdc ;;
	*)	fail "need_peer: no peer $1" ;;
	esac
	need ss
}

# wait_until SECONDS CMD...: run CMD every 0.2 s until it succeeds, at
# most SECONDS seconds; 1 when it never did.
wait_until() {
	local max=$(( $1 * 5 )) i=0
	shift
	while [ $i -lt $max ]; do
		"$@" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# bird_stats SOCK: one line per BGP protocol of a BIRD 2 instance:
#   NAME INFO IMPORTED EXPORTED IMP_UPD_ACC IMP_WD_ACC EXP_UPD_ACC EXP_WD_ACC
# from `birdc show protocols all` (the protocols' own counters, cheap at
# any table size, unlike `show route count`).  INFO is Established,
# Active, Passive, ... (the first word of the Info column, "-" if none).
# With several channels the counters are summed.
bird_stats() {
	birdc -s "$1" show protocols all 2>/dev/null | awk '
	function flush() {
		if (name != "")
			print name, info, im + 0, ex + 0, iu + 0, iw + 0, eu + 0, ew + 0
		name = ""
	}
	/^[A-Za-z0-9_]+ +BGP / {
		flush(); name = $1; info = ($6 == "") ? "-" : $6
		im = ex = iu = iw = eu = ew = 0; next
	}
	/^[A-Za-z0-9_]+ / { flush(); next }
	name != "" && $1 == "Routes:" { im += $2; ex += $4 }
	name != "" && $1 == "Import" && $2 == "updates:" { iu += $NF }
	name != "" && $1 == "Import" && $2 == "withdraws:" { iw += $NF }
	name != "" && $1 == "Export" && $2 == "updates:" { eu += $NF }
	name != "" && $1 == "Export" && $2 == "withdraws:" { ew += $NF }
	END { flush() }'
}

# bird_sum SOCK REGEX: the protocols whose name matches REGEX, summed:
#   ESTABLISHED_COUNT IMPORTED EXPORTED IMP_UPD_ACC IMP_WD_ACC EXP_UPD_ACC EXP_WD_ACC
bird_sum() {
	bird_stats "$1" | awk -v re="^($2)\$" '
	$1 ~ re { if ($2 == "Established") e++
		  for (i = 3; i <= 8; i++) s[i] += $i }
	END { print e + 0, s[3] + 0, s[4] + 0, s[5] + 0, s[6] + 0, s[7] + 0, s[8] + 0 }'
}

# bird_is SOCK REGEX "E I X" : the sum of REGEX's protocols has E
# established sessions, I routes imported and X exported ("*": any).
bird_is() {
	local got want=$3
	got=$(bird_sum "$1" "$2")
	# shellcheck disable=SC2086
	set -- $got
	local we wi wx
	read -r we wi wx <<EOF
$want
EOF
	{ [ "$we" = "*" ] || [ "$we" = "$1" ]; } &&
	{ [ "$wi" = "*" ] || [ "$wi" = "$2" ]; } &&
	{ [ "$wx" = "*" ] || [ "$wx" = "$3" ]; }
}

# start_bird NAME CONF [PORT]: BIRD 2 in the foreground with its own
# control socket ($TMPD/NAME.ctl), pid file and log ($TMPD/NAME.log);
# waits until birdc answers and, PORT given, BIRD listens on it.  Sets
# BIRD_PID and BIRD_SOCK.
start_bird() {
	BIRD_SOCK="$TMPD/$1.ctl"
	start_bg "$TMPD/$1.log" bird -f -c "$2" -s "$BIRD_SOCK" \
	    -P "$TMPD/$1.pid"
	BIRD_PID=$LAST_PID
	wait_until 10 birdc -s "$BIRD_SOCK" show status >/dev/null 2>&1 ||
	    fail "BIRD ($1) did not start"
	[ -z "${3-}" ] || wait_listen "$3" || fail "BIRD ($1) does not listen on $3"
}

# bird_head: the head of a bird.conf: logs to stderr, router id
# 192.0.2.254, the device protocol.
bird_head() {
	cat <<EOT
log stderr { info, remote, warning, error, auth, fatal, bug };
router id 192.0.2.254;
protocol device { }
EOT
}

# report_check FILE PHASE ITEMS: the report's phase PHASE is DONE with
# ITEMS items.
report_check() {
	local got
	got=$(json_get "$1" "[(p['state'], p['items']) for p in r['phases'] if p['name'] == '$2']") ||
	    fail "$1: no report"
	[ "$got" = "[('DONE', $3)]" ] ||
	    fail "$1: phase $2 is $got, want [('DONE', $3)]"
}

# report_ok FILE: the report says ok.
report_ok() {
	[ "$(json_get "$1" 'r["ok"]')" = True ] || fail "$1: not ok"
}

# counter FILE NAME: a counter of the report (0 when absent).
counter() {
	json_get "$1" "r['counters'].get('$2', 0)"
}

# stop_bird PID SOCK: shut a BIRD started by start_bird down (birdc down,
# then SIGTERM, 10 s at most).
stop_bird() {
	birdc -s "$2" down >/dev/null 2>&1 || kill -TERM "$1" 2>/dev/null
	wait_exit "$1" 10 || true
}

# stop_term PID: SIGTERM (for daemons that take SIGINT otherwise), 10 s
# at most, then SIGKILL.
stop_term() {
	kill -TERM "$1" 2>/dev/null
	wait_exit "$1" 10 || true
}

# gobgp_global PORT: GoBGP's [global.config]: AS 65000, listening on
# 127.0.0.1:PORT.
gobgp_global() {
	cat <<EOT
[global.config]
  as = 65000
  router-id = "192.0.2.254"
  port = $1
  local-address-list = ["127.0.0.1"]
EOT
}

# gobgp_afi_safis KIND FAMILY...: one [[KIND.afi-safis]] table per FAMILY
# (KIND: peer-groups or neighbors).
gobgp_afi_safis() {
	local kind=$1 f
	shift
	for f in "$@"; do
		printf '  [[%s.afi-safis]]\n    [%s.afi-safis.config]\n      afi-safi-name = "%s"\n' \
		    "$kind" "$kind" "$f"
	done
}

# gobgp_group NAME AS PREFIX FAMILY...: a passive peer group NAME of AS
# with FAMILYs, and the dynamic neighbors in PREFIX that belong to it.
gobgp_group() {
	local name=$1 as=$2 prefix=$3
	shift 3
	cat <<EOT
[[peer-groups]]
  [peer-groups.config]
    peer-group-name = "$name"
    peer-as = $as
  [peer-groups.transport.config]
    passive-mode = true
EOT
	gobgp_afi_safis peer-groups "$@"
	cat <<EOT
[[dynamic-neighbors]]
  [dynamic-neighbors.config]
    prefix = "$prefix"
    peer-group = "$name"
EOT
}

# start_gobgpd LOG CONF PORT API: gobgpd with the TOML file CONF, run in
# CONF's directory (a relative file name in CONF, an MRT dump's, lands
# beside it), its gRPC API on 127.0.0.1:API; waits until it listens on
# PORT and API.  Sets GOBGPD_PID and GOBGP_API (for gobgp_cli).
start_gobgpd() {
	start_bg "$1" sh -c 'cd "$1" && exec gobgpd -f "$2" -t toml \
	    --api-hosts "127.0.0.1:$3"' sh "$(dirname "$2")" "$(basename "$2")" "$4"
	GOBGPD_PID=$LAST_PID GOBGP_API=$4
	wait_listen "$3" || fail "gobgpd ($1) does not listen on $3"
	wait_listen "$4" || fail "gobgpd's API ($1) is not on $4"
}

# gobgp_cli ARGS...: the gobgp CLI on the API of the last start_gobgpd.
gobgp_cli() {
	gobgp -u 127.0.0.1 -p "$GOBGP_API" "$@"
}

# gobgp_dests FAMILY WHERE...: the destinations of FAMILY that GoBGP holds
# in WHERE ("global rib", "neighbor ADDR adj-out"), from its summary.
gobgp_dests() {
	local fam=$1
	shift
	gobgp_cli "$@" -a "$fam" summary 2>/dev/null |
	    awk '/^Destination:/ { sub(",", "", $2); print $2; exit }'
}

# gobgp_rib FAMILY: the destinations of FAMILY in GoBGP's global RIB.
gobgp_rib() {
	gobgp_dests "$1" global rib
}

# start_gobgp_groups PCAP GROUP...: GoBGP on two free ports (sets PORT,
# its BGP port, and API) with a passive peer group per GROUP ("NAME AS
# PREFIX FAMILY,FAMILY..."), started once its port is captured into PCAP
# (capture_if_root: CAP_PID).  Sets GOBGPD_PID; the config is $TMPD/g.toml.
start_gobgp_groups() {
	local cap=$1 g name as prefix fams
	shift
	PORT=$(free_ports 2)
	API=$((PORT + 1))
	{
		gobgp_global "$PORT"
		for g in "$@"; do
			read -r name as prefix fams <<<"$g"
			# shellcheck disable=SC2086
			gobgp_group "$name" "$as" "$prefix" ${fams//,/ }
		done
	} >"$TMPD/g.toml"
	capture_if_root "$cap" "tcp port $PORT"
	start_gobgpd "$TMPD/gobgpd.log" "$TMPD/g.toml" "$PORT" "$API"
}

# capture_if_root FILE FILTER: with root, dumpcap and tshark, capture
# FILTER on loopback into FILE and set CAP_PID; else CAP_PID is empty.
capture_if_root() {
	CAP_PID=
	if [ "$(id -u)" -eq 0 ] && command -v dumpcap >/dev/null &&
	    command -v tshark >/dev/null; then
		start_capture "$TMPD/dumpcap.log" "$2" "$1"
		CAP_PID=$LAST_PID
	fi
}

# frr_router HOST RANGE [PASSWORD]: the head of a bgpd.conf: router bgp
# 65000 with a peer group SBSIM (AS 65001, eBGP multihop, the TCP-MD5 key
# PASSWORD when given) taking the sessions from RANGE.
frr_router() {
	cat <<EOT
hostname $1
log stdout informational
router bgp 65000
 bgp router-id 192.0.2.254
 no bgp ebgp-requires-policy
 no bgp default ipv4-unicast
 neighbor SBSIM peer-group
 neighbor SBSIM remote-as 65001
 neighbor SBSIM ebgp-multihop 2
EOT
	[ -z "${3-}" ] || echo " neighbor SBSIM password $3"
	echo " bgp listen range $2 peer-group SBSIM"
}

# frr_monitor ADDR [PASSWORD]: a passive eBGP multihop neighbor ADDR of
# AS 65002 (sbsim's monitor).
frr_monitor() {
	cat <<EOT
 neighbor $1 remote-as 65002
 neighbor $1 passive
 neighbor $1 ebgp-multihop 2
EOT
	[ -z "${2-}" ] || echo " neighbor $1 password $2"
}

# frr_family AF NEIGHBOR...: address-family AF with each NEIGHBOR (or
# peer group) activated.
frr_family() {
	local n
	echo " address-family $1"
	shift
	for n in "$@"; do
		echo "  neighbor $n activate"
	done
	echo " exit-address-family"
}

# start_bgpd CONF PORT: FRR's bgpd standalone with CONF, listening on
# 127.0.0.1:PORT, its pid file and vty socket directory in $TMPD; waits
# until it listens.  Sets BGPD_PID.
# -S: no capability checks or user change (the test may run as root or
# not); -Z: no zebra; -l: listen on 127.0.0.1 only (implies -n); -P 0: no
# TCP vty, vtysh talks to the socket in $TMPD/vty.
start_bgpd() {
	mkdir -p "$TMPD/vty"
	start_bg "$TMPD/bgpd.log" "$BGPD" -f "$1" -i "$TMPD/bgpd.pid" \
	    -z "$TMPD/zserv.api" --vty_socket "$TMPD/vty" -Z -S -l 127.0.0.1 \
	    -p "$2" -P 0
	BGPD_PID=$LAST_PID
	wait_listen "$2" || fail "bgpd does not listen on $2"
}

# frr_vty CMD: CMD's output from the bgpd of start_bgpd.
frr_vty() {
	vtysh --vty_socket "$TMPD/vty" -d bgpd -c "$1" 2>/dev/null
}

# frr_sum: "ESTABLISHED RECEIVED MONITOR SENT_TO_MONITOR" of bgpd's IPv4
# unicast sessions: the peers' sessions up and prefixes received from
# them, the monitor's ($MON) session up (1) or not and prefixes FRR sent
# it.
frr_sum() {
	frr_vty 'show bgp ipv4 unicast summary json' |
	"$PY" -c '
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError:
    d = {}
mon = sys.argv[1]
est = rcv = mup = snt = 0
for addr, p in d.get("peers", {}).items():
    up = p.get("state") == "Established"
    if addr == mon:
        mup, snt = int(up), p.get("pfxSnt", 0)
    else:
        est += up
        rcv += p.get("pfxRcd", 0)
print(est, rcv, mup, snt)' "$MON"
}

# bgp_bad_frames CAP PORT [EXCEPT]: stop the capture of capture_if_root;
# fails when Wireshark calls a frame of CAP, port PORT decoded as BGP,
# malformed or in error (but those matching the display filter EXCEPT),
# showing the first, or when tshark fails.  Sets DEC, that -d option, for
# the caller's other tshark runs.
bgp_bad_frames() {
	local y="_ws.malformed || _ws.expert.severity >= error"
	stop_pid "$CAP_PID"
	DEC="-d tcp.port==$2,bgp"
	[ -z "${3-}" ] || y="($y) && !($3)"
	# shellcheck disable=SC2086
	tshark -r "$1" $DEC -Y "$y" -T fields -e frame.number >"$TMPD/bad" \
	    2>"$TMPD/tshark.log" || fail "tshark failed: $(cat "$TMPD/tshark.log")"
	# shellcheck disable=SC2086
	[ ! -s "$TMPD/bad" ] || fail "malformed frames: $(paste -sd, "$TMPD/bad"):
$(tshark -r "$1" $DEC -Y "frame.number == $(head -1 "$TMPD/bad")" -O bgp |
    grep -iE -B3 'malformed|expert|error' | head -30)"
}

# frr_is WANT: frr_sum (left in got) is WANT.
frr_is() {
	got=$(frr_sum)
	[ "$got" = "$1" ]
}

#!/bin/bash
# Wire validation of BGP: capture (dumpcap on lo) sbsim bgp peers and a
# monitor against the embedded controller's speaker, IPv4 and IPv6 runs
# with MED, communities, large communities and ADD-PATH (the peers send
# path ids; the controller offers receive only), announce then withdraw,
# and let Wireshark's BGP dissector decode everything:
#   - not one malformed packet or expert error;
#   - OPENs (from both sides) list the capabilities multiprotocol, route
#     refresh, graceful restart, 4-octet AS and (from the peers) ADD-PATH;
#     UPDATEs and KEEPALIVEs appear, no NOTIFICATION but a Cease;
#   - an End-of-RIB (IPv4: the empty UPDATE; IPv6: an MP_UNREACH_NLRI
#     with AFI/SAFI only) from every peer and from the controller;
#   - the prefixes in the peers' UPDATEs are N*P announced and N*P
#     withdrawn, and so are those the controller re-advertises to the
#     monitor; the peers' routes carry MED, communities, large
#     communities and path ids; no message is longer than 4096 bytes.
# A positive control: a truncated UPDATE sent on another port is flagged.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need tshark
need dumpcap
need ss
[ "$(id -u)" -eq 0 ] || skip "capturing on lo needs root"
N=2
P=1500
NP=$((N * P))
MON=127.1.0.$((N + 1))

# capture AFI PORT BADPORT FILE
capture() {
	local afi=$1 port=$2 bad=$3 cap=$4 dc ctl
	start_capture "$TMPD/dumpcap-$afi.log" \
	    "tcp port $port or tcp port $bad" "$cap"
	dc=$LAST_PID
	start_bg "$TMPD/ctl-$afi.log" "$SBSIM" controller \
	    --bgp "ptcp:$port:127.0.0.1" --as 65000 --bgp-monitor "$MON"
	ctl=$LAST_PID
	wait_listen "$port" || fail "$afi: the controller does not listen"
	timeout 30 "$SBSIM" bgp --peers $N --prefixes $P --afi "$afi" \
	    --as 65001 --peer-as 65000 --controller "tcp:127.0.0.1:$port" \
	    --monitor "tcp:127.0.0.1:$port" --monitor-as 65002 --med 50 \
	    --communities 3 --large-communities 2 --add-path both --withdraw \
	    --hold-time 9 --timeout 20 -q --report "$TMPD/$afi.json" \
	    >"$TMPD/sb-$afi.log" 2>&1 || fail "$afi: sbsim failed"
	report_check "$TMPD/$afi.json" learn $NP
	report_check "$TMPD/$afi.json" withdraw $NP
	# The positive control: a listener and a client that sends a
	# KEEPALIVE and an UPDATE whose path attribute runs past its end.
	"$PY" - "$bad" <<'PYEOF' || fail "$afi: the control failed"
import socket, struct, sys
port = int(sys.argv[1])
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", port))
ls.listen(1)
c = socket.create_connection(("127.0.0.1", port), timeout=5)
s, _ = ls.accept()
m = b"\xff" * 16
c.sendall(m + struct.pack("!HB", 19, 4))
# ORIGIN claiming 40 bytes of value in a 4-byte attribute block
body = struct.pack("!HH", 0, 4) + bytes([0x40, 1, 40, 0])
c.sendall(m + struct.pack("!HB", 19 + len(body), 2) + body)
s.recv(100)
c.close(); s.close(); ls.close()
PYEOF
	stop_pid "$ctl"
	sleep 0.3
	stop_pid "$dc"
	[ -s "$cap" ] || fail "$afi: empty capture"
}

# check AFI PORT BADPORT FILE
check() {
	local afi=$1 port=$2 bad=$3 cap=$4 dec n
	dec="-d tcp.port==$port,bgp -d tcp.port==$bad,bgp"
	# shellcheck disable=SC2086
	tshark -r "$cap" $dec -Y "bgp && tcp.port==$port" -T fields \
	    -E separator=";" -E occurrence=a -E aggregator=, \
	    -e ip.src -e tcp.srcport -e bgp.type -e bgp.length \
	    -e bgp.cap.type -e bgp.cap.ap.sendreceive \
	    -e bgp.nlri_prefix -e bgp.withdrawn_prefix \
	    -e bgp.mp_reach_nlri_ipv6_prefix -e bgp.mp_unreach_nlri_ipv6_prefix \
	    -e bgp.update.path_attribute.multi_exit_disc \
	    -e bgp.update.path_attribute.community_value \
	    -e bgp.large_communities.ldp2 -e bgp.nlri_path_id \
	    -e bgp.update.path_attribute.mp_unreach_nlri \
	    -e bgp.update.path_attribute.mp_reach_nlri \
	    -e bgp.notify.major_error \
	    >"$TMPD/fields-$afi" 2>"$TMPD/tshark-$afi.log" ||
	    fail "$afi: tshark failed: $(cat "$TMPD/tshark-$afi.log")"
	"$PY" - "$TMPD/fields-$afi" "$afi" "$port" "$MON" "$N" "$NP" <<'PYEOF' ||
import sys
path, afi, port, mon, n, np_ = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
errors = []
types = {}
opens = []          # (from controller?, caps, addpath)
eor = {"peers": set(), "ctl": 0}
cnt = {"peer_ann": 0, "peer_wd": 0, "mon_ann": 0, "mon_wd": 0}
attrs = {"med": 0, "comm": 0, "large": 0, "pathid": 0}
maxlen = 0
def split(v):
    return [x for x in v.split(",") if x] if v else []
for line in open(path):
    f = line.rstrip("\n").split(";")
    # a frame may carry several BGP messages: the per-message fields are
    # lists; prefix fields hold every prefix of the frame
    src, sport = f[0], f[1]
    from_ctl = sport == port
    tlist, llist = split(f[2]), [int(x) for x in split(f[3])]
    caps, ap = split(f[4]), split(f[5])
    nlri, wd, r6, u6 = split(f[6]), split(f[7]), split(f[8]), split(f[9])
    med, comm, large, pid = split(f[10]), split(f[11]), split(f[12]), split(f[13])
    unreach, reach = split(f[14]), split(f[15])
    for code in split(f[16]):
        if code != "6":
            errors.append("a NOTIFICATION with error code %s from %s" % (code, src))
    for t, l in zip(tlist, llist):
        types[t] = types.get(t, 0) + 1
        maxlen = max(maxlen, l)
    if "1" in tlist:
        opens.append((from_ctl, src, set(int(c) for c in caps), ap))
    ann = len(nlri) + len(r6)
    wdn = len(wd) + len(u6)
    if from_ctl:
        cnt["mon_ann"] += ann; cnt["mon_wd"] += wdn
    else:
        cnt["peer_ann"] += ann; cnt["peer_wd"] += wdn
        attrs["med"] += len(med); attrs["comm"] += len(comm)
        attrs["large"] += len(large); attrs["pathid"] += len(pid)
    # End-of-RIB: IPv4 an UPDATE of 23 bytes; IPv6 an UPDATE of 29 bytes
    # holding only an MP_UNREACH_NLRI (AFI, SAFI, no prefix)
    for t, l in zip(tlist, llist):
        if t == "2" and ((afi == "ipv4" and l == 23) or
                         (afi == "ipv6" and l == 29 and unreach)):
            if from_ctl:
                eor["ctl"] += 1
            else:
                eor["peers"].add(src)
need = {"1": "OPEN", "2": "UPDATE", "4": "KEEPALIVE"}
for t, name in need.items():
    if t not in types:
        errors.append("no %s" % name)
# A NOTIFICATION may only be a Cease closing a session at the end.
# capabilities: 1 MP, 2 route refresh, 64 graceful restart, 65 AS4, 69 ADD-PATH
peer_opens = [o for o in opens if not o[0] and o[1] != mon]
ctl_opens = [o for o in opens if o[0]]
if len(peer_opens) != n or len(ctl_opens) != n + 1:
    errors.append("OPENs: %d from peers, %d from the controller" % (len(peer_opens), len(ctl_opens)))
for o in peer_opens:
    if not {1, 2, 64, 65, 69} <= o[2]:
        errors.append("peer %s OPEN capabilities %s" % (o[1], sorted(o[2])))
    if "3" not in o[3]:
        errors.append("peer %s ADD-PATH send/receive %s, want 3 (both)" % (o[1], o[3]))
for o in ctl_opens:
    if not {1, 2, 65} <= o[2]:
        errors.append("controller OPEN capabilities %s" % sorted(o[2]))
if len(eor["peers"]) != n:
    errors.append("End-of-RIB from %d peers" % len(eor["peers"]))
if eor["ctl"] < 1:
    errors.append("no End-of-RIB from the controller")
want = {"peer_ann": np_, "peer_wd": np_, "mon_ann": np_, "mon_wd": np_}
if cnt != want:
    errors.append("prefixes %r, want %r" % (cnt, want))
if not (attrs["med"] and attrs["comm"] and attrs["large"]):
    errors.append("attributes missing: %r" % attrs)
if attrs["pathid"] < 2 * np_:
    errors.append("%d path ids, want %d" % (attrs["pathid"], 2 * np_))
if maxlen > 4096:
    errors.append("a message of %d bytes" % maxlen)
if errors:
    sys.exit("; ".join(errors))
print("%s: %d BGP messages %r, prefixes %r, End-of-RIB from %d peers and %d from the controller"
      % (afi, sum(types.values()), types, cnt, len(eor["peers"]), eor["ctl"]))
PYEOF
	    fail "$afi: the decoded session"
	# Not one malformed message or expert error in the sessions, in
	# the fields or in the full decode.
	# shellcheck disable=SC2086
	tshark -r "$cap" $dec -Y "(_ws.malformed || _ws.expert.severity >= error) && tcp.port==$port" \
	    -T fields -e frame.number >"$TMPD/bad-$afi" 2>"$TMPD/tshark-$afi.log" ||
	    fail "$afi: tshark filter failed: $(cat "$TMPD/tshark-$afi.log")"
	[ -s "$TMPD/bad-$afi" ] &&
	    fail "$afi: malformed frames: $(paste -sd, "$TMPD/bad-$afi")"
	# shellcheck disable=SC2086
	tshark -r "$cap" $dec -Y "tcp.port==$port" -V >"$TMPD/full-$afi.txt" 2>&1 ||
	    fail "$afi: tshark -V failed"
	if grep -qE 'Malformed|Expert Info \(Error' "$TMPD/full-$afi.txt"; then
		grep -nE 'Malformed|Expert Info \(Error' "$TMPD/full-$afi.txt" |
		    head -5 >&2
		fail "$afi: the full decode has errors"
	fi
	# The control is flagged.
	# shellcheck disable=SC2086
	n=$(tshark -r "$cap" $dec -Y "(_ws.malformed || _ws.expert.severity >= error) && tcp.port==$bad" \
	    2>/dev/null | wc -l)
	[ "$n" -ge 1 ] || fail "$afi: the truncated UPDATE was not flagged"
	echo "$afi: no malformed packets"
}

# family AFI: capture and check one address family.
family() {
	local base
	base=$(free_ports 2)
	capture "$1" "$base" $((base + 1)) "$TMPD/cap-$1.pcapng"
	check "$1" "$base" $((base + 1)) "$TMPD/cap-$1.pcapng"
}

# Each family is a test file of its own (bgp_tshark_*.sh: one file stays
# under 60 s, docs/design.md "The test budget"); by hand, this file runs
# both.
run_case ipv4 family ipv4
run_case ipv6 family ipv6

#!/bin/bash
# Wire validation: capture sbsim PCCs and the embedded PCE on the loopback
# (dumpcap) and let Wireshark's PCEP dissector decode every message: Open
# with the stateful, path setup type and SR capabilities, Keepalive,
# PCRpt (synchronization, end-of-sync, answers), PCUpd (the PCE updating
# every LSP), PCInitiate creations and removals through RESTCONF, PCErr
# and Close; once with RSVP-TE paths and once with SR paths and
# LSP-DB-VERSION.  Not one malformed packet or expert error may appear.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need tshark
need dumpcap
need curl
need ss
[ "$(id -u)" -eq 0 ] || skip "capturing on lo needs root"

base=$(free_ports 4)
P1=$base P2=$((base + 1)) R1=$((base + 2)) R2=$((base + 3))
cap="$TMPD/pcep.pcapng"
start_capture "$TMPD/dumpcap.log" "tcp port $P1 or tcp port $P2" "$cap"
dc=$LAST_PID

# session KIND PCEP_PORT RESTCONF_PORT SBSIM_OPTIONS...
session() {
	local kind=$1 pp=$2 rp=$3 ctl sim
	shift 3
	start_bg "$TMPD/ctl-$kind.log" "$SBSIM" controller \
	    --pcep ptcp:$pp:127.0.0.1 --restconf 127.0.0.1:$rp \
	    --pcep-update-all 8
	ctl=$LAST_PID
	wait_listen "$pp" && wait_listen "$rp" || fail "$kind: no controller"
	start_bg "$TMPD/pcc-$kind.log" "$SBSIM" pcep --pccs 3 --lsps 20 \
	    --delegate --pce-initiated --expect-initiates 1 \
	    --controller tcp:127.0.0.1:$pp --timeout 20 --duration 5 -q "$@"
	sim=$LAST_PID
	local i=0 body
	body='{"input":{"node":"pcc://127.1.0.1","name":"tshark-1",
	    "arguments":{"endpoints-obj":{"ipv4":{"source-ipv4-address":"127.1.0.1",
	    "destination-ipv4-address":"192.0.2.9"}},
	    "ero":{"subobject":[{"loose":false,"ip-prefix":{"ip-prefix":"192.0.2.9/32"}}]}}}}'
	while [ $i -lt 100 ]; do
		[ "$(curl -s -m 10 -u admin:admin -o "$TMPD/add-$kind" -w '%{http_code}' \
		    -H 'Content-Type: application/json' -d "$body" \
		    "http://127.0.0.1:$rp/rests/operations/network-topology-pcep:add-lsp")" = 204 ] &&
		    break
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 100 ] || fail "$kind: add-lsp: $(cat "$TMPD/add-$kind")"
	# A second session from a PCC's address: the PCE answers its Open
	# with a PCErr and a Close (RFC 5440 section 7.15).
	"$PY" - "$pp" <<'PYEOF' || fail "$kind: second session"
import socket, sys
s = socket.socket()
s.bind(("127.1.0.1", 0))
s.connect(("127.0.0.1", int(sys.argv[1])))
s.settimeout(5)
# The PCE may answer and close before it reads our Open (a reset then):
# the capture shows what it sent.
try:
    s.sendall(bytes.fromhex("2001000c01100008201e7801"))
    while s.recv(4096):
        pass
except OSError:
    pass
PYEOF
	# A removal, and one refused at once (19/9: not PCE-initiated); the
	# run lasts --duration 5 s so that the second still finds sessions
	# (the remove phase ends at the first).
	for nn in 1/tshark-1 2/pcc_127.1.0.2_tunnel_1; do
		curl -s -m 10 -u admin:admin -o /dev/null \
		    -H 'Content-Type: application/json' \
		    -d '{"input":{"node":"pcc://127.1.0.'${nn%%/*}'","name":"'${nn#*/}'"}}' \
		    "http://127.0.0.1:$rp/rests/operations/network-topology-pcep:remove-lsp"
	done
	wait_exit "$sim" 30 || fail "$kind: sbsim pcep did not finish"
	[ "$EXIT_RC" -eq 0 ] || fail "$kind: sbsim pcep exited $EXIT_RC"
	stop_pid "$ctl"
}
session rsvp $P1 $R1
session sr $P2 $R2 --sr --db-version --per-report 3
sleep 0.5
stop_pid "$dc"

dec="-d tcp.port==$P1,pcep -d tcp.port==$P2,pcep"
tshark_clean "$cap" $dec
# Every kind of message decoded, SR-ERO subobjects among them.
tshark -r "$cap" $dec -T fields -e pcep.msg -Y pcep 2>/dev/null |
    tr ',' '\n' | sort | uniq -c >"$TMPD/types"
# 1 Open, 2 Keepalive, 6 PCErr, 7 Close, 10 PCRpt, 11 PCUpd, 12 PCInitiate
for t in 1 2 6 7 10 11 12; do
	awk -v t=$t '$2 == t { f = 1 } END { exit !f }' "$TMPD/types" ||
	    fail "no message of type $t decoded: $(cat "$TMPD/types")"
done
n=$(tshark -r "$cap" $dec -Y 'pcep.subobj.sr.sid' 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || fail "no SR-ERO subobject decoded"
exit 0

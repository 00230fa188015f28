#!/bin/bash
# Interop: FRR's pathd (its PCEP PCC, pathd_pcep module) against the
# embedded stateful PCE.  pathd cannot run alone: it blocks connecting to
# zebra's label manager, so a zebra (no kernel MPLS needed) runs beside it,
# both as user frr on sockets in the test's directory.  pathd reports its
# SR policy's candidate path (SR-ERO of two MPLS labels, PATH-SETUP-TYPE 1)
# and its end-of-sync; the PCE shows it in pcep-topology as OpenDaylight
# would; an add-lsp through RESTCONF (PCInitiate) gets its answer from
# pathd, whichever it is (a PCRpt, or a PCErr in the RPC's output).
# With MD5KEY set (pcep_frr_pathd_md5.sh) the session runs over TCP-MD5
# (RFC 2385): pathd's "tcp-md5-auth" and --pcep-md5-password.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
FRR=/usr/lib/frr
[ -x $FRR/pathd ] && [ -x $FRR/zebra ] || skip "FRR's pathd or zebra is not installed"
ls /usr/lib/*/frr/modules/pathd_pcep.so >/dev/null 2>&1 ||
    skip "FRR's pathd_pcep module is not installed"
[ "$(id -u)" -eq 0 ] || skip "pathd and zebra drop privileges to frr: needs root"
id frr >/dev/null 2>&1 || skip "there is no frr user"
D="$TMPD/frr"
mkdir -p "$D"
chmod 777 "$TMPD" "$D"

base=$(free_ports 2)
PP=$base RP=$((base + 1))
cat >"$D/pathd.conf" <<CONF
segment-routing
 traffic-eng
  segment-list SL1
   index 10 mpls label 16010
   index 20 mpls label 16020
  exit
  policy color 1 endpoint 192.0.2.1
   name p1
   binding-sid 4000
   candidate-path preference 100 name CP1 explicit segment-list SL1
  exit
  pcep
   pce-config G1
    source-address ip 127.4.0.1
   exit
   pce PCE1
    config G1
    address ip 127.0.0.1 port $PP${MD5KEY:+
    tcp-md5-auth $MD5KEY}
    pce-initiated
   exit
   pcc
    peer PCE1 precedence 10
   exit
  exit
 exit
exit
CONF
: >"$D/zebra.conf"
chmod 644 "$D"/*.conf
frr_opts="-u frr -g frr --vty_socket $D -z $D/zserv.api -A 127.0.0.1 -P 0 --log stdout"

start_bg "$TMPD/zebra.log" $FRR/zebra $frr_opts -i "$D/zebra.pid" \
    -f "$D/zebra.conf"
zebra=$LAST_PID
i=0
while [ ! -S "$D/zserv.api" ] && [ $i -lt 100 ]; do
	kill -0 "$zebra" 2>/dev/null || break
	sleep 0.1
	i=$((i + 1))
done
[ -S "$D/zserv.api" ] || skip "zebra does not start here: $(tail -3 "$TMPD/zebra.log")"

start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1 \
    --restconf 127.0.0.1:$RP --pcep-timeout 5 -v \
    ${MD5KEY:+--pcep-md5-password "$MD5KEY"}
ctl=$LAST_PID
wait_listen "$PP" && wait_listen "$RP" || fail "controller did not listen"
start_bg "$TMPD/pathd.log" $FRR/pathd -M pathd_pcep $frr_opts \
    -i "$D/pathd.pid" -f "$D/pathd.conf"
pathd=$LAST_PID

TOPO="http://127.0.0.1:$RP/rests/data/network-topology:network-topology/topology=pcep-topology"
i=0
while [ $i -lt 150 ]; do
	curl -s -m 5 -u admin:admin "$TOPO" >"$TMPD/topo.json"
	grep -q '"state-sync":"synchronized"' "$TMPD/topo.json" &&
	    grep -q '"name":"p1-CP1"' "$TMPD/topo.json" && break
	sleep 0.1
	i=$((i + 1))
done
[ $i -lt 150 ] || fail "pathd's LSP not in pcep-topology: $(cat "$TMPD/topo.json")"
"$PY" - "$TMPD/topo.json" <<'PYEOF' || fail "pathd's LSP in pcep-topology"
import json, sys
t = json.load(open(sys.argv[1]))["network-topology:topology"][0]
n = [x for x in t["node"] if x["node-id"] == "pcc://127.4.0.1"]
if not n:
    sys.exit("no node pcc://127.4.0.1")
pcc = n[0]["network-topology-pcep:path-computation-client"]
lsp = [r for r in pcc["reported-lsp"] if r["name"] == "p1-CP1"][0]["path"][0]
if lsp["path-setup-type"]["pst"] != 1:
    sys.exit("pst %r" % lsp["path-setup-type"])
sids = [s.get("odl-pcep-segment-routing:sid") for s in lsp["ero"]["subobject"]]
if sids != [16010, 16020]:
    sys.exit("SIDs %r" % sids)
PYEOF

# PCInitiate to pathd: answered either way within the RPC's time.
code=$(curl -s -m 20 -u admin:admin -o "$TMPD/add.json" -w '%{http_code}' \
    -H 'Content-Type: application/json' -d '{"input":{
    "node":"pcc://127.4.0.1","name":"from-sbsim",
    "arguments":{"path-setup-type":{"pst":1},
    "endpoints-obj":{"ipv4":{"source-ipv4-address":"127.4.0.1",
    "destination-ipv4-address":"192.0.2.1"}},
    "ero":{"subobject":[{"loose":false,"sid":16030,"m-flag":true}]}}}}' \
    "http://127.0.0.1:$RP/rests/operations/network-topology-pcep:add-lsp")
echo "add-lsp to pathd: HTTP $code $(cat "$TMPD/add.json")"
[ "$code" = 204 ] || [ "$code" = 200 ] || [ "$code" = 500 ] ||
    fail "add-lsp: HTTP $code"

kill -0 "$pathd" 2>/dev/null || fail "pathd died"
stop_pid "$ctl"
grep -q "pcep: 1 sessions, 1 PCCs synchronized" "$TMPD/ctl.log" ||
    fail "controller summary: $(grep pcep: "$TMPD/ctl.log")"
grep -q "0 bad messages" "$TMPD/ctl.log" || fail "bad messages from pathd"
stop_pid "$pathd"
stop_pid "$zebra"
exit 0

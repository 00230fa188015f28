#!/bin/bash
# OpenDaylight's CSIT pcepuser and pcep_session_state suites, replayed
# against the embedded controller with an sbsim PCC in pcc-mock's place:
# the same requests (the XML update-lsp, add-lsp and remove-lsp bodies,
# JSON answers), the same checks (status codes, the normalized
# pcep-topology compared whole at each step, the refused removal's exact
# output, pcep-session-state beside the path-computation-client).
#
# Where the device differs from pcc-mock the expected data follow the
# device, never the controller: sbsim's PCC sets the P flag on its LSP and
# ERO objects (processing-rule true), sends the PATH-SETUP-TYPE TLV
# (path-setup-type), clears the S flag after synchronization (RFC 8231
# section 7.3: sync false on later reports) and numbers LSP-IDs per LSP.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need curl
need ss

IP=127.1.0.1
ports=$(free_ports 2)
PP=$ports RP=$((ports + 1))
TOPO="http://127.0.0.1:$RP/rests/data/network-topology:network-topology/topology=pcep-topology?content=nonconfig"
OPS="http://127.0.0.1:$RP/rests/operations/network-topology-pcep"

# compare STEP WHAT: the topology (with WHAT: off, default, updated,
# updated_default, updated_updated) as Compare_Topology does it: 200 and
# the normalized JSON equal; up to 5 s.
compare() {
	local i=0
	while [ $i -lt 50 ]; do
		curl -s -m 5 -u admin:admin -o "$TMPD/topo.json" "$TOPO" &&
		    "$PY" "$TMPD/expect.py" "$2" "$TMPD/topo.json" "$IP" \
		    >"$TMPD/diff" 2>&1 && return 0
		sleep 0.1
		i=$((i + 1))
	done
	fail "$1: the topology is not $2: $(cat "$TMPD/diff")"
}

# operation NAME XML: POST it as PcepOperations does (XML in, JSON out);
# the status on stdout, the body in $TMPD/out.
operation() {
	curl -s -m 20 -u admin:admin -o "$TMPD/out" -w '%{http_code}' \
	    -H 'Content-Type: application/xml' -H 'Accept: application/json' \
	    --data-binary "$2" "$OPS:$1"
}

# xml_input NAME [HOPS...] [ENDPOINTS]: an operation's input as
# pcepuser's variables build it.
xml_input() {
	local name=$1 hops="" h
	shift
	for h in "$@"; do
		[ "$h" = endpoints ] && continue
		hops="$hops<subobject><loose>false</loose><ip-prefix><ip-prefix>$h/32</ip-prefix></ip-prefix></subobject>"
	done
	printf '<input xmlns="urn:opendaylight:params:xml:ns:yang:topology:pcep">'
	printf '<node>pcc://%s</node><name>%s</name>' "$IP" "$name"
	printf '<network-topology-ref xmlns:topo="urn:TBD:params:xml:ns:yang:network-topology">/topo:network-topology/topo:topology[topo:topology-id="pcep-topology"]</network-topology-ref>'
	if [ -n "$hops" ]; then
		printf '<arguments><lsp xmlns="urn:opendaylight:params:xml:ns:yang:pcep:ietf:stateful"><delegate>true</delegate><administrative>true</administrative></lsp>'
		case " $* " in *" endpoints "*)
			printf '<endpoints-obj><ipv4><source-ipv4-address>%s</source-ipv4-address><destination-ipv4-address>1.1.1.1</destination-ipv4-address></ipv4></endpoints-obj>' "$IP" ;;
		esac
		printf '<ero>%s</ero></arguments>' "$hops"
	fi
	printf '</input>'
}

cat >"$TMPD/expect.py" <<'PYEOF'
# expect.py WHAT FILE IP: the topology in FILE is the one CSIT expects.
import base64, json, sys

what, path, ip = sys.argv[1:4]
VOLATILE = ("session-duration", "odl-pcep-stateful-stats:"
            "last-received-rpt-msg-timestamp")

def hops(updated):
    h = [{"ip-prefix": {"ip-prefix": "1.1.1.1/32"}, "loose": False}]
    if updated:
        h.insert(0, {"ip-prefix": {"ip-prefix": "2.2.2.2/32"},
                     "loose": False})
    return h

def lsp(name, plsp, created, updated, sync):
    code = base64.b64encode(name.encode()).decode()
    return {"name": name, "path": [{
        "ero": {"ignore": False, "processing-rule": True,
                "subobject": hops(updated)},
        "lsp-id": 2 if updated else 1,
        "path-setup-type": {"pst": 0},
        "odl-pcep-ietf-stateful:lsp": {
            "administrative": True, "delegate": True, "ignore": False,
            "odl-pcep-ietf-initiated:create": created,
            "operational": "up", "plsp-id": plsp,
            "processing-rule": True, "remove": False, "sync": sync,
            "tlvs": {
                "lsp-identifiers": {
                    "ipv4": {"ipv4-extended-tunnel-id": ip,
                             "ipv4-tunnel-endpoint-address": "1.1.1.1",
                             "ipv4-tunnel-sender-address": ip},
                    "lsp-id": 2 if updated else 1, "tunnel-id": plsp},
                "symbolic-path-name": {"path-name": code}}}}]}

def topology(lsps):
    t = {"topology-id": "pcep-topology",
         "topology-types": {"network-topology-pcep:topology-pcep": {}}}
    if lsps is not None:
        t["node"] = [{"node-id": "pcc://" + ip,
            "network-topology-pcep:path-computation-client": {
                "ip-address": ip, "reported-lsp": lsps,
                "state-sync": "synchronized",
                "stateful-tlv": {"odl-pcep-ietf-stateful:stateful": {
                    "lsp-update-capability": True,
                    "odl-pcep-ietf-initiated:initiation": True}}}}]
    return {"network-topology:topology": [t]}

delegated = "pcc_%s_tunnel_1" % ip
inst = "Instantiated tunnel"
want = {
    "off": topology(None),
    "default": topology([lsp(delegated, 1, False, False, True)]),
    "updated": topology([lsp(delegated, 1, False, True, False)]),
    "updated_default": topology([lsp(delegated, 1, False, True, False),
                                 lsp(inst, 2, True, False, False)]),
    "updated_updated": topology([lsp(delegated, 1, False, True, False),
                                 lsp(inst, 2, True, True, False)]),
}[what]

def strip(v):
    """The session state checked on its own; the volatile leaves out."""
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in VOLATILE and
                k != "network-pcep-topology-stats:pcep-session-state"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v

got = json.load(open(path))
if strip(got) != want:
    print(json.dumps(strip(got), sort_keys=True))
    sys.exit(1)
PYEOF

csit_capture "tcp port $PP or tcp port $RP"
start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1 \
    --restconf 127.0.0.1:$RP
ctl=$LAST_PID
wait_listen "$PP" && wait_listen "$RP" || fail "the controller did not listen"

# Topology_Precondition.
compare Topology_Precondition off

# Start_Pcc_Mock: one PCC, one delegated LSP with the single hop 1.1.1.1.
start_bg "$TMPD/pcc.log" "$SBSIM" pcep --pccs 1 --lsps 1 --delegate \
    --pce-initiated --hops 1 --endpoint 1.1.1.1 \
    --controller tcp:127.0.0.1:$PP --duration 30 -q
pcc=$LAST_PID
compare Topology_Default default

# pcep_session_state's Topology_Default: the session state as its
# default_on_state template has it (session-id and times volatile).
curl -s -u admin:admin -o "$TMPD/topo.json" "$TOPO"
"$PY" - "$TMPD/topo.json" "$IP" <<'PYEOF' || fail "pcep-session-state"
import json, sys
ip = sys.argv[2]
node = json.load(open(sys.argv[1]))["network-topology:topology"][0]["node"][0]
s = node["network-pcep-topology-stats:pcep-session-state"]
m = s["messages"]
ST = "odl-pcep-stateful-stats:"
want = {
    "delegated-lsps-count": 1, "synchronized": True,
    "peer-capabilities": {ST + "active": True, ST + "instantiation": True,
                          ST + "stateful": True},
}
for k, v in want.items():
    assert s[k] == v, (k, s[k])
for side, addr in (("local-pref", "127.0.0.1"), ("peer-pref", ip)):
    p = s[side]
    assert (p["keepalive"], p["deadtimer"], p["ip-address"]) == \
        (30, 120, addr), (side, p)
    assert isinstance(p["session-id"], int)
assert m["received-msg-count"] == 2 and m[ST + "received-rpt-msg-count"] == 2
assert m["sent-msg-count"] == 0 and m["last-sent-msg-timestamp"] == 0
assert m[ST + "sent-upd-msg-count"] == 0 and m[ST + "sent-init-msg-count"] == 0
assert m["unknown-msg-received"] == 0
assert m["error-messages"] == {"received-error-msg-count": 0,
                               "sent-error-msg-count": 0}, m
assert m["reply-time"] == {"average-time": 0, "max-time": 0, "min-time": 0}
assert m[ST + "last-received-rpt-msg-timestamp"] > 1500000000
d, h, mi, se = (int(x) for x in s["session-duration"].split(":"))
assert d == 0 and h == 0 and 0 <= mi * 60 + se < 60, s["session-duration"]
PYEOF

# The session state by itself, where network-pcep-topology-stats puts it
# (an augment of the node: .../node=pcc%3A%2F%2FIP/pcep-session-state, with
# or without its module), and one level too deep, under the
# path-computation-client, a 404 that says where it is.
NODE="http://127.0.0.1:$RP/rests/data/network-topology:network-topology/topology=pcep-topology/node=pcc%3A%2F%2F$IP"
for p in pcep-session-state network-pcep-topology-stats:pcep-session-state; do
	code=$(curl -s -u admin:admin -o "$TMPD/st.json" -w '%{http_code}' \
	    "$NODE/$p?content=nonconfig")
	[ "$code" = 200 ] && grep -q '"delegated-lsps-count":1' "$TMPD/st.json" ||
	    fail "GET .../$p: $code $(head -c 300 "$TMPD/st.json")"
done
code=$(curl -s -u admin:admin -o "$TMPD/st.json" -w '%{http_code}' \
    "$NODE/network-topology-pcep:path-computation-client/pcep-session-state?content=nonconfig")
[ "$code" = 404 ] && grep -q "under node 'pcc://$IP', beside path-computation-client" \
    "$TMPD/st.json" ||
    fail "pcep-session-state under path-computation-client: $code $(cat "$TMPD/st.json")"

# Update_Delegated, Topology_Updated.
code=$(operation update-lsp "$(xml_input "pcc_${IP}_tunnel_1" 2.2.2.2 1.1.1.1)")
[ "$code" = 204 ] && [ ! -s "$TMPD/out" ] ||
    fail "Update_Delegated: $code $(cat "$TMPD/out")"
compare Topology_Updated updated

# Refuse_Remove_Delegated: Pcep_Json_Is_Refused's body, normalized.
code=$(operation remove-lsp "$(xml_input "pcc_${IP}_tunnel_1")")
[ "$code" = 200 ] || fail "Refuse_Remove_Delegated: $code"
"$PY" -c 'import json, sys
want = {"network-topology-pcep:output": {"error": [{"error-object": {
    "ignore": False, "processing-rule": False, "type": 19, "value": 9}}],
    "failure": "failed"}}
sys.exit(json.load(open(sys.argv[1])) != want)' "$TMPD/out" ||
    fail "Refuse_Remove_Delegated: $(cat "$TMPD/out")"
compare Topology_Still_Updated updated

# Add_Instantiated, Topology_Second_Default.
code=$(operation add-lsp "$(xml_input "Instantiated tunnel" 1.1.1.1 endpoints)")
[ "$code" = 204 ] || fail "Add_Instantiated: $code $(cat "$TMPD/out")"
compare Topology_Second_Default updated_default

# Update_Instantiated, Topology_Second_Updated.
code=$(operation update-lsp "$(xml_input "Instantiated tunnel" 2.2.2.2 1.1.1.1)")
[ "$code" = 204 ] || fail "Update_Instantiated: $code $(cat "$TMPD/out")"
compare Topology_Second_Updated updated_updated

# The session state counted what was sent: two PCUpds, one PCInitiate.
curl -s -u admin:admin -o "$TMPD/state.json" \
    "http://127.0.0.1:$RP/rests/data/network-topology:network-topology/topology=pcep-topology/node=pcc%3A%2F%2F$IP/pcep-session-state?content=nonconfig"
"$PY" -c 'import json, sys
m = json.load(open(sys.argv[1]))["network-pcep-topology-stats:pcep-session-state"]["messages"]
ST = "odl-pcep-stateful-stats:"
sys.exit(not (m[ST + "sent-upd-msg-count"] == 2 and
    m[ST + "sent-init-msg-count"] == 1 and m["sent-msg-count"] == 3 and
    m["last-sent-msg-timestamp"] > 1500000000))' "$TMPD/state.json" ||
    fail "pcep-session-state after the operations: $(cat "$TMPD/state.json")"

# Remove_Instantiated, Topology_Again_Updated.
code=$(operation remove-lsp "$(xml_input "Instantiated tunnel")")
[ "$code" = 204 ] || fail "Remove_Instantiated: $code $(cat "$TMPD/out")"
compare Topology_Again_Updated updated

# Stop_Pcc_Mock, Topology_Postcondition.
stop_pid "$pcc"
compare Topology_Postcondition off
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "the controller exited $STOP_RC"
# Every PCEP message and RESTCONF exchange of the replay, decoded.
csit_decoded pcep -d "tcp.port==$PP,pcep" -d "tcp.port==$RP,http"
echo "pcepuser and pcep_session_state replayed"

#!/bin/bash
# sbsim PCCs against the embedded controller's stateful PCE: N PCCs x M
# delegated LSPs synchronized, every LSP updated by the PCE itself
# (--pcep-update-all), LSPs initiated and removed through OpenDaylight's
# RESTCONF operations (add-lsp, remove-lsp, update-lsp) with curl, the
# pcep-topology counted in both URL styles, the RPCs' error replies, the
# JSON report's phases and the controller's summary line.  A second run
# does the same with SR paths (RFC 8664), LSP-DB-VERSION (RFC 8232) and
# several LSPs per PCRpt.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
N=5		# PCCs
M=40		# LSPs per PCC
K=3		# LSPs initiated (and removed) through RESTCONF

# rc METHOD PATH [BODY]: a RESTCONF request; the body in $TMPD/out, the
# HTTP status on stdout.
rc() {
	local m=$1 path=$2 body=${3:-}
	if [ -n "$body" ]; then
		curl -s -m 20 -u admin:admin -X "$m" -o "$TMPD/out" \
		    -w '%{http_code}' -H 'Content-Type: application/json' \
		    -d "$body" "http://127.0.0.1:$RP$path"
	else
		curl -s -m 20 -u admin:admin -X "$m" -o "$TMPD/out" \
		    -w '%{http_code}' "http://127.0.0.1:$RP$path"
	fi
}

TOPO=/rests/data/network-topology:network-topology/topology=pcep-topology
DRAFT=/restconf/operational/network-topology:network-topology/topology/pcep-topology
OPS=/rests/operations/network-topology-pcep

# lsp_count STYLE_PATH: "nodes lsps synchronized delegated" of the topology.
lsp_count() {
	[ "$(rc GET "$1")" = 200 ] || { echo "0 0 0 0"; return; }
	"$PY" - "$TMPD/out" <<'PYEOF'
import json, sys
t = json.load(open(sys.argv[1]))["network-topology:topology"][0]
nodes = t.get("node", [])
lsps = sync = dele = 0
for n in nodes:
    pcc = n["network-topology-pcep:path-computation-client"]
    sync += pcc["state-sync"] == "synchronized"
    for r in pcc.get("reported-lsp", []):
        lsps += 1
        l = r["path"][0]["odl-pcep-ietf-stateful:lsp"]
        dele += l["delegate"] is True
print(len(nodes), lsps, sync, dele)
PYEOF
}

# wait_count PATH WANT [PID]: poll (15 s by the clock at most) until
# lsp_count says WANT; 1 when it never did, 2 as soon as PID (a run whose
# end empties the topology) has ended.
wait_count() {
	local end=$((SECONDS + 15)) got
	while :; do
		got=$(lsp_count "$1")
		[ "$got" = "$2" ] && return 0
		[ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null && return 2
		[ $SECONDS -lt $end ] || break
		sleep 0.1
	done
	echo "topology: '$got', want '$2'" >&2
	return 1
}

# op NAME BODY WANT_STATUS: one RPC.
op() {
	local got
	got=$(rc POST "$OPS:$1" "$2")
	[ "$got" = "$3" ] || fail "$1: HTTP $got, want $3: $(cat "$TMPD/out")"
}

run_basic() {
	local pp ctl sim total=$((N * M)) i addr
	pp=$(free_ports 2)
	PP=$pp RP=$((pp + 1))
	start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1 \
	    --restconf 127.0.0.1:$RP --pcep-update-all 16 --pcep-timeout 10
	ctl=$LAST_PID
	wait_listen "$PP" && wait_listen "$RP" || fail "controller did not listen"
	start_bg "$TMPD/pcc.log" "$SBSIM" pcep --pccs $N --lsps $M --delegate \
	    --pce-initiated --expect-initiates $K --controller tcp:127.0.0.1:$PP \
	    --report "$TMPD/r.json" --junit "$TMPD/r.xml" --timeout 20 -q
	sim=$LAST_PID

	# Learned and synchronized, in both URL styles.
	wait_count "$TOPO" "$N $total $N $total" || fail "pcep-topology (RFC 8040)"
	wait_count "$DRAFT" "$N $total $N $total" || fail "pcep-topology (draft)"
	[ "$(rc GET "$TOPO/node=pcc%3A%2F%2F127.1.0.1")" = 200 ] ||
	    fail "GET one node"
	grep -q '"node-id":"pcc://127.1.0.1"' "$TMPD/out" || fail "node-id"
	[ "$(rc GET "$TOPO/node=pcc%3A%2F%2F127.9.9.9")" = 404 ] ||
	    fail "an unknown node is not 404"
	[ "$(rc GET "/rests/data/network-topology:network-topology/topology=other")" = 404 ] ||
	    fail "another topology is not 404"

	# Every LSP updated by the PCE: the ERO's first hop moved.
	i=0
	while [ $i -lt 50 ]; do
		[ "$(rc GET "$TOPO")" = 200 ] &&
		    [ "$(grep -o '"ip-prefix":"10\.1\.128\.' "$TMPD/out" |
		    wc -l)" -eq "$total" ] && break
		sleep 0.2
		i=$((i + 1))
	done
	[ $i -lt 50 ] || fail "not every LSP shows its updated path"

	# RPCs: initiate K LSPs, update one, remove them; the errors.
	for i in $(seq 1 $K); do
		addr=127.1.0.$i
		op add-lsp '{"input":{"node":"pcc://'$addr'","name":"nb-lsp-'$i'",
		    "network-topology-ref":"/network-topology:network-topology/network-topology:topology[network-topology:topology-id=\"pcep-topology\"]",
		    "arguments":{"lsp":{"delegate":true,"administrative":true},
		    "endpoints-obj":{"ipv4":{"source-ipv4-address":"'$addr'",
		    "destination-ipv4-address":"192.0.2.77"}},
		    "ero":{"subobject":[{"loose":false,"ip-prefix":{"ip-prefix":"10.77.0.1/32"}},
		    {"loose":false,"ip-prefix":{"ip-prefix":"192.0.2.77/32"}}]}}}}' 204
		[ ! -s "$TMPD/out" ] || fail "add-lsp output: $(cat "$TMPD/out")"
	done
	wait_count "$TOPO" "$N $((total + K)) $N $((total + K))" ||
	    fail "initiated LSPs not in the topology"
	[ "$(rc GET "$TOPO/node=pcc%3A%2F%2F127.1.0.1/network-topology-pcep:path-computation-client/reported-lsp=nb-lsp-1")" = 200 ] ||
	    fail "GET one reported LSP"
	grep -q '"odl-pcep-ietf-initiated:create":true' "$TMPD/out" || fail "initiated LSP without create"
	op update-lsp '{"input":{"node":"pcc://127.1.0.2","name":"nb-lsp-2",
	    "arguments":{"lsp":{"delegate":true,"administrative":true},
	    "ero":{"subobject":[{"loose":false,"ip-prefix":{"ip-prefix":"10.88.0.1/32"}}]}}}}' 204
	# The draft URL answers as ODL's bierman-02 RESTCONF did, as
	# pcep_updater's classify() wants it: 200 and {"output":{}}.
	[ "$(rc POST /restconf/operations/network-topology-pcep:update-lsp \
	    '{"input":{"node":"pcc://127.1.0.2","name":"nb-lsp-2",
	    "arguments":{"lsp":{"delegate":true,"administrative":true},
	    "ero":{"subobject":[{"loose":false,"ip-prefix":{"ip-prefix":"10.88.0.2/32"}}]}}}}')" = 200 ] &&
	    [ "$(cat "$TMPD/out")" = '{"output":{}}' ] ||
	    fail "draft update-lsp: $(cat "$TMPD/out")"
	# XML in, JSON out, as pcepuser's PcepOperations posts it.
	[ "$(curl -s -m 20 -u admin:admin -X POST -o "$TMPD/out" \
	    -w '%{http_code}' -H 'Content-Type: application/xml' \
	    -H 'Accept: application/json' -d '<input xmlns="urn:opendaylight:params:xml:ns:yang:topology:pcep"><node>pcc://127.1.0.2</node><name>nb-lsp-2</name><arguments><lsp xmlns="urn:opendaylight:params:xml:ns:yang:pcep:ietf:stateful"><delegate>true</delegate><administrative>true</administrative></lsp><ero><subobject><loose>false</loose><ip-prefix><ip-prefix>10.88.0.3/32</ip-prefix></ip-prefix></subobject></ero></arguments></input>' \
	    "http://127.0.0.1:$RP$OPS:update-lsp")" = 204 ] ||
	    fail "XML update-lsp: $(cat "$TMPD/out")"
	op add-lsp '{"input":{"node":"pcc://127.1.0.1","name":"nb-lsp-1",
	    "arguments":{"ero":{"subobject":[{"loose":false,"ip-prefix":{"ip-prefix":"10.77.0.1/32"}}]}}}}' 409
	grep -q '"error-tag":"data-exists"' "$TMPD/out" || fail "data-exists"
	op update-lsp '{"input":{"node":"pcc://127.200.0.1","name":"x"}}' 409
	grep -q '"error-tag":"data-missing"' "$TMPD/out" || fail "unknown node"
	op update-lsp '{"input":{"node":"pcc://127.1.0.1","name":"nope"}}' 409
	op update-lsp '{"input":' 400
	# An LSP the PCC set up cannot be removed: refused at once with
	# 19/9 in ODL's operation-result shape (pcepuser's
	# Pcep_Json_Is_Refused), the PCC never asked.
	op remove-lsp '{"input":{"node":"pcc://127.1.0.1","name":"pcc_127.1.0.1_tunnel_1"}}' 200
	"$PY" -c 'import json, sys
got = json.load(open(sys.argv[1]))
want = {"network-topology-pcep:output": {"failure": "failed", "error": [
    {"error-object": {"ignore": False, "processing-rule": False,
                      "type": 19, "value": 9}}]}}
sys.exit(got != want)' "$TMPD/out" ||
	    fail "remove of a PCC LSP: $(cat "$TMPD/out")"
	for i in $(seq 1 $K); do
		op remove-lsp '{"input":{"node":"pcc://127.1.0.'$i'","name":"nb-lsp-'$i'"}}' 204
	done
	# The PCCs' run ends once the last removal is answered, and the
	# topology empties with it: only a run still going must show them
	# gone (the report's remove phase says so either way).
	wait_count "$TOPO" "$N $total $N $total" "$sim"
	[ $? -ne 1 ] || fail "removed LSPs still there"

	wait_exit "$sim" 30 || fail "sbsim pcep did not finish"
	[ "$EXIT_RC" -eq 0 ] || fail "sbsim pcep exited $EXIT_RC"
	"$PY" - "$TMPD/r.json" "$N" "$total" "$K" <<'PYEOF' || fail "JSON report"
import json, sys
r = json.load(open(sys.argv[1]))
n, total, k = (int(a) for a in sys.argv[2:5])
if r.get("ok") is not True:
    sys.exit("ok is %r" % r.get("ok"))
ph = {p["name"]: p for p in r["phases"]}
want = {"connect": n, "sync": total, "update": total, "initiate": k,
        "remove": k}
for name, items in want.items():
    p = ph.get(name)
    if p is None or p["protocol"] != "pcep" or p["state"] != "DONE" or \
       p["items"] != items:
        sys.exit("%s: %r, want DONE %d" % (name, p, items))
if ph["update"]["latency_us"]["max"] <= 0:
    sys.exit("no update latency")
c = r["counters"]
if c["lsps_reported"] < total * 2 or c["pcupd_received"] != total + 3:
    sys.exit("counters %r" % c)
for z in ("malformed_messages", "unexpected_messages", "sessions_lost"):
    if c[z] != 0:
        sys.exit("%s = %d" % (z, c[z]))
if c["pcerr_sent"] != 0:
    sys.exit("pcerr_sent = %d: the PCE refuses the remove itself" %
             c["pcerr_sent"])
PYEOF
	grep -q 'testcase' "$TMPD/r.xml" || fail "JUnit report"
	stop_pid "$ctl"
	[ "$STOP_RC" -eq 0 ] || fail "controller exited $STOP_RC"
	grep -q "pcep: $N sessions, $N PCCs synchronized, .* $((total + K)) LSPs learned" \
	    "$TMPD/ctl.log" || fail "controller summary: $(grep pcep: "$TMPD/ctl.log")"
	grep -q "$((total + 3)) PCUpds sent, $total acked" "$TMPD/ctl.log" ||
	    fail "controller update counts: $(grep pcep: "$TMPD/ctl.log")"
}

# SR paths, LSP-DB-VERSION, 4 LSPs per PCRpt, XML from the topology.
run_sr() {
	local pp ctl total=$((2 * 100))
	pp=$(free_ports 2)
	PP=$pp RP=$((pp + 1))
	start_bg "$TMPD/ctl-sr.log" "$SBSIM" controller \
	    --pcep ptcp:$PP:127.0.0.1 --restconf 127.0.0.1:$RP \
	    --pcep-update-all 4
	ctl=$LAST_PID
	wait_listen "$PP" && wait_listen "$RP" || fail "sr: controller did not listen"
	# 5 s: the topology, emptied at the run's end, is read meanwhile
	# (2 s were not always enough on a loaded host).
	timeout 60 "$SBSIM" pcep --pccs 2 --lsps 100 --delegate --sr \
	    --db-version --per-report 4 --hops 5 --controller tcp:127.0.0.1:$PP \
	    --report "$TMPD/sr.json" --duration 5 --timeout 20 -q \
	    >"$TMPD/pcc-sr.log" 2>&1 &
	PIDS="$PIDS $!"
	local sim=$!
	wait_count "$TOPO" "2 $total 2 $total" || fail "sr: topology"
	grep -q '"odl-pcep-segment-routing:m-flag":true' "$TMPD/out" ||
	    fail "sr: no SR subobjects"
	grep -q '"pst":1' "$TMPD/out" || fail "sr: path setup type"
	grep -q '"lsp-db-version-value":' "$TMPD/out" || fail "sr: db version"
	curl -s -m 10 -u admin:admin -H 'Accept: application/yang-data+xml' \
	    "http://127.0.0.1:$RP$TOPO" >"$TMPD/topo.xml"
	"$PY" -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' \
	    "$TMPD/topo.xml" || fail "sr: the XML topology does not parse"
	wait_exit "$sim" 30 || fail "sr: sbsim pcep did not finish"
	[ "$EXIT_RC" -eq 0 ] || fail "sr: sbsim pcep exited $EXIT_RC"
	json_get "$TMPD/sr.json" '[(p["name"], p["state"], p["items"]) for p in r["phases"]]' |
	    grep -q "('update', 'DONE', $total)" || fail "sr: update phase: $(json_get "$TMPD/sr.json" 'r["phases"]')"
	stop_pid "$ctl"
	grep -q "0 bad messages" "$TMPD/ctl-sr.log" || fail "sr: bad messages at the PCE"
}

# The update test through the northbound: sbsim calls update-lsp for
# every LSP (4 in flight, in both URL styles, and over 3 workers) and
# counts the new paths in pcep-topology; the PCCs time each PCUpd.
run_northbound() {
	local PP RP ctl style
	PP=$(free_ports 2)
	RP=$((PP + 1))
	start_bg "$TMPD/ctl-nb.log" "$SBSIM" controller \
	    --pcep ptcp:$PP:127.0.0.1 --restconf 127.0.0.1:$RP
	ctl=$LAST_PID
	wait_listen "$PP" && wait_listen "$RP" || fail "nb: controller"
	# workers: the draft URLs again over 3 workers, each updating its
	# PCCs' LSPs (the node ids they have in the whole run).
	for style in rfc8040 draft workers; do
		opt="--northbound-style $style"
		[ $style = workers ] && opt="--northbound-style draft --workers 3"
		timeout 60 "$SBSIM" pcep --pccs 3 --lsps 30 --delegate \
		    --controller tcp:127.0.0.1:$PP \
		    --northbound odl:http://127.0.0.1:$RP \
		    $opt --northbound-parallel 4 \
		    --report "$TMPD/nb-$style.json" --timeout 20 -q \
		    >"$TMPD/pcc-nb-$style.log" 2>&1 ||
		    fail "nb ($style): sbsim pcep exited $?"
		for want in "('update', 'DONE', 90)" "('nb_update', 'DONE', 90)" \
		    "('confirm', 'DONE', 90)"; do
			json_get "$TMPD/nb-$style.json" \
			    '[(p["name"], p["state"], p["items"]) for p in r["phases"]]' |
			    grep -qF "$want" || fail "nb ($style): $want: $(json_get \
			    "$TMPD/nb-$style.json" 'r["phases"]')"
		done
	done
	stop_pid "$ctl"
	"$SBSIM" pcep --pccs 1 --lsps 5 --controller tcp:127.0.0.1:4189 \
	    --northbound odl:http://127.0.0.1:8181 >/dev/null 2>&1
	[ $? -eq 2 ] || fail "nb without --delegate was not refused"
}

# Each run is a test file of its own (pcep_controller_*.sh: one file
# stays under 60 s, docs/design.md "The test budget"); by hand, this file
# runs all three.
run_case basic run_basic
run_case sr run_sr
run_case northbound run_northbound
exit 0

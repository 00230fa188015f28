#!/bin/bash
# OpenDaylight's Groups_Meters suite (005__openflow_group.robot,
# 010__openflow_meter.robot) against the embedded controller: its g4.xml PUT to the config datastore, read
# back from config, polled from operational until it holds the elements
# the suite looks for (group-statistics, ref-count, packet-count,
# byte-count, buckets, weight, group-select), compared with what was sent;
# DELETE, and the switch no longer reports it.  Also: the draft URLs and
# JSON, a group the switch refuses (never operational), bad bodies, the
# --max-groups-per-node bound, sal-group's add-group and remove-group
# (answered once the switch's barrier reply came, with the transaction-id;
# a group the switch refuses fails with its error; --rpc-timeout), and
# the switches' own GROUP_MOD counters; then the same for meters
# (m4.xml; meter-statistics, meter-kbps, flow-count, packet-in-count,
# byte-in-count, meter-band-stats, meter-band-headers; sal-meter).
. "$(dirname "$0")/../lib.sh"
need curl
need ss
[ -x "$PY" ] || skip "$PY is not installed"

OF_PORT=$(free_ports 1)
RC_PORT=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow "ptcp:$OF_PORT" \
    --restconf "127.0.0.1:$RC_PORT" --stats-interval 0.2 \
    --max-groups-per-node 3 --rpc-timeout 4
CTL=$LAST_PID
wait_listen "$OF_PORT" || fail "controller did not listen on $OF_PORT"
wait_listen "$RC_PORT" || fail "controller did not serve RESTCONF"
start_bg "$TMPD/sw.log" "$SBSIM" openflow --switches 2 \
    --controller "tcp:127.0.0.1:$OF_PORT" --duration 60 -q \
    --report "$TMPD/sw.json"
SW=$LAST_PID

B=http://127.0.0.1:$RC_PORT
N1=$B/rests/data/opendaylight-inventory:nodes/node=openflow%3A1
N2D=opendaylight-inventory:nodes/node/openflow:2

# call METHOD URL [CTYPE BODYFILE]: the status; the reply in $TMPD/out.
call() {
	local extra=()
	[ $# -ge 4 ] && extra=(-H "Content-Type: $3" --data-binary "@$4")
	curl -s -u admin:admin -o "$TMPD/out" -w '%{http_code}' -X "$1" \
	    "${extra[@]}" "$2"
}
expect() {
	local want=$1 got
	shift
	got=$(call "$@")
	[ "$got" = "$want" ] || fail "$1 $2: $got, not $want: $(cat "$TMPD/out")"
}
# poll URL PYEXPR: until the JSON reply d makes PYEXPR true (20 s).
poll() {
	local i
	for i in $(seq 100); do
		if [ "$(call GET "$1")" = 200 ] && "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$TMPD/out" "$2" 2>/dev/null; then
			return 0
		fi
		sleep 0.2
	done
	fail "never true of $1: $2 (last: $(cat "$TMPD/out"))"
}
check() {	# check PYEXPR MESSAGE: of the last reply, d
	"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$TMPD/out" "$1" ||
	    fail "$2: $(cat "$TMPD/out")"
}

# The nodes come up (the suite's "Get list of nodes").
poll "$N1?content=nonconfig" 'd["opendaylight-inventory:node"][0]["id"] == "openflow:1"'

# g4.xml, as the suite sends it.
cat >"$TMPD/g4.xml" <<'EOF'
<group xmlns="urn:opendaylight:flow:inventory">
    <group-type>group-select</group-type>
    <buckets>
        <bucket>
           <weight>1</weight>
            <action>
                <output-action>
                    <output-node-connector>openflow:1:1</output-node-connector>
                </output-action>
                <order>1</order>
            </action>
            <bucket-id>1</bucket-id>
        </bucket>
        <bucket>
          <weight>1</weight>
            <action>
                <output-action>
                    <output-node-connector>openflow:1:2</output-node-connector>
                </output-action>
                <order>1</order>
            </action>
            <bucket-id>2</bucket-id>
        </bucket>
    </buckets>
    <barrier>false</barrier>
    <group-name>Foo</group-name>
    <group-id>1</group-id>
</group>
EOF
expect 201 PUT "$N1/group=1" application/xml "$TMPD/g4.xml"
expect 204 PUT "$N1/group=1" application/xml "$TMPD/g4.xml"
expect 200 GET "$N1/group=1?content=config"
grep -q Foo "$TMPD/out" || fail "config group has no name Foo"
check '[(g["group-type"], [(b["bucket-id"], b["weight"], b["action"][0]["output-action"]["output-node-connector"]) for b in g["buckets"]["bucket"]]) for g in d["flow-node-inventory:group"]] == [("group-select", [(1, 1, "openflow:1:1"), (2, 1, "openflow:1:2")])]' \
    "config group differs from g4.xml"

# Operational: the switch's GROUP_DESC and GROUP statistics.
poll "$N1/group=1?content=nonconfig" '"opendaylight-group-statistics:group-statistics" in d["flow-node-inventory:group"][0]'
for e in group-statistics ref-count packet-count byte-count buckets weight \
    group-select; do
	grep -q -- "$e" "$TMPD/out" || fail "operational group lacks $e"
done
check '[(g["group-id"], g["group-type"], [(b["weight"], b["action"][0]["output-action"]["output-node-connector"]) for b in g["buckets"]["bucket"]], len(g["opendaylight-group-statistics:group-statistics"]["buckets"]["bucket-counter"])) for g in d["flow-node-inventory:group"]] == [(1, "group-select", [(1, "1"), (1, "2")], 2)]' \
    "operational group differs from what was sent"
expect 200 GET "$N1/group=1/opendaylight-group-statistics:group-statistics?content=nonconfig"
check 'd["opendaylight-group-statistics:group-statistics"]["ref-count"] == 0' \
    "group statistics alone"
# The whole node holds it, in both datastores.
expect 200 GET "$N1?content=config"
check 'd["opendaylight-inventory:node"][0]["flow-node-inventory:group"][0]["group-id"] == 1' \
    "config node without its group"

# The suite's flow through the group (f50.xml, with group 1, the group
# it added: f50.xml names group 2, which no switch has): its operational
# view shows group-action and group-id.
cat >"$TMPD/f50.xml" <<'EOF'
<flow xmlns="urn:opendaylight:flow:inventory">
    <strict>false</strict>
    <hard-timeout>0</hard-timeout>
    <idle-timeout>0</idle-timeout>
    <instructions>
        <instruction>
            <order>0</order>
            <apply-actions>
                <action>
                    <group-action>
                        <group-id>1</group-id>
                    </group-action>
                    <order>1</order>
                </action>
            </apply-actions>
        </instruction>
    </instructions>
    <table_id>0</table_id>
    <id>1</id>
    <match>
        <ethernet-match>
            <ethernet-type>
                <type>2048</type>
            </ethernet-type>
        </ethernet-match>
        <ipv4-destination>10.0.10.1/32</ipv4-destination>
    </match>
    <flow-name>forward</flow-name>
    <priority>2</priority>
</flow>
EOF
expect 201 PUT "$N1/table=0/flow=1" application/xml "$TMPD/f50.xml"
expect 200 GET "$N1/table=0/flow=1?content=config"
grep -q forward "$TMPD/out" || fail "config flow has no name forward"
poll "$N1/table=0/flow=1?content=nonconfig" 'd["flow-node-inventory:flow"][0]["instructions"]["instruction"][0]["apply-actions"]["action"][0]["group-action"]["group-id"] == 1'
expect 204 DELETE "$N1/table=0/flow=1"
expect 404 GET "$N1/table=0/flow=1?content=config"

# The draft URLs, JSON, on the other switch.
cat >"$TMPD/g2.json" <<'EOF'
{"flow-node-inventory:group": [{"group-id": 2, "group-type": "group-all",
 "group-name": "two", "buckets": {"bucket": [{"bucket-id": 0,
 "action": [{"order": 0, "output-action": {"output-node-connector": "1"}},
            {"order": 1, "output-action": {"output-node-connector": "2"}}]}]}}]}
EOF
expect 201 PUT "$B/restconf/config/$N2D/group/2" application/json "$TMPD/g2.json"
poll "$B/restconf/operational/$N2D/group/2" '[[a["output-action"]["output-node-connector"] for a in b["action"]] for b in d["flow-node-inventory:group"][0]["buckets"]["bucket"]] == [["1", "2"]]'

# A group the switch refuses (an indirect group has one bucket, OpenFlow
# 1.3.5 section 5.6.1): kept in config, never operational.  Group 3,
# written after it, shows once the switch reported both.
"$PY" - "$TMPD" <<'EOF'
import json, sys
b = lambda i, p: {"bucket-id": i, "action": [{"order": 0,
    "output-action": {"output-node-connector": str(p)}}]}
g = lambda i, t, bs: {"flow-node-inventory:group": [{"group-id": i,
    "group-type": t, "buckets": {"bucket": bs}}]}
for name, doc in (("g7", g(7, "group-indirect", [b(0, 1), b(1, 2)])),
                  ("g3", g(3, "group-indirect", [b(0, 2)])),
                  ("g4", g(4, "group-all", [b(0, 1)])),
                  ("badtype", g(5, "group-bogus", [])),
                  ("dupbucket", g(5, "group-all", [b(0, 1), b(0, 2)]))):
    json.dump(doc, open("%s/%s.json" % (sys.argv[1], name), "w"))
EOF
expect 201 PUT "$N1/group=7" application/json "$TMPD/g7.json"
expect 201 PUT "$N1/group=3" application/json "$TMPD/g3.json"
poll "$N1?content=nonconfig" 'sorted(g["group-id"] for g in d["opendaylight-inventory:node"][0]["flow-node-inventory:group"]) == [1, 3]'
expect 404 GET "$N1/group=7?content=nonconfig"
expect 200 GET "$N1/group=7?content=config"

# Bad bodies and the bound.
expect 400 PUT "$N1/group=5" application/json "$TMPD/badtype.json"
grep -q group-type "$TMPD/out" || fail "bad group-type not named"
expect 400 PUT "$N1/group=5" application/json "$TMPD/dupbucket.json"
expect 400 PUT "$N1/group=9" application/json "$TMPD/g3.json"
expect 409 PUT "$N1/group=4" application/json "$TMPD/g4.json"
expect 400 GET "$N1/group=x?content=config"

# sal-group: add-group and remove-group on openflow:2.
cat >"$TMPD/add.json" <<'EOF'
{"input": {"node": "/opendaylight-inventory:nodes/opendaylight-inventory:node[opendaylight-inventory:id='openflow:2']",
 "group-id": 6, "group-type": "group-ff", "buckets": {"bucket": [
 {"bucket-id": 0, "watch_port": 1, "action": [{"order": 0,
  "output-action": {"output-node-connector": "1"}}]}]}}}
EOF
expect 200 POST "$B/rests/operations/sal-group:add-group" application/json "$TMPD/add.json"
check 'd["sal-group:output"]["transaction-id"] > 0' "add-group output"
poll "$B/restconf/operational/$N2D/group/6" 'd["flow-node-inventory:group"][0]["buckets"]["bucket"][0]["watch_port"] == 1'
# The same group again: the switch's GROUP_EXISTS is the RPC's error, as
# openflowplugin reports it.
expect 500 POST "$B/restconf/operations/sal-group:add-group" application/json "$TMPD/add.json"
grep -q "Device reported error type OFPETGROUPMODFAILED code OFPGMFCGROUPEXISTS" \
    "$TMPD/out" || fail "add-group of an existing group: $(cat "$TMPD/out")"
grep -q operation-failed "$TMPD/out" || fail "refused RPC's error-tag"
expect 200 POST "$B/restconf/operations/sal-group:remove-group" application/json "$TMPD/add.json"
check 'd["output"]["transaction-id"] > 0' "remove-group output (draft)"
poll "$B/restconf/operational/$N2D" 'sorted(g["group-id"] for g in d["node"][0]["flow-node-inventory:group"]) == [2]'
# With the switches stopped the reply waits (the connection held, the
# loop serving others), and comes once they answer the barrier; past
# --rpc-timeout it fails.  (A DELETE of a group none has is no error,
# 1.3.5 section 6.7.)
kill -STOP "$SW"
curl -s -u admin:admin -o "$TMPD/late" -w '%{http_code}' -X POST \
    -H "Content-Type: application/json" --data-binary "@$TMPD/add.json" \
    "$B/rests/operations/sal-group:remove-group" >"$TMPD/late.code" &
LATE=$!
sleep 1
expect 200 GET "$N1/group=3?content=config"
kill -0 "$LATE" 2>/dev/null || { kill -CONT "$SW"
	fail "remove-group answered with its switch stopped: $(cat "$TMPD/late.code")"; }
kill -CONT "$SW"
wait "$LATE"
[ "$(cat "$TMPD/late.code")" = 200 ] || fail "late remove-group: $(cat "$TMPD/late.code") $(cat "$TMPD/late")"
kill -STOP "$SW"
expect 500 POST "$B/rests/operations/sal-group:remove-group" application/json "$TMPD/add.json"
kill -CONT "$SW"
grep -q "did not answer within 4 s" "$TMPD/out" || fail "timed out RPC: $(cat "$TMPD/out")"

# DELETE (the suite's "Delete the group"), then the switch has it no more.
expect 204 DELETE "$N1/group=1"
expect 404 DELETE "$N1/group=1"
expect 404 GET "$N1/group=1?content=config"
expect 200 DELETE "$B/restconf/config/$N2D/group/2"
poll "$N1?content=nonconfig" 'sorted(g["group-id"] for g in d["opendaylight-inventory:node"][0]["flow-node-inventory:group"]) == [3]'
poll "$B/restconf/operational/$N2D" '"flow-node-inventory:group" not in d["node"][0]'

# Meters (010__openflow_meter.robot): m4.xml, as the suite sends it.
cat >"$TMPD/m4.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<meter xmlns="urn:opendaylight:flow:inventory">
    <flags>meter-kbps</flags>
    <meter-band-headers>
        <meter-band-header>
            <band-id>0</band-id>
            <drop-rate>20</drop-rate>
            <drop-burst-size>200</drop-burst-size>
            <meter-band-types>
                <flags>ofpmbt-drop</flags>
            </meter-band-types>
        </meter-band-header>
    </meter-band-headers>
    <meter-id>1</meter-id>
    <meter-name>Foo</meter-name>
</meter>
EOF
expect 201 PUT "$N1/meter=1" application/xml "$TMPD/m4.xml"
expect 200 GET "$N1/meter=1?content=config"
grep -q Foo "$TMPD/out" || fail "config meter has no name Foo"
BANDS='[(h["band-id"], h["meter-band-types"]["flags"], h["drop-rate"], h["drop-burst-size"]) for h in m["meter-band-headers"]["meter-band-header"]]'
check "[(m['meter-id'], m['flags'], $BANDS) for m in d['flow-node-inventory:meter']] == [(1, 'meter-kbps', [(0, 'ofpmbt-drop', 20, 200)])]" \
    "config meter differs from m4.xml"
poll "$N1/meter=1?content=nonconfig" '"opendaylight-meter-statistics:meter-statistics" in d["flow-node-inventory:meter"][0]'
for e in meter-statistics meter-kbps flow-count packet-in-count \
    byte-in-count meter-band-stats meter-band-headers; do
	grep -q -- "$e" "$TMPD/out" || fail "operational meter lacks $e"
done
check "[(m['meter-id'], m['flags'], $BANDS, len(m['opendaylight-meter-statistics:meter-statistics']['meter-band-stats']['band-stat'])) for m in d['flow-node-inventory:meter']] == [(1, 'meter-kbps', [(0, 'ofpmbt-drop', 20, 200)], 1)]" \
    "operational meter differs from what was sent"
expect 200 GET "$N1/meter=1/opendaylight-meter-statistics:meter-statistics?content=nonconfig"
check 'd["opendaylight-meter-statistics:meter-statistics"]["flow-count"] == 0' \
    "meter statistics alone"
"$PY" - "$TMPD" <<'EOF'
import json, sys
m = lambda i, flags, burst: {"flow-node-inventory:meter": [{"meter-id": i,
    "flags": flags, "meter-band-headers": {"meter-band-header": [{
    "band-id": 0, "meter-band-types": {"flags": "ofpmbt-drop"},
    "drop-rate": 100, "drop-burst-size": burst}]}}]}
for name, doc in (("m7", m(7, "meter-kbps meter-burst", 0)),
                  ("m3", m(3, "meter-pktps", 0)),
                  ("m2", m(2, "meter-kbps meter-stats", 10)),
                  ("mbad", m(5, "meter-kbps meter-fast", 0))):
    json.dump(doc, open("%s/%s.json" % (sys.argv[1], name), "w"))
ref = ("/opendaylight-inventory:nodes/opendaylight-inventory:node"
       "[opendaylight-inventory:id='openflow:2']")
add = {"input": {"node": ref, "meter-id": 6, "flags": "meter-kbps",
       "meter-band-headers": {"meter-band-header": [{"band-id": 0,
       "meter-band-types": {"flags": "ofpmbt-drop"}, "drop-rate": 5}]}}}
json.dump(add, open("%s/addm.json" % sys.argv[1], "w"))
EOF
# A BURST meter whose band has no burst size is refused (BAD_BURST).
expect 201 PUT "$N1/meter=7" application/json "$TMPD/m7.json"
expect 201 PUT "$N1/meter=3" application/json "$TMPD/m3.json"
poll "$N1?content=nonconfig" 'sorted(m["meter-id"] for m in d["opendaylight-inventory:node"][0]["flow-node-inventory:meter"]) == [1, 3]'
expect 404 GET "$N1/meter=7?content=nonconfig"
expect 400 PUT "$N1/meter=5" application/json "$TMPD/mbad.json"
grep -q meter-fast "$TMPD/out" || fail "bad meter flag not named"
expect 201 PUT "$B/restconf/config/$N2D/meter/2" application/json "$TMPD/m2.json"
poll "$B/restconf/operational/$N2D/meter/2" 'd["flow-node-inventory:meter"][0]["flags"] == "meter-kbps meter-stats"'
expect 200 POST "$B/rests/operations/sal-meter:add-meter" application/json "$TMPD/addm.json"
check 'd["sal-meter:output"]["transaction-id"] > 0' "add-meter output"
poll "$B/restconf/operational/$N2D/meter/6" 'd["flow-node-inventory:meter"][0]["meter-band-headers"]["meter-band-header"][0]["drop-rate"] == 5'
expect 500 POST "$B/rests/operations/sal-meter:add-meter" application/json "$TMPD/addm.json"
grep -q "Device reported error type OFPETMETERMODFAILED code OFPMMFCMETEREXISTS" \
    "$TMPD/out" || fail "add-meter of an existing meter: $(cat "$TMPD/out")"
expect 200 POST "$B/rests/operations/sal-meter:remove-meter" application/json "$TMPD/addm.json"
# A flow through the meter (the suite's f51 step): its operational view
# shows the meter instruction's meter-id.
cat >"$TMPD/f51.xml" <<'EOF'
<flow xmlns="urn:opendaylight:flow:inventory">
    <instructions>
        <instruction>
            <order>0</order>
            <meter>
                <meter-id>1</meter-id>
            </meter>
        </instruction>
        <instruction>
            <order>1</order>
            <apply-actions>
                <action>
                    <output-action>
                        <output-node-connector>1</output-node-connector>
                    </output-action>
                    <order>0</order>
                </action>
            </apply-actions>
        </instruction>
    </instructions>
    <table_id>0</table_id>
    <id>2</id>
    <match>
        <ethernet-match>
            <ethernet-type>
                <type>2048</type>
            </ethernet-type>
        </ethernet-match>
        <ipv4-destination>10.0.10.2/32</ipv4-destination>
    </match>
    <flow-name>forward</flow-name>
    <priority>2</priority>
</flow>
EOF
expect 201 PUT "$N1/flow-node-inventory:table=0/flow=2" application/xml "$TMPD/f51.xml"
poll "$N1/flow-node-inventory:table=0/flow=2?content=nonconfig" '[i.get("meter", {}).get("meter-id") for i in d["flow-node-inventory:flow"][0]["instructions"]["instruction"]] == [1, None]'
expect 204 DELETE "$N1/flow-node-inventory:table=0/flow=2"

expect 204 DELETE "$N1/meter=1"
expect 404 DELETE "$N1/meter=1"
expect 200 DELETE "$B/restconf/config/$N2D/meter/2"
poll "$N1?content=nonconfig" 'sorted(m["meter-id"] for m in d["opendaylight-inventory:node"][0]["flow-node-inventory:meter"]) == [3]'
poll "$B/restconf/operational/$N2D" '"flow-node-inventory:meter" not in d["node"][0]'

# CSIT's cleanup: DELETE of a config node takes its groups and meters
# off its switch too.
expect 201 PUT "$B/restconf/config/$N2D/group/2" application/json "$TMPD/g2.json"
expect 201 PUT "$B/restconf/config/$N2D/meter/2" application/json "$TMPD/m2.json"
poll "$B/restconf/operational/$N2D" '"flow-node-inventory:group" in d["node"][0] and "flow-node-inventory:meter" in d["node"][0]'
expect 204 DELETE "$B/rests/data/opendaylight-inventory:nodes/node=openflow%3A2"
expect 404 DELETE "$B/rests/data/opendaylight-inventory:nodes/node=openflow%3A2"
poll "$B/restconf/operational/$N2D" '"flow-node-inventory:group" not in d["node"][0] and "flow-node-inventory:meter" not in d["node"][0]'

# The switches took: 1 ADD + 1 MODIFY + ADD 7 (refused) + ADD 3 +
# DELETE 1 on openflow:1, ADD 2 + ADD 6 + ADD 6 (refused) + 3 DELETE 6 +
# DELETE 2 + ADD 2 + DELETE 2 (the node's) on the other.
stop_pid "$SW"
[ "$(json_get "$TMPD/sw.json" 'r["counters"]["group_mods"]')" = 14 ] ||
    fail "switches counted $(json_get "$TMPD/sw.json" 'r["counters"]["group_mods"]') GROUP_MODs, not 14"
[ "$(json_get "$TMPD/sw.json" 'r["counters"]["group_mod_errors"]')" = 2 ] ||
    fail "switches refused other than two GROUP_MODs"
# ADD 1, ADD 7 (refused), ADD 3, DELETE 1; ADD 2, ADD 6, ADD 6 (refused),
# DELETE 6, DELETE 2, ADD 2, DELETE 2.
[ "$(json_get "$TMPD/sw.json" 'r["counters"]["meter_mods"]')" = 11 ] ||
    fail "switches counted $(json_get "$TMPD/sw.json" 'r["counters"]["meter_mods"]') METER_MODs, not 11"
[ "$(json_get "$TMPD/sw.json" 'r["counters"]["meter_mod_errors"]')" = 2 ] ||
    fail "switches refused other than two METER_MODs"
stop_pid "$CTL"
grep -q "groups: 14 GROUP_MODs sent, 1 refused by switches, 3 bad bodies, 1 refused past --max-groups-per-node, 0 bad replies" \
    "$TMPD/ctl.log" || fail "controller's groups line"
grep -q "sal-group RPCs: 3 answered, 1 refused by switches, 1 timed out" \
    "$TMPD/ctl.log" || fail "controller's sal-group line"
grep -q "meters: 11 METER_MODs sent, 1 refused by switches, 1 bad bodies, 0 refused past --max-meters-per-node, 0 bad replies" \
    "$TMPD/ctl.log" || fail "controller's meters line"
grep -q "sal-meter RPCs: 2 answered, 1 refused by switches, 0 timed out" \
    "$TMPD/ctl.log" || fail "controller's sal-meter line"
exit 0

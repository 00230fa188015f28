#!/bin/bash
# sbsim run SCENARIO (docs/guide.md, "Scenarios"): one sbsim process runs
# OpenFlow switches, BGP peers, PCEP PCCs and NETCONF devices together
# against the embedded controller with all four roles, into one report
# with exact counts; scenario files with errors are refused with the
# libyang path of the error before anything starts; --print writes the
# scenario of a command line, which runs as that command line would.
. "$(dirname "$0")/../lib.sh"

base=$(free_ports 16)
OFP=$base BGPP=$((base + 1)) PCEPP=$((base + 2)) RC=$((base + 3))
NCP=$((base + 8))
NET=$(( (RANDOM % 200) + 20 ))
MON=127.$NET.0.5	# the address after the 4 peers of 127.$NET.0.1/24

start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$OFP \
    --bgp ptcp:$BGPP:127.0.0.1 --as 65000 --bgp-monitor $MON \
    --pcep ptcp:$PCEPP:127.0.0.1 --pcep-update-all 8 --netconf \
    --restconf 127.0.0.1:$RC
wait_listen $OFP && wait_listen $BGPP && wait_listen $PCEPP &&
    wait_listen $RC || fail "the controller does not listen"

cat >"$TMPD/mixed.json" <<EOS
{
  "sbsim-scenario:scenario": {
    "description": "all four protocols against one controller",
    "option": [
      {"name": "timeout", "value": ["20"]},
      {"name": "expect", "value": ["of.connect.items==10",
                                  "counters.pcep.pcupd_received==100"]}
    ],
    "group": [
      {"name": "of", "protocol": "openflow", "count": 10,
       "controller": "tcp:127.0.0.1:$OFP",
       "option": [{"name": "northbound", "value": ["odl:http://127.0.0.1:$RC"]},
                  {"name": "flows", "value": ["1000"]}]},
      {"name": "bgp", "protocol": "bgp", "count": 4,
       "controller": "tcp:127.0.0.1:$BGPP",
       "option": [{"name": "prefixes", "value": ["500"]},
                  {"name": "as", "value": ["65001"]},
                  {"name": "peer-as", "value": ["65000"]},
                  {"name": "source", "value": ["127.$NET.0.1/24"]},
                  {"name": "monitor", "value": ["tcp:127.0.0.1:$BGPP"]},
                  {"name": "withdraw"}]},
      {"name": "pcep", "protocol": "pcep", "count": 5,
       "controller": "tcp:127.0.0.1:$PCEPP",
       "option": [{"name": "lsps", "value": ["20"]}, {"name": "delegate"}]},
      {"name": "nc", "protocol": "netconf", "count": 4,
       "option": [{"name": "listen", "value": ["ptcp:$NCP:127.0.0.1"]},
                  {"name": "transport", "value": ["tcp"]},
                  {"name": "northbound", "value": ["odl:http://127.0.0.1:$RC"]},
                  {"name": "edits", "value": ["2"]}]}
    ]
  }
}
EOS
timeout 90 "$SBSIM" run "$TMPD/mixed.json" --report "$TMPD/mixed-r.json" \
    --junit "$TMPD/mixed.xml" >"$TMPD/mixed.log" 2>&1 ||
    fail "the mixed scenario exited $?"
grep -q "result: ok" "$TMPD/mixed.log" || fail "no 'result: ok'"
want="of.connect=10 of.program=1000 of.confirm=1000 of.delete=1000"
want="$want of.confirm_delete=1000 bgp.connect=4 bgp.announce=2000"
want="$want bgp.learn=2000 bgp.withdraw=2000 pcep.connect=5 pcep.sync=100"
want="$want pcep.update=100 nc.connect=4 nc.mount=4 nc.mounted=4"
want="$want nc.program=8 nc.confirm=8 nc.confirm_delete=8 nc.unmounted=4"
for w in $want; do
	p=${w%=*} n=${w#*=}
	got=$(json_get "$TMPD/mixed-r.json" "[(q['state'], q['items']) for q in r['phases'] if q['name']=='$p']")
	[ "$got" = "[('DONE', $n)]" ] || fail "phase $p: $got, want DONE $n"
done
got=$(json_get "$TMPD/mixed-r.json" '(r["ok"], len(r["expectations"]),
    all(e["ok"] for e in r["expectations"]),
    sorted(set(p["protocol"] for p in r["phases"])),
    [c for c in r["counters"] if "." not in c])')
want="(True, 2, True, ['bgp', 'netconf', 'northbound', 'openflow', 'pcep'],"
want="$want ['sbsim_cpu_user_ms', 'sbsim_cpu_system_ms', 'sbsim_max_rss_kb'])"
[ "$got" = "$want" ] || fail "report: $got"
xmllint --noout "$TMPD/mixed.xml" || fail "JUnit not well-formed"

# Errors in the file: exit 2, one line naming the file and the path.
bad() {
	local name=$1 re=$2
	timeout 10 "$SBSIM" run "$TMPD/$name" >"$TMPD/out" 2>"$TMPD/err"
	RC_=$?
	if [ $RC_ -ne 2 ] || [ -s "$TMPD/out" ] ||
	    [ "$(wc -l <"$TMPD/err")" -ne 1 ] ||
	    ! grep -qE "^sbsim run: .*$re" "$TMPD/err"; then
		echo "FAIL: $name: exit $RC_, stderr: $(cat "$TMPD/err")" >&2
		FAILS=$((FAILS + 1))
	fi
}
grp() {	# a one-group scenario with extra JSON in the group
	printf '{"sbsim-scenario:scenario": {"group": [{"name": "of", %s}]}}\n' \
	    "$1" >"$TMPD/$2"
}
OF="\"protocol\": \"openflow\", \"controller\": \"tcp:127.0.0.1:$OFP\""
echo '{"sbsim-scenario:scenario": {' >"$TMPD/syntax.json"
grp "$OF, \"count\": 0" range.json
grp "$OF, \"count\": 3, \"colour\": \"red\"" unknown.json
grp "\"controller\": \"tcp:127.0.0.1:$OFP\", \"count\": 3" mandatory.json
grp "$OF, \"count\": 3, \"option\": [{\"name\": \"report\", \"value\": [\"x\"]}]" runopt.json
grp "$OF, \"count\": 3, \"option\": [{\"name\": \"no-such-option\"}]" cmdopt.json
grp "$OF, \"count\": 3, \"option\": [{\"name\": \"Bad Name\"}]" pattern.json
printf '{"sbsim-scenario:scenario": {"option": [{"name": "controller", "value": ["x"]}], "group": [{"name": "of", %s, "count": 1}]}}\n' "$OF" >"$TMPD/topopt.json"
NC='"protocol": "netconf", "option": [{"name": "listen", "value": ["ptcp:1"]}]'
printf '{"sbsim-scenario:scenario": {"group": [{"name": "a", %s, "count": 1}, {"name": "b", %s, "count": 1}]}}\n' "$NC" "$NC" >"$TMPD/twice.json"
echo '{"sbsim-scenario:scenario": {"group": []}}' >"$TMPD/empty.json"
grp "\"protocol\": \"nosuch\", \"count\": 1" unknown_proto.json
cp "$TMPD/range.json" "$TMPD/scenario.txt"
FAILS=0
bad syntax.json "syntax.json: .*(JSON|syntax|unexpected|end)"
bad range.json "range.json: .*out of the allowed range.*\(at /sbsim-scenario:scenario/group\[name='of'\]/count, line 1\)"
bad unknown.json "unknown.json: .*colour"
bad mandatory.json "mandatory.json: .*protocol"
bad runopt.json "belongs to the whole run"
bad cmdopt.json "group 'of'.*no-such-option"
bad pattern.json "pattern.json: .*Bad Name"
bad topopt.json "controller belongs to a group"
bad twice.json "groups 'a' and 'b' are both netconf"
bad empty.json "empty.json: .*(min-elements|Too few)"
bad unknown_proto.json "unknown_proto.json: group 'of': unknown protocol 'nosuch' \(the known ones: openflow, bgp, pcep, netconf, ovsdb\) \(at /sbsim-scenario:scenario/group\[name='of'\]/protocol\)"
bad scenario.txt "must end in .json or .xml"
bad missing.json "missing.json: No such file"
[ "$FAILS" -eq 0 ] || fail "$FAILS bad scenarios were not refused well"

# --print: the scenario of a command line, which runs as it would.
timeout 10 "$SBSIM" run --print openflow --switches 3 \
    --controller tcp:127.0.0.1:$OFP --expect 'connect.items==3' -q \
    >"$TMPD/printed.json" || fail "--print exited $?"
got=$("$PY" -c '
import json, sys
g = json.load(open(sys.argv[1]))["sbsim-scenario:scenario"]
print(g["group"][0]["count"], g["group"][0]["protocol"],
      [o["name"] for o in g["option"]])' "$TMPD/printed.json")
[ "$got" = "3 openflow ['expect', 'quiet']" ] || fail "--print: $got"
# Its expect names the phase as a command line would: in a scenario the
# group's phases are GROUP.phase, so the printed one must be renamed.
sed -i 's/connect.items==3/openflow.connect.items==3/' "$TMPD/printed.json"
timeout 30 "$SBSIM" run "$TMPD/printed.json" --report "$TMPD/printed-r.json" \
    || fail "the printed scenario exited $?"
[ "$(json_get "$TMPD/printed-r.json" '[p["items"] for p in r["phases"] if p["name"]=="openflow.connect"]')" = "[3]" ] ||
    fail "the printed scenario did not connect 3 switches"

# Two groups of one protocol stay apart: their own sims, phases, counts.
printf '{"sbsim-scenario:scenario": {"group": [{"name": "a", %s, "count": 3}, {"name": "b", %s, "count": 4, "option": [{"name": "dpid-base", "value": ["101"]}]}]}}\n' \
    "$OF" "$OF" >"$TMPD/two.json"
timeout 30 "$SBSIM" run "$TMPD/two.json" -q --report "$TMPD/two-r.json" ||
    fail "two OpenFlow groups exited $?"
got=$(json_get "$TMPD/two-r.json" '[(p["name"], p["items"]) for p in r["phases"] if p["name"].endswith(".connect")]')
[ "$got" = "[('a.connect', 3), ('b.connect', 4)]" ] ||
    fail "two OpenFlow groups: $got"

# The same as XML.
cat >"$TMPD/x.xml" <<EOS
<scenario xmlns="urn:sbsim:scenario">
  <group><name>x</name><protocol>openflow</protocol><count>2</count>
    <controller>tcp:127.0.0.1:$OFP</controller></group>
</scenario>
EOS
timeout 30 "$SBSIM" run "$TMPD/x.xml" -q --report "$TMPD/x-r.json" ||
    fail "the XML scenario exited $?"
[ "$(json_get "$TMPD/x-r.json" '[p["items"] for p in r["phases"] if p["name"]=="x.connect"]')" = "[2]" ] ||
    fail "the XML scenario did not connect 2 switches"
echo "sbsim run: 4 protocols in one process, bad files refused, --print ok"

#!/bin/bash
# XML elements with 100 000 attributes (issue 24): libxml2 checks a start
# tag's attributes for duplicates pair by pair, so one such NETCONF
# message (no login needed over TCP) held the whole process 17 s and a
# RESTCONF PUT 18 s.  Past --max-xml-attributes (NETCONF) and
# --restconf-max-attributes (RESTCONF) the text is refused before it is
# parsed: an rpc-error (malformed-message; operation-failed for a
# base:1.0 peer) counted in xml_too_many_attributes, and 400 counted in
# the RESTCONF summary, each within seconds, while another device and
# another session are served.
. "$(dirname "$0")/../lib.sh"
HERE=$(dirname "$0")
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl

# NETCONF: two devices; the big message to the first, a session of the
# second (and then of the first) is served at once after it.
port=$(free_ports 2)
start_bg "$TMPD/dev.log" "$SBSIM" netconf --devices 2 \
    --listen ptcp:$port:127.0.0.1 --transport tcp --duration 120 \
    --max-xml-attributes 100 --report "$TMPD/r.json" -q
dev=$LAST_PID
wait_listen $((port + 1)) || fail "the devices did not listen"
"$PY" "$HERE/nc_flood.py" attrs $port 100000 >"$TMPD/big.out" 2>&1 ||
    fail "100 000 attributes: $(cat "$TMPD/big.out")"
read -r _ took res msg <"$TMPD/big.out"
echo "netconf, 100 000 attributes: $res after $took s: $msg"
[ "$res" = error ] && echo "$msg" | grep -q "more than 100 attributes" ||
    fail "100 000 attributes were not refused: $(cat "$TMPD/big.out")"
"$PY" "$HERE/nc_flood.py" attrs $((port + 1)) 100 >"$TMPD/ok.out" 2>&1 ||
    fail "100 attributes: $(cat "$TMPD/ok.out")"
read -r _ took res _ <"$TMPD/ok.out"
[ "$res" = ok ] || fail "100 attributes refused: $(cat "$TMPD/ok.out")"
stop_pid "$dev"
n=$(json_get "$TMPD/r.json" "r['counters'].get('xml_too_many_attributes', 0)")
[ "$n" -eq 1 ] || fail "xml_too_many_attributes is $n"

# RESTCONF: a PUT whose element carries 100 000 attributes gets 400
# unparsed; a GET is answered meanwhile.
port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --restconf 127.0.0.1:$port
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not serve RESTCONF on $port"
"$PY" -c 'import sys
print("<node xmlns=\"urn:opendaylight:inventory\" " +
      " ".join("a%d=\"x\"" % i for i in range(int(sys.argv[1]))) +
      "><id>openflow:1</id></node>")' 100000 >"$TMPD/big.xml"
url="http://127.0.0.1:$port/rests/data/opendaylight-inventory:nodes"
curl -s -m 10 -u admin:admin -X PUT \
    -H "Content-Type: application/yang-data+xml" \
    --data-binary @"$TMPD/big.xml" -w ' %{http_code} %{time_total}' \
    "$url/node=openflow%3A1" >"$TMPD/put.raw" ||
    fail "the PUT was not answered within 10 s"
tr -d '\n' <"$TMPD/put.raw" >"$TMPD/put.out"
echo "restconf, 100 000 attributes: $(tail -c 120 "$TMPD/put.out")"
grep -q 'more than 1024 attributes.* 400 ' "$TMPD/put.out" ||
    fail "100 000 attributes were not refused: $(tail -c 300 "$TMPD/put.out")"
code=$(curl -s -m 10 -u admin:admin -o /dev/null -w '%{http_code}' "$url")
[ "$code" = 200 ] || [ "$code" = 404 ] || fail "a GET got $code"
stop_pid "$ctl"
grep -q ' 1 with too many attributes' "$TMPD/ctl.log" ||
    fail "not counted: $(grep '^restconf:' "$TMPD/ctl.log")"
exit 0

#!/bin/bash
# sbsim ovsdb command-line errors, each one line on stderr naming the
# problem, nothing on stdout, exit status 2: options, endpoints and their
# TLS files, the northbound's options, a schema file that is missing, not JSON or not a schema, a schema
# without the tables the seeded bridges need; --help from the option rows;
# then passive devices on the addresses of --source, one per device.
. "$(dirname "$0")/../lib.sh"
L="--devices 2 --controller ptcp:9"

bad() {
	local re=$1
	shift
	bad_usage ovsdb "$re" "$@"
}

printf '{"name": "x", "tables": ' >"$TMPD/trunc.ovsschema"
printf '{"name": "x"}' >"$TMPD/notables.ovsschema"
printf '{"name":"Open_vSwitch","tables":{"Open_vSwitch":{"isRoot":true,"columns":{"c":{"type":"integer"}}}}}' \
    >"$TMPD/small.ovsschema"
bad "--devices N is required" --controller ptcp:9
bad "--controller is required" --devices 1
bad "--devices: '0' is not a whole number" --devices 0 --controller ptcp:9
bad "need an ssl: or pssl: --controller" $L --ssl-key k
bad "need an ssl: or pssl: --controller" --devices 1 \
    --controller tcp:127.0.0.1:6640 --ssl-ca k
bad "a listening device needs --ssl-key and --ssl-cert" --devices 1 \
    --controller pssl:9
bad "--ssl-cert /nonexistent" --devices 1 --controller ssl:127.0.0.1:6640 \
    --ssl-cert /nonexistent
bad "--expect-delete needs --bridges" $L --expect-delete
bad "--bridges: '0'" $L --bridges 0
bad "need --northbound" $L --bridge-controller tcp:127.0.0.1:6653
bad "--bridge-controller: 'ptcp:6653' is not tcp:IP:PORT" $L \
    --northbound odl:http://127.0.0.1:8181 --bridge-controller ptcp:6653
bad "--device-address: only passive" --devices 1 \
    --controller tcp:127.0.0.1:6640 --northbound odl:http://127.0.0.1:8181 \
    --device-address 127.0.0.2
bad "sends and reads JSON only" $L --northbound odl:http://127.0.0.1:8181 \
    --northbound-format xml
bad "past 65535" --devices 10 --controller ptcp:65530
bad "--ports-per-bridge needs --bridges-per-node" $L --ports-per-bridge 2
bad "--max-message: '1'" $L --max-message 1
bad "--inactivity-probe: '-1'" $L --inactivity-probe -1
bad "--schema: unable to open /nonexistent" $L --schema /nonexistent
bad "--schema: .*trunc.ovsschema: line 1" $L --schema "$TMPD/trunc.ovsschema"
bad "--schema: .*notables.ovsschema: not a database schema" $L \
    --schema "$TMPD/notables.ovsschema"
bad "different address families" $L --source 2001:db8::/64
bad "has 2 addresses for 3 devices" --devices 3 --controller ptcp:9 \
    --source 127.3.0.0/30
bad "unknown phase 'nosuch'" $L --expect 'nosuch.items>=1'
bad "unknown option '--frobnicate'" $L --frobnicate

# A schema without Bridge: fine alone, not with bridges to seed.
port=$(free_ports 1)
run_cli ovsdb --devices 1 --controller ptcp:$port:127.0.0.1 --schema \
    "$TMPD/small.ovsschema" --bridges-per-node 1 --duration 1
[ $RC -eq 2 ] && echo "$ERR" | grep -q "no Open_vSwitch, Bridge" || {
	echo "FAIL: seeding without Bridge: exit $RC: $ERR" >&2
	FAILS=$((FAILS + 1))
}

run_cli ovsdb --help
if [ $RC -ne 0 ] || ! echo "$OUT" | grep -q "usage: sbsim ovsdb"; then
	echo "FAIL: sbsim ovsdb --help (exit $RC)" >&2
	FAILS=$((FAILS + 1))
fi
for o in devices schema bridges-per-node ports-per-bridge max-sessions \
    max-message max-output inactivity-probe; do
	echo "$OUT" | grep -q -- "--$o " || {
		echo "FAIL: --help lacks --$o" >&2
		FAILS=$((FAILS + 1))
	}
done
[ $FAILS -eq 0 ] || fail "$FAILS command lines not refused as expected"

# Passive devices on 127.3.0.1 and 127.3.0.2, both on one port.
[ -x "$PY" ] || skip "$PY is not installed"
need ss
port=$(free_ports 1)
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb --devices 2 \
    --controller ptcp:$port --source 127.3.0.0/30 --duration 30 \
    --report "$TMPD/sim.json"
sim=$LAST_PID
wait_listen "$port" || fail "sbsim does not listen"
for a in 127.3.0.1 127.3.0.2; do
	"$PY" - "$a" "$port" <<'PYEOF' || fail "list_dbs on $a"
import json, socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10)
s.sendall(b'{"id":1,"method":"list_dbs","params":[]}')
r = json.loads(s.recv(4096))
assert r["result"] == ["Open_vSwitch", "_Server"], r
PYEOF
done
stop_pid "$sim"
[ "$(json_get "$TMPD/sim.json" '[p["state"] for p in r["phases"] if p["name"] == "connect"][0]')" = DONE ] ||
    fail "connect phase: $(json_get "$TMPD/sim.json" 'r["phases"]')"
exit 0

#!/bin/bash
# sbsim ovsdb over TLS, with a throwaway CA and certificates made here by
# openssl: a passive device (pssl:) serves ovsdb-client's list-dbs and
# dump with --private-key, --certificate and --ca-cert; a client without
# a certificate, and a plain-TCP one, are refused and counted
# (tls_errors), and a device that saw only refused handshakes is not
# connected; an active device (ssl:) connects to ovsdb-client
# listening on pssl: as its manager, which monitors its seeded bridge.
# Command-line errors: TLS files with a tcp: endpoint, pssl: without a key.
. "$(dirname "$0")/../lib.sh"
need openssl
need ovsdb-client
need ss
[ -r /usr/share/openvswitch/vswitch.ovsschema ] || skip "no vswitch.ovsschema"
export OVS_RUNDIR=$TMPD OVS_DBDIR=$TMPD OVS_LOGDIR=$TMPD OVS_SYSCONFDIR=$TMPD
cd "$TMPD" || fail "no $TMPD"
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca-key.pem -out ca.pem \
    -days 2 -subj /CN=sbsim-test-ca >/dev/null 2>&1 || fail "openssl CA"
for n in dev cli; do
	openssl req -newkey rsa:2048 -nodes -keyout $n-key.pem -out $n.csr \
	    -subj /CN=$n >/dev/null 2>&1 &&
	openssl x509 -req -in $n.csr -CA ca.pem -CAkey ca-key.pem \
	    -CAcreateserial -out $n.pem -days 2 >/dev/null 2>&1 ||
	    fail "openssl $n certificate"
done
TLS_DEV="--ssl-key dev-key.pem --ssl-cert dev.pem --ssl-ca ca.pem"
TLS_CLI="--private-key=cli-key.pem --certificate=cli.pem --ca-cert=ca.pem"

# Refused command lines.
run_cli ovsdb --devices 1 --controller ptcp:6640 --ssl-key dev-key.pem
echo "$ERR" | grep -q "need an ssl: or pssl: --controller" ||
    fail "TLS files with ptcp: (exit $RC): $ERR"
run_cli ovsdb --devices 1 --controller pssl:6640 --ssl-ca ca.pem
echo "$ERR" | grep -q "needs --ssl-key and --ssl-cert" ||
    fail "pssl: without a key (exit $RC): $ERR"
[ "$RC" -eq 2 ] || fail "pssl: without a key: exit $RC"

base=$(free_ports 3)
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb \
    --controller pssl:$base:127.0.0.1 $TLS_DEV --bridges-per-node 1 \
    --devices 2 \
    --duration 60 --report "$TMPD/sim.json"
sim=$LAST_PID
wait_listen $base && wait_listen $((base + 1)) ||
    fail "the TLS devices do not listen"
[ "$(timeout 10 ovsdb-client $TLS_CLI list-dbs ssl:127.0.0.1:$base |
    tr '\n' ' ')" = "Open_vSwitch _Server " ] || fail "list-dbs over TLS"
timeout 10 ovsdb-client $TLS_CLI dump ssl:127.0.0.1:$base Open_vSwitch \
    Bridge name | grep -q br0 || fail "dump over TLS: no br0"
# No certificate, then no TLS at all: both refused.
timeout 10 ovsdb-client --private-key=none --certificate=none \
    --ca-cert=ca.pem list-dbs ssl:127.0.0.1:$base >/dev/null 2>&1 &&
    fail "a client without a certificate was served"
timeout 10 ovsdb-client list-dbs tcp:127.0.0.1:$base >/dev/null 2>&1 &&
    fail "a plain TCP client was served"
# Device 1 saw only a client without a certificate: not connected.
timeout 10 ovsdb-client --private-key=none --certificate=none \
    --ca-cert=ca.pem list-dbs ssl:127.0.0.1:$((base + 1)) >/dev/null 2>&1 &&
    fail "device 1 served a client without a certificate"
kill -0 "$sim" 2>/dev/null || fail "sbsim died"
stop_pid "$sim"
[ "$(json_get "$TMPD/sim.json" 'r["counters"]["tls_errors"] >= 2')" = True ] ||
    fail "tls_errors: $(json_get "$TMPD/sim.json" 'r["counters"]')"
grep -q "TLS failed" "$TMPD/sim.log" || fail "no TLS error logged"
[ "$(json_get "$TMPD/sim.json" '[p["items"] for p in r["phases"] if p["name"] == "connect"][0]')" = 1 ] ||
    fail "connect counts a refused handshake: $(json_get "$TMPD/sim.json" 'r["phases"]')"

# An active device over TLS: ovsdb-client listens on pssl: as its
# manager.
MGR=$((base + 2))
start_bg "$TMPD/mgr.log" timeout 30 ovsdb-client $TLS_CLI monitor \
    pssl:$MGR:127.0.0.1 Open_vSwitch Bridge name
mgr=$LAST_PID
wait_listen $MGR || fail "ovsdb-client does not listen on pssl:"
start_bg "$TMPD/active.log" "$SBSIM" ovsdb --devices 1 \
    --controller ssl:127.0.0.1:$MGR $TLS_DEV --bridges-per-node 1 \
    --backoff 50:200 --duration 30
active=$LAST_PID
i=0
until grep -Eq 'initial +br0' "$TMPD/mgr.log" || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -Eq 'initial +br0' "$TMPD/mgr.log" ||
    fail "the manager over TLS saw no br0"
kill -0 "$active" 2>/dev/null || fail "the active TLS device died"
stop_pid "$active"
exit 0

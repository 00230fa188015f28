#!/bin/bash
# OpenFlow over TLS: ovs-testcontroller on pssl: with a certificate from a
# test CA made here, 16 sbsim switches on ssl: with their own certificate
# from the same CA (both sides verify the peer).  All connect and complete
# the handshake; a switch that trusts another CA does not connect.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ovs-testcontroller
need openssl
need ss
N=16
# A CA, and a certificate it signs for each side.
pki_ca ca
pki_ca otherca
pki_cert ctl ca
pki_cert sw ca

PORT=$(free_ports 1)
start_bg "$TMPD/tc.log" ovs-testcontroller --unixctl="$TMPD/tc.ctl" \
    -vvconn:console:dbg -p "$PKI/ctl.key" -c "$PKI/ctl.pem" \
    -C "$PKI/ca.pem" pssl:$PORT:127.0.0.1
TC=$LAST_PID
wait_listen "$PORT" || fail "ovs-testcontroller did not listen on $PORT"

for v in 1.3 1.0; do
	timeout 30 "$SBSIM" openflow --switches $N --of-version $v \
	    --controller ssl:127.0.0.1:$PORT --ssl-key "$PKI/sw.key" \
	    --ssl-cert "$PKI/sw.pem" --ssl-ca "$PKI/ca.pem" --timeout 15 \
	    --report "$TMPD/tls$v.json" -q >"$TMPD/sw$v.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || fail "TLS $v: sbsim openflow exited $rc"
	"$PY" - "$TMPD/tls$v.json" "$N" <<'PYEOF' || fail "TLS $v: report"
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
c = [p for p in r["phases"] if p["name"] == "connect"][0]
if c["state"] != "DONE" or c["items"] != n:
    sys.exit("connect: %s %d" % (c["state"], c["items"]))
k = r["counters"]
for name in ("errors_sent", "errors_received", "decode_errors",
             "connect_failures"):
    if k[name]:
        sys.exit("%s = %d" % (name, k[name]))
PYEOF
	echo "TLS OpenFlow $v: $N switches connected"
done
kill -0 "$TC" 2>/dev/null || fail "ovs-testcontroller died"
n=$(grep -c 'negotiated OpenFlow version' "$TMPD/tc.log")
[ "$n" -eq $((2 * N)) ] || fail "ovs-testcontroller negotiated $n sessions, want $((2 * N))"

# Trusting the wrong CA: the handshake fails, the switch keeps retrying,
# the connect phase times out.
timeout 30 "$SBSIM" openflow --switches 1 --controller ssl:127.0.0.1:$PORT \
    --ssl-key "$PKI/sw.key" --ssl-cert "$PKI/sw.pem" \
    --ssl-ca "$PKI/otherca.pem" --timeout 1.5 --backoff 100:200 \
    --report "$TMPD/bad.json" -q >"$TMPD/bad.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "wrong CA: exit $rc, want 1"
"$PY" - "$TMPD/bad.json" <<'PYEOF' || fail "wrong CA: report"
import json, sys
r = json.load(open(sys.argv[1]))
c = [p for p in r["phases"] if p["name"] == "connect"][0]
if c["state"] != "TIMEOUT" or c["items"] != 0:
    sys.exit("connect: %s %d" % (c["state"], c["items"]))
if not r["counters"]["connect_failures"] > 0:
    sys.exit("no connect failures counted")
PYEOF
echo "TLS with an untrusted controller certificate: refused"

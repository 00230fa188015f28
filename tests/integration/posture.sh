#!/bin/bash
# Posture (issue 24): the embedded controller's RESTCONF (admin:admin) and
# --metrics-listen given only a port listen on 127.0.0.1, not on every
# address; given 0.0.0.0:PORT they listen on the wildcard and a start-up
# line on stderr says they are open to the network, with which
# credentials.  A protocol listener on ptcp:PORT (every address, as Open
# vSwitch's) is said too, and TLS without --ssl-ca is logged once per
# process however many controllers it connects to.
. "$(dirname "$0")/../lib.sh"
need curl

# listening PORT: the local addresses listening on PORT, one a line.
listening() {
	ss -Hltn 2>/dev/null | awk '{print $4}' | grep -E ":$1\$" | sort
}
# only_loopback PORT WHAT: PORT listens on 127.0.0.1 and nowhere else.
only_loopback() {
	local got
	got=$(listening "$1")
	[ "$got" = "127.0.0.1:$1" ] || fail "$2: listens on '$got', want 127.0.0.1:$1 only"
}

ports=$(free_ports 8)
OFP=$ports RC=$((ports + 1)) MP=$((ports + 2))
OFP2=$((ports + 3)) RC2=$((ports + 4)) MP2=$((ports + 5))
SSL1=$((ports + 6)) SSL2=$((ports + 7))

# 1. Only a port: loopback, and nothing said about the network.
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$OFP:127.0.0.1 \
    --restconf $RC
CTL=$LAST_PID
wait_listen $RC || fail "the controller does not serve RESTCONF"
start_bg "$TMPD/run.log" "$SBSIM" openflow --switches 1 \
    --controller tcp:127.0.0.1:$OFP --duration 30 --metrics-listen $MP
RUN=$LAST_PID
wait_listen $MP || fail "no --metrics-listen"
only_loopback $RC "--restconf $RC"
only_loopback $MP "--metrics-listen $MP"
code=$(curl -s -m 5 -u admin:admin -o /dev/null -w '%{http_code}' \
    "http://127.0.0.1:$RC/rests/data/opendaylight-inventory:nodes?content=nonconfig")
[ "$code" = 200 ] || fail "RESTCONF on 127.0.0.1 answered '$code'"
stop_pid $RUN
stop_pid $CTL
if grep -q "open to the network" "$TMPD/ctl.log" "$TMPD/run.log"; then
	fail "a loopback listener was said open: $(grep -h 'open to' "$TMPD"/*.log)"
fi

# 2. The wildcard when asked for, and said with the credentials; the
# OpenFlow listener on ptcp:PORT (every address) is said too.
start_bg "$TMPD/ctl2.log" "$SBSIM" controller --openflow ptcp:$OFP2 \
    --restconf 0.0.0.0:$RC2
CTL=$LAST_PID
wait_listen $RC2 || fail "the controller does not serve RESTCONF on 0.0.0.0"
start_bg "$TMPD/run2.log" "$SBSIM" openflow --switches 1 \
    --controller tcp:127.0.0.1:$OFP2 --duration 30 \
    --metrics-listen 0.0.0.0:$MP2
RUN=$LAST_PID
wait_listen $MP2 || fail "no --metrics-listen on 0.0.0.0"
[ "$(listening $RC2)" = "0.0.0.0:$RC2" ] ||
    fail "--restconf 0.0.0.0:$RC2 listens on '$(listening $RC2)'"
[ "$(listening $MP2)" = "0.0.0.0:$MP2" ] ||
    fail "--metrics-listen 0.0.0.0:$MP2 listens on '$(listening $MP2)'"
stop_pid $RUN
stop_pid $CTL
grep -h "open to the network" "$TMPD/ctl2.log" "$TMPD/run2.log"
want="sbsim controller: RESTCONF listens on 0.0.0.0:$RC2, open to the network, user admin (default password)"
[ "$(grep -cxF "$want" "$TMPD/ctl2.log")" = 1 ] ||
    fail "no line '$want': $(head -5 "$TMPD/ctl2.log")"
grep -q "OpenFlow listens on 0.0.0.0:$OFP2, open to the network, no authentication" \
    "$TMPD/ctl2.log" || fail "ptcp:$OFP2 was not said open to the network"
grep -q "metrics listens on 0.0.0.0:$MP2, open to the network, no authentication" \
    "$TMPD/run2.log" || fail "--metrics-listen 0.0.0.0:$MP2 was not said"

# 3. TLS without a CA: one line for two controllers' TLS contexts.
run_cli openflow --switches 1 --duration 1 \
    --controller ssl:127.0.0.1:$SSL1,ssl:127.0.0.1:$SSL2
grep -h "TLS" "$TMPD/err"
n=$(grep -c "TLS without --ssl-ca: the peer's certificate is not checked" \
    "$TMPD/err")
[ "$n" = 1 ] || fail "TLS without a CA said $n times, want once"
echo "ok"

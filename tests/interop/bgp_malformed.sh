#!/bin/bash
# Malformed BGP input (RFC 4271 section 6, RFC 7606), with a plain-socket
# Python peer (bgp_malformed.py):
#   (a) against the embedded controller's speaker: OPENs with version 3,
#       hold time 1 and 2, BGP identifier 0, an unknown optional
#       parameter; on established sessions UPDATEs with an unknown
#       well-known attribute, the withdrawn or attribute length past the
#       message, an NLRI prefix of length 33, MP_REACH_NLRI twice, and
#       headers with a bad marker, length 18, 20 for a KEEPALIVE, 4097, type
#       9, an OPEN once established: each gets its NOTIFICATION code and
#       subcode (and data where the RFC says what it is); an UPDATE with
#       ORIGIN 3 is treated as withdraw and the session stays (KEEPALIVEs go
#       on, a following error is still caught); the controller survives;
#   (b) against sbsim's peers: the script plays the controller for one
#       sbsim bgp peer and answers each of its connections with a
#       malformed OPEN (version 3, hold time 1, wrong AS, identifier 0) or,
#       once established, a malformed message; each gets the right
#       NOTIFICATION, sbsim connects again after each, and its report
#       counts the NOTIFICATIONs sent and the treat-as-withdraw.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
HELPER=$(cd "$(dirname "$0")" && pwd)/bgp_malformed.py
base=$(free_ports 2)
P1=$base
P2=$((base + 1))

# (a) The embedded controller's speaker.
start_bg "$TMPD/ctl.log" "$SBSIM" controller --bgp "ptcp:$P1:127.0.0.1" \
    --as 65000
CTL=$LAST_PID
wait_listen "$P1" || fail "the controller does not listen on $P1"
timeout 120 "$PY" "$HELPER" speaker "$P1" >"$TMPD/speaker.out" 2>&1 ||
    fail "against the controller: $(cat "$TMPD/speaker.out")"
cat "$TMPD/speaker.out"
kill -0 "$CTL" 2>/dev/null || fail "the controller died"
stop_pid "$CTL"
[ "$STOP_RC" -eq 0 ] || fail "the controller exited $STOP_RC"

# (b) sbsim's peer against a malformed controller.
start_bg "$TMPD/fake.out" timeout 120 "$PY" "$HELPER" controller "$P2"
FAKE=$LAST_PID
wait_listen "$P2" || fail "the fake controller does not listen on $P2"
start_bg "$TMPD/sb.log" "$SBSIM" bgp --peers 1 --prefixes 10 --as 65001 \
    --peer-as 65000 --controller "tcp:127.0.0.1:$P2" --backoff 100:300 \
    --duration 100 --timeout 100 -q --report "$TMPD/sb.json"
SB=$LAST_PID
wait_exit "$FAKE" 110
rc=$EXIT_RC
cat "$TMPD/fake.out"
[ "$rc" -eq 0 ] || fail "against sbsim's peer"
stop_early "$SB" sbsim
cases=$(sed -n 's/^cases //p' "$TMPD/fake.out")
[ -n "$cases" ] || fail "no case count"
[ "$(counter "$TMPD/sb.json" notifications_sent)" = "$cases" ] ||
    fail "sbsim counted $(counter "$TMPD/sb.json" notifications_sent) NOTIFICATIONs sent, want $cases"
[ "$(counter "$TMPD/sb.json" treat_as_withdraw)" = 1 ] ||
    fail "sbsim counted $(counter "$TMPD/sb.json" treat_as_withdraw) treat-as-withdraw, want 1"
# One connection per case, one for the bad ORIGIN, all of them sbsim's
# reconnects after a NOTIFICATION.
[ "$(counter "$TMPD/sb.json" connect_attempts)" -ge $((cases + 1)) ] ||
    fail "sbsim connected $(counter "$TMPD/sb.json" connect_attempts) times, want $((cases + 1)) or more"
report_check "$TMPD/sb.json" connect 1

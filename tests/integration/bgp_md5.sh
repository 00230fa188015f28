#!/bin/bash
# TCP-MD5 (RFC 2385) between sbsim's BGP peers and the embedded
# controller's speaker (sbsim bgp --md5-password, sbsim controller
# --bgp-md5-password):
#   1. the right key: the sessions come up and the monitor learns every
#      prefix; every connect carried the key (md5_connects), none went
#      unanswered; the same over IPv6 (a listener on ::1);
#   2. a wrong key: the kernel drops the SYNs without a word, so the run
#      ends at --timeout (no hang), exit status 1, the connect phase
#      TIMEOUT, md5_unanswered counts the connects, kernel_md5_failure the
#      drops, and stderr says so; the controller says it at its stop;
#   3. one peer without a key (--md5-password 1=): that peer only is
#      refused, seen as kernel_md5_not_found;
#   4. a key towards a speaker that has none: kernel_md5_unexpected;
#   5. bad keys and ranges are usage errors.
# The kernel's figures are the host's (other sessions count too): only
# "at least one of the kind this case makes" is checked.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=2
P=500
KEY="sbsim md5 key"
NET=$((RANDOM % 200 + 20))	# 127.NET.0.0/24: peers .1-.N, monitor .N+1
SRC=127.$NET.0.0/24
MON=127.$NET.0.$((N + 1))
PORT=$(free_ports 3)	# and the next two
PLAIN=$((PORT + 1))
SIX=$((PORT + 2))

start_bg "$TMPD/ctl.log" "$SBSIM" controller --bgp ptcp:$PORT:127.0.0.1 \
    --as 65000 --bgp-monitor "$MON" --bgp-md5-password "$KEY"
CTL=$LAST_PID
wait_listen "$PORT" || fail "the controller does not listen on $PORT"

# sb NAME ARGS...: sbsim bgp (from $SRC, if set); RC its status,
# SECS how long it took, $TMPD/NAME.json its report, NAME.err its stderr.
sb() {
	local name=$1 t0
	shift
	t0=$(date +%s)
	timeout 60 "$SBSIM" bgp --peers $N --prefixes $P --as 65001 \
	    --peer-as 65000 ${SRC:+--source "$SRC"} \
	    --report "$TMPD/$name.json" -q \
	    "$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err"
	RC=$?
	SECS=$(($(date +%s) - t0))
}
# val NAME EXPR: a value of NAME's report (r: the JSON).
val() {
	json_get "$TMPD/$1.json" "$2"
}
ctr() {
	val "$1" "r['counters'].get('$2', 'absent')"
}
phase() {
	val "$1" "[(p['state'], p['items']) for p in r['phases'] if p['name'] == '$2']"
}

# 1. The right key.
sb ok --controller tcp:127.0.0.1:$PORT --monitor tcp:127.0.0.1:$PORT \
    --monitor-as 65002 --timeout 20 --md5-password "$KEY"
[ "$RC" = 0 ] || fail "right key: exit $RC: $(cat "$TMPD/ok.err")"
[ "$(phase ok connect)" = "[('DONE', $N)]" ] || fail "right key: connect $(phase ok connect)"
[ "$(phase ok learn)" = "[('DONE', $((N * P)))]" ] || fail "right key: learn $(phase ok learn)"
[ "$(ctr ok md5_connects)" -ge $((N + 1)) ] ||
    fail "right key: md5_connects $(ctr ok md5_connects), want >= $((N + 1))"
[ "$(ctr ok md5_unanswered)" = 0 ] || fail "right key: md5_unanswered $(ctr ok md5_unanswered)"
echo "right key: $N sessions up, $((N * P)) prefixes learned by the monitor"

# 1b. Over IPv6: the speaker's listener on ::1 takes the keyed peers.
if grep -qs "^0*1 .* lo$" /proc/net/if_inet6; then
	start_bg "$TMPD/six.log" "$SBSIM" controller --bgp "ptcp:$SIX:[::1]" \
	    --as 65000 --bgp-md5-password "$KEY"
	SIX_PID=$LAST_PID
	wait_listen "$SIX" || fail "the IPv6 controller does not listen"
	SRC="" sb six --controller "tcp:[::1]:$SIX" --timeout 20 --settle 0 \
	    --md5-password "$KEY"
	[ "$RC" = 0 ] || fail "IPv6: exit $RC: $(cat "$TMPD/six.err")"
	[ "$(phase six connect)" = "[('DONE', $N)]" ] || fail "IPv6: connect $(phase six connect)"
	[ "$(ctr six md5_connects)" = $N ] || fail "IPv6: md5_connects $(ctr six md5_connects)"
	stop_pid "$SIX_PID"
	echo "IPv6: $N keyed sessions up"
fi

# 2. A wrong key: refused, counted, said, within the timeout.
sb wrong --controller tcp:127.0.0.1:$PORT --timeout 2 --settle 0 \
    --md5-password wrong-key
[ "$RC" = 1 ] || fail "wrong key: exit $RC, want 1"
[ "$SECS" -le 30 ] || fail "wrong key: the run took $SECS s (--timeout 2)"
[ "$(phase wrong connect)" = "[('TIMEOUT', 0)]" ] || fail "wrong key: connect $(phase wrong connect)"
[ "$(ctr wrong md5_unanswered)" -ge 1 ] || fail "wrong key: md5_unanswered $(ctr wrong md5_unanswered)"
[ "$(ctr wrong kernel_md5_failure)" -ge 1 ] ||
    fail "wrong key: kernel_md5_failure $(ctr wrong kernel_md5_failure)"
grep -q "TCP-MD5: .* connects with a key went unanswered" "$TMPD/wrong.err" ||
    fail "wrong key: not said: $(cat "$TMPD/wrong.err")"
grep -q "with a wrong digest" "$TMPD/wrong.err" || fail "wrong key: the kind not said"
grep -q "result FAILED: connect timed out: 0 of $N" "$TMPD/wrong.err" ||
    fail "wrong key: no failure line"
echo "wrong key: refused in $SECS s, $(ctr wrong md5_unanswered) connects unanswered"

# 3. Peer 1 without a key: it alone is refused (a missing key).
sb missing --controller tcp:127.0.0.1:$PORT --timeout 2 --settle 0 \
    --md5-password "$KEY" --md5-password 1=
[ "$RC" = 1 ] || fail "missing key: exit $RC, want 1"
[ "$(phase missing connect)" = "[('TIMEOUT', 1)]" ] || fail "missing key: connect $(phase missing connect)"
[ "$(ctr missing kernel_md5_not_found)" -ge 1 ] ||
    fail "missing key: kernel_md5_not_found $(ctr missing kernel_md5_not_found)"
grep -q "without a digest where a key was expected" "$TMPD/missing.err" ||
    fail "missing key: the kind not said: $(cat "$TMPD/missing.err")"
echo "a peer without the key: refused, kernel_md5_not_found $(ctr missing kernel_md5_not_found)"

# 4. A key towards a speaker without one.
start_bg "$TMPD/plain.log" "$SBSIM" controller --bgp ptcp:$PLAIN:127.0.0.1 \
    --as 65000
PLAIN_PID=$LAST_PID
wait_listen "$PLAIN" || fail "the keyless controller does not listen"
sb unexpected --controller tcp:127.0.0.1:$PLAIN --timeout 2 --settle 0 \
    --md5-password "$KEY"
[ "$RC" = 1 ] || fail "unexpected key: exit $RC, want 1"
[ "$(ctr unexpected kernel_md5_unexpected)" -ge 1 ] ||
    fail "unexpected key: kernel_md5_unexpected $(ctr unexpected kernel_md5_unexpected)"
stop_pid "$PLAIN_PID"
echo "a key the speaker does not have: refused, kernel_md5_unexpected $(ctr unexpected kernel_md5_unexpected)"

stop_pid "$CTL"
grep -q "bgp: TCP-MD5: the kernel dropped segments while the speaker ran" \
    "$TMPD/ctl.log" || fail "the controller did not say what it dropped: $(tail -3 "$TMPD/ctl.log")"
grep -q "bgp: $((N + 1 + 1)) sessions" "$TMPD/ctl.log" ||
    fail "controller summary: $(grep 'bgp:' "$TMPD/ctl.log")"

# 5. Bad keys and ranges.
LONG=$(printf 'k%.0s' $(seq 81))
bad_usage bgp "--md5-password: a key has at most 80 bytes" --md5-password "$LONG"
bad_usage bgp "--md5-password: '5-2' is not a range" --md5-password 5-2=x
bad_usage bgp "--md5-password: an empty key" --md5-password ""
[ "$FAILS" = 0 ] || fail "$FAILS usage errors not as expected"
echo "TCP-MD5 between sbsim bgp and the embedded controller: ok"

#!/bin/bash
# TCP-MD5 (RFC 2385) between sbsim's PCCs and the embedded controller's
# PCE (sbsim pcep --md5-password, sbsim controller --pcep-md5-password):
#   1. the right key: every session up, every LSP synchronized (the PCE's
#      pcep-topology counts them), every connect keyed, none unanswered;
#   2. a wrong key: the kernel drops the SYNs without a word, so the run
#      ends at --timeout (no hang), exit 1, connect TIMEOUT, md5_unanswered
#      and kernel_md5_failure counted, stderr says so; the controller says
#      what it dropped at its stop;
#   3. PCC 1 without a key (--md5-password 1=): it alone is refused;
#   4. bad keys are usage errors.
# The kernel's figures are the host's (other sessions count too): only
# "at least one of the kind this case makes" is checked.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=3
M=20
KEY="sbsim pcep key"
NET=$((RANDOM % 200 + 20))	# PCCs on 127.NET.0.1-N
SRC=127.$NET.0.0/24
PP=$(free_ports 2)
RP=$((PP + 1))

start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1 \
    --restconf 127.0.0.1:$RP --pcep-md5-password "$KEY"
CTL=$LAST_PID
wait_listen "$PP" || fail "the controller does not listen on $PP"

# pc NAME ARGS...: sbsim pcep; RC its status, SECS how long it took,
# $TMPD/NAME.json its report, NAME.err its stderr.
pc() {
	local name=$1 t0
	shift
	t0=$(date +%s)
	timeout 60 "$SBSIM" pcep --pccs $N --lsps $M --source "$SRC" \
	    --controller tcp:127.0.0.1:$PP --report "$TMPD/$name.json" -q \
	    "$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err"
	RC=$?
	SECS=$(($(date +%s) - t0))
}
ctr() {
	json_get "$TMPD/$1.json" "r['counters'].get('$2', 'absent')"
}
phase() {
	json_get "$TMPD/$1.json" "[(p['state'], p['items']) for p in r['phases'] if p['name'] == '$2']"
}

# 1. The right key.
pc ok --timeout 20 --md5-password "$KEY"
[ "$RC" = 0 ] || fail "right key: exit $RC: $(cat "$TMPD/ok.err")"
[ "$(phase ok connect)" = "[('DONE', $N)]" ] || fail "right key: connect $(phase ok connect)"
[ "$(phase ok sync)" = "[('DONE', $((N * M)))]" ] || fail "right key: sync $(phase ok sync)"
[ "$(ctr ok md5_connects)" = $N ] || fail "right key: md5_connects $(ctr ok md5_connects)"
[ "$(ctr ok md5_unanswered)" = 0 ] || fail "right key: md5_unanswered $(ctr ok md5_unanswered)"
echo "right key: $N sessions up, $((N * M)) LSPs synchronized"

# 2. A wrong key: refused, counted, said, within the timeout.
pc wrong --timeout 2 --md5-password wrong-key
[ "$RC" = 1 ] || fail "wrong key: exit $RC, want 1"
[ "$SECS" -le 30 ] || fail "wrong key: the run took $SECS s (--timeout 2)"
[ "$(phase wrong connect)" = "[('TIMEOUT', 0)]" ] || fail "wrong key: connect $(phase wrong connect)"
[ "$(ctr wrong md5_unanswered)" -ge 1 ] || fail "wrong key: md5_unanswered $(ctr wrong md5_unanswered)"
[ "$(ctr wrong kernel_md5_failure)" -ge 1 ] ||
    fail "wrong key: kernel_md5_failure $(ctr wrong kernel_md5_failure)"
grep -q "TCP-MD5: .* connects with a key went unanswered" "$TMPD/wrong.err" ||
    fail "wrong key: not said: $(cat "$TMPD/wrong.err")"
grep -q "with a wrong digest" "$TMPD/wrong.err" || fail "wrong key: the kind not said"
echo "wrong key: refused in $SECS s, $(ctr wrong md5_unanswered) connects unanswered"

# 3. PCC 1 without a key: it alone is refused (a missing key).
pc missing --timeout 2 --md5-password "$KEY" --md5-password 1=
[ "$RC" = 1 ] || fail "missing key: exit $RC, want 1"
[ "$(phase missing connect)" = "[('TIMEOUT', $((N - 1)))]" ] ||
    fail "missing key: connect $(phase missing connect)"
[ "$(ctr missing kernel_md5_not_found)" -ge 1 ] ||
    fail "missing key: kernel_md5_not_found $(ctr missing kernel_md5_not_found)"
echo "a PCC without the key: refused, kernel_md5_not_found $(ctr missing kernel_md5_not_found)"

stop_pid "$CTL"
# Right key: N sessions; a PCC without the key: N - 1.
grep -q "pcep: $((N + N - 1)) sessions, $((N + N - 1)) PCCs synchronized, .*, $(((N + N - 1) * M)) LSPs learned" \
    "$TMPD/ctl.log" || fail "controller summary: $(grep 'pcep:' "$TMPD/ctl.log")"
grep -q "pcep: TCP-MD5: the kernel dropped segments while the PCE ran" \
    "$TMPD/ctl.log" || fail "the controller did not say what it dropped: $(tail -3 "$TMPD/ctl.log")"

# 4. Bad keys.
LONG=$(printf 'k%.0s' $(seq 81))
bad_usage pcep "--md5-password: a key has at most 80 bytes" --md5-password "$LONG"
bad_usage pcep "--md5-password: an empty key" --md5-password ""
[ "$FAILS" = 0 ] || fail "$FAILS usage errors not as expected"
echo "TCP-MD5 between sbsim pcep and the embedded PCE: ok"

#!/bin/bash
# Malformed and unexpected PCEP input, both roles (pcep_malformed.py):
# a fake PCE that negotiates badly with an sbsim PCC, then sends it
# PCUpds and PCInitiates it must refuse (19/3, 6/9, 19/9, 23/1, 10/8,
# 19/8, 3/1, 2/0) and a header of another version (1/8 and CLOSE); fake
# PCCs that send the embedded PCE reports it must refuse (6/11, 10/8, 6/9,
# 6/8, 19/5), a second session (9), a bad Open twice (1/4, 1/5), framing
# it cannot follow (10/11 and CLOSE).  Both sbsim processes count it all,
# survive, and the PCC reconnects.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
HERE=$(cd "$(dirname "$0")" && pwd)

# sbsim's PCC against the fake PCE.
port=$(free_ports 1)
start_bg "$TMPD/fake-pce.log" "$PY" "$HERE/pcep_malformed.py" pce "$port"
fake=$LAST_PID
wait_listen "$port" || fail "the fake PCE did not listen"
start_bg "$TMPD/pcc.log" "$SBSIM" pcep --pccs 1 --lsps 3 --delegate \
    --pce-initiated --controller tcp:127.0.0.1:$port --backoff 50:200 \
    --duration 60 --report "$TMPD/pcc.json" -q
pcc=$LAST_PID
wait_exit "$fake" 40 || fail "the fake PCE did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "fake PCE cases failed"
stop_pid "$pcc"
[ -s "$TMPD/pcc.json" ] || fail "no report from the PCC"
"$PY" - "$TMPD/pcc.json" <<'PYEOF' || fail "PCC counters"
import json, sys
c = json.load(open(sys.argv[1]))["counters"]
want = {"pcerr_sent": 11, "malformed_messages": 4, "unexpected_messages": 1,
        "open_negotiations": 2, "close_received": 1, "close_sent": 2}
for k, v in want.items():
    if c.get(k, 0) < v:
        sys.exit("%s = %r, want at least %d" % (k, c.get(k), v))
PYEOF

# Fake PCCs against the embedded PCE.
port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$port
ctl=$LAST_PID
wait_listen "$port" || fail "the controller did not listen"
timeout 60 "$PY" "$HERE/pcep_malformed.py" pcc "$port" \
    >"$TMPD/fake-pcc.log" 2>&1 || fail "fake PCC cases failed"
kill -0 "$ctl" 2>/dev/null || fail "the controller died"
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "controller exited $STOP_RC"
grep -Eq "pcep: 3 sessions, .* [1-9][0-9]* PCErrs sent, .* ([6-9]|[1-9][0-9]+) bad messages" \
    "$TMPD/ctl.log" || fail "controller summary: $(grep pcep: "$TMPD/ctl.log")"
exit 0

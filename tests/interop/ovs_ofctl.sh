#!/bin/bash
# ovs-ofctl (Open vSwitch) against a passive sbsim switch, OpenFlow 1.3 or
# 1.0 ($1 = 13 or 10): thousands of flows added, dumped, aggregated,
# tables and ports listed, strict and non-strict deletes leave exactly what
# they should.
. "$(dirname "$0")/../lib.sh"
need ovs-ofctl
need ss
V=${1:-13}
PROTO=OpenFlow$V
N=3000
PORT=$(free_ports 1)
EP=tcp:127.0.0.1:$PORT
OFCTL="timeout 60 ovs-ofctl -O $PROTO"

start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches 1 \
    --controller ptcp:$PORT --duration 120 --report "$TMPD/r.json" -q
SB=$LAST_PID
wait_listen "$PORT" || fail "sbsim did not listen on $PORT"

# N flows: exact IPv4 destinations, a block of /24 prefixes, TCP ports.
"$PY" - "$N" >"$TMPD/flows" <<'PYEOF'
import sys
n = int(sys.argv[1])
for i in range(n):
    a, b = divmod(i, 256)
    if i % 3 == 0:
        print("priority=%d,cookie=0x%x,ip,nw_dst=10.%d.%d.0/24,actions=output:1" % (100 + i % 7, i + 1, a, b))
    elif i % 3 == 1:
        print("priority=200,cookie=0x%x,tcp,nw_src=192.168.%d.%d,tp_dst=80,actions=output:2" % (i + 1, a, b))
    else:
        print("priority=300,cookie=0x%x,in_port=3,dl_src=02:00:00:00:%02x:%02x,actions=output:4" % (i + 1, a, b))
PYEOF
$OFCTL add-flows $EP "$TMPD/flows" || fail "add-flows"

count() { $OFCTL dump-flows $EP "$@" | grep -c 'actions=' ; }
got=$(count)
[ "$got" -eq "$N" ] || fail "dump-flows shows $got flows, want $N"
$OFCTL dump-aggregate $EP | grep -q "flow_count=$N" ||
    fail "dump-aggregate: $($OFCTL dump-aggregate $EP)"
$OFCTL dump-tables $EP >"$TMPD/tables" || fail "dump-tables"
grep -q "active=$N" "$TMPD/tables" || fail "dump-tables: no active=$N"
ports=$($OFCTL dump-ports-desc $EP | grep -c 'addr:')
[ "$ports" -eq 4 ] || fail "dump-ports-desc: $ports ports"
$OFCTL dump-ports $EP >/dev/null || fail "dump-ports"

# Strict delete: exactly one flow, and only with its exact priority.
$OFCTL --strict del-flows $EP "priority=201,tcp,nw_src=192.168.0.1,tp_dst=80"
[ "$(count)" -eq "$N" ] || fail "strict delete with the wrong priority removed flows"
$OFCTL --strict del-flows $EP "priority=200,tcp,nw_src=192.168.0.1,tp_dst=80" ||
    fail "strict del-flows"
want=$((N - 1))
[ "$(count)" -eq "$want" ] || fail "after strict delete: $(count), want $want"

# Non-strict: every TCP flow (N/3 of them, one already gone).
tcp=$(grep -c ',tcp,' "$TMPD/flows")
$OFCTL del-flows $EP "tcp" || fail "non-strict del-flows"
want=$((N - tcp))
[ "$(count)" -eq "$want" ] || fail "after deleting tcp: $(count), want $want"
[ "$(count tcp)" -eq 0 ] || fail "tcp flows left"
# Non-strict on in_port selects the dl_src flows only.
inport=$(grep -c 'in_port=3' "$TMPD/flows")
$OFCTL del-flows $EP "in_port=3" || fail "del-flows in_port=3"
want=$((want - inport))
[ "$(count)" -eq "$want" ] || fail "after in_port delete: $(count), want $want"
# Everything.
$OFCTL del-flows $EP || fail "del-flows (all)"
[ "$(count)" -eq 0 ] || fail "flows left after del-flows"

stop_pid "$SB"
[ -s "$TMPD/r.json" ] || fail "no report after SIGINT"
errs=$(json_get "$TMPD/r.json" 'r["counters"].get("flow_mod_errors", 0)')
[ "$errs" = 0 ] || fail "$errs FLOW_MOD errors"
echo "ovs-ofctl $PROTO: $N flows added, dumped and deleted as expected"

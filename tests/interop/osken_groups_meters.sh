#!/bin/bash
# os-ken (OpenStack's Ryu) as the controller programs groups and meters on
# sbsim switches and reads them back (osken_groups_meters.py): GROUP_DESC,
# GROUP (ref_count), GROUP_FEATURES, METER_CONFIG (bands as sent), METER
# (flow_count), METER_FEATURES, METER_EXISTS for a meter added twice, and
# a meter's delete taking its flows with FLOW_REMOVED (reason DELETE in
# 1.3).  Each switch's verdict comes back as a JSON line; all must be
# clean, and the switches' counters must agree.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
"$PY" -c 'import os_ken.cmd.manager' 2>/dev/null ||
    skip "os-ken (python3-os-ken) is not installed"
need ss
N=2
APP=$(cd "$(dirname "$0")" && pwd)/osken_groups_meters.py
RESULT=$TMPD/result.jsonl

# os-ken takes seconds to start (its imports): poll, 20 s at most.
wait_osken() {
	local i=0
	while [ $i -lt 200 ]; do
		ss -Hltn 2>/dev/null | awk '{print $4}' | grep -qE ":$1\$" &&
		    return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

PORT=$(free_ports 1)
start_bg "$TMPD/osken.log" env PYTHONDONTWRITEBYTECODE=1 \
    OSKEN_RESULT="$RESULT" "$PY" -m os_ken.cmd.manager \
    --ofp-listen-host 127.0.0.1 --ofp-tcp-listen-port "$PORT" "$APP"
OSKEN=$LAST_PID
wait_osken "$PORT" "$OSKEN" || fail "os-ken did not listen on $PORT"

start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches $N \
    --of-version 1.3 --controller tcp:127.0.0.1:$PORT --duration 120 \
    --report "$TMPD/r.json" -q
SB=$LAST_PID

# Every switch's verdict, 30 s at most.
verdicts() { if [ -f "$RESULT" ]; then wc -l <"$RESULT"; else echo 0; fi; }
i=0
while [ "$(verdicts)" -lt $N ]; do
	[ $i -lt 300 ] || fail "$(verdicts) of $N verdicts"
	kill -0 "$OSKEN" 2>/dev/null || fail "os-ken died"
	sleep 0.1
	i=$((i + 1))
done
stop_pid "$SB"
"$PY" - "$RESULT" "$TMPD/r.json" "$N" <<'PYEOF' || fail "verdicts"
import json, sys
n = int(sys.argv[3])
v = [json.loads(l) for l in open(sys.argv[1])]
bad = [x for x in v if x["errors"]]
if bad or len(v) != n:
    sys.exit("os-ken found: %s" % bad)
c = json.load(open(sys.argv[2]))["counters"]
want = {"group_mods": 4 * n, "group_mod_errors": 0, "meter_mods": 4 * n,
        "meter_mod_errors": n, "flow_removed_sent": 2 * n}
got = {k: c.get(k) for k in want}
if got != want:
    sys.exit("counters %s, want %s" % (got, want))
PYEOF
kill -0 "$OSKEN" 2>/dev/null || fail "os-ken died"
grep -E 'Traceback|ERROR' "$TMPD/osken.log" && fail "os-ken logged errors"
echo "os-ken: groups and meters programmed on $N switches, read back and deleted"

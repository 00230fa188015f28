#!/bin/bash
# ovs-testcontroller (Open vSwitch's reference learning-switch controller)
# with 16 sbsim switches (its limit): OpenFlow 1.3, 1.0, and 1.0 chosen by
# version negotiation when the controller only speaks 1.0.  Every switch
# connects, nothing is refused either way.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ovs-testcontroller
need ss
N=16

# check TAG WIRE_VERSION "TESTCONTROLLER OPTIONS" "SBSIM OPTIONS"
check() {
	local tag=$1 wire=$2 topts=$3 sopts=$4 port n
	port=$(free_ports 1)
	# shellcheck disable=SC2086
	start_bg "$TMPD/tc-$tag.log" ovs-testcontroller \
	    --unixctl="$TMPD/tc-$tag.ctl" -vvconn:console:dbg $topts \
	    ptcp:$port:127.0.0.1
	local tc=$LAST_PID
	wait_listen "$port" || fail "$tag: ovs-testcontroller did not listen"
	# shellcheck disable=SC2086
	timeout 30 "$SBSIM" openflow --switches $N $sopts \
	    --controller tcp:127.0.0.1:$port --timeout 15 \
	    --report "$TMPD/$tag.json" -q >"$TMPD/sw-$tag.log" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || fail "$tag: sbsim openflow exited $rc"
	"$PY" - "$TMPD/$tag.json" "$N" <<'PYEOF' || fail "$tag: report"
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
c = [p for p in r["phases"] if p["name"] == "connect"][0]
if c["state"] != "DONE" or c["items"] != n:
    sys.exit("connect: %s %d" % (c["state"], c["items"]))
k = r["counters"]
for name in ("errors_sent", "errors_received", "decode_errors",
             "flow_mod_errors", "disconnects"):
    if k[name]:
        sys.exit("%s = %d" % (name, k[name]))
if k["connect_attempts"] != n:
    sys.exit("connect_attempts %d" % k["connect_attempts"])
PYEOF
	kill -0 "$tc" 2>/dev/null || fail "$tag: ovs-testcontroller died"
	grep -qE '\|(ERR|EMER)\|' "$TMPD/tc-$tag.log" &&
	    fail "$tag: ovs-testcontroller logged errors"
	n=$(grep -c "negotiated OpenFlow version $wire " "$TMPD/tc-$tag.log")
	[ "$n" -eq "$N" ] ||
	    fail "$tag: $n switches negotiated OpenFlow version $wire, want $N"
	kill "$tc"
	wait "$tc" 2>/dev/null
	echo "$tag: $N switches connected"
}

check of13 0x04 "" "--of-version 1.3"
check of10 0x01 "" "--of-version 1.0"
check default 0x04 "" ""
check negotiated10 0x01 "-O OpenFlow10" ""

#!/bin/bash
# cbench-style PACKET_IN load against os-ken (OpenStack's Ryu), a real
# controller framework whose applications take PACKET_INs only once the
# handshake is over (MAIN_DISPATCHER: after the FEATURES_REPLY and, in
# OpenFlow 1.3, the port description); what comes earlier is dropped.
# The app (osken_packet_in.py) answers each PACKET_IN with a PACKET_OUT
# naming its buffer id.  Both modes must end DONE with every switch's
# every PACKET_IN answered: the switches wait for the controller's first
# message after its handshake (its table-miss FLOW_MOD) or, in 1.0 where
# the app sends none, for --packet-in-wait; in latency mode a PACKET_IN
# the app drops (its first from datapath ids 1000 and up) is sent again.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/osken.sh"
N=4
APP=$(cd "$(dirname "$0")" && pwd)/osken_packet_in.py

# check TAG MODE VERSION COUNT DPID_BASE: the run ends ok with N * COUNT
# PACKET_INs answered; the report's counters go to $TMPD/TAG.counters.
check() {
	local tag=$1 mode=$2 v=$3 count=$4 base=$5 total
	total=$((N * count))
	timeout 40 "$SBSIM" openflow --switches $N --of-version "$v" \
	    --dpid-base "$base" --controller tcp:127.0.0.1:$PORT \
	    --packet-in "$mode" --packet-in-count "$count" \
	    --packet-in-window 16 --timeout 15 \
	    --report "$TMPD/$tag.json" -q >"$TMPD/sw-$tag.log" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || fail "$tag: sbsim openflow exited $rc"
	"$PY" - "$TMPD/$tag.json" "$total" "$TMPD/$tag.counters" <<'PYEOF' ||
import json, sys
r = json.load(open(sys.argv[1]))
total = int(sys.argv[2])
if r["ok"] is not True:
    sys.exit("ok is %r" % r["ok"])
p = [p for p in r["phases"] if p["name"] == "packet_in"][0]
if p["state"] != "DONE" or p["items"] != total or p["target"] != total:
    sys.exit("packet_in: %s %s/%s" % (p["state"], p["items"], p["target"]))
if p["latency_us"]["samples"] != total:
    sys.exit("%d latency samples" % p["latency_us"]["samples"])
c = r["counters"]
if c["packet_ins_sent"] != total or c["packet_outs"] < total:
    sys.exit("packet_ins_sent %d, packet_outs %d" %
             (c["packet_ins_sent"], c["packet_outs"]))
for k in ("errors_sent", "errors_received", "decode_errors", "disconnects"):
    if c.get(k, 0):
        sys.exit("%s = %d" % (k, c[k]))
with open(sys.argv[3], "w") as f:
    for k in ("packet_ins_resent", "packet_in_waits"):
        f.write("%s %d\n" % (k, c.get(k, 0)))
PYEOF
	    fail "$tag: report"
	echo "$tag: $total PACKET_INs answered by os-ken"
}

# counter TAG NAME: its value in the run's report.
counter() {
	awk -v k="$2" '$1 == k { print $2 }' "$TMPD/$1.counters"
}

osken_start "$APP"

check latency13 latency 1.3 50 1
check throughput13 throughput 1.3 400 1
# The table-miss FLOW_MOD began the load: no switch waited it out.
[ "$(counter latency13 packet_in_waits)" -eq 0 ] ||
    fail "latency13: a switch waited for --packet-in-wait"
[ "$(counter throughput13 packet_in_waits)" -eq 0 ] ||
    fail "throughput13: a switch waited for --packet-in-wait"
# Each switch's first PACKET_IN is dropped by the app: sent again.
check resend13 latency 1.3 20 1000
[ "$(counter resend13 packet_ins_resent)" -ge $N ] ||
    fail "resend13: $(counter resend13 packet_ins_resent) resent, want $N"
# 1.0: os-ken is ready at the FEATURES_REPLY, and the app sends nothing
# after it: every switch begins at --packet-in-wait.
check latency10 latency 1.0 20 1
[ "$(counter latency10 packet_in_waits)" -eq $N ] ||
    fail "latency10: $(counter latency10 packet_in_waits) waited, want $N"
osken_ok
exit 0

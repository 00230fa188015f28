#!/bin/bash
# cbench-style PACKET_IN load against the embedded controller: latency mode
# (one outstanding per switch) and throughput mode (a window), answered by
# PACKET_OUT or FLOW_MOD naming the buffer id, OpenFlow 1.3 and 1.0.  Every
# PACKET_IN is answered and timed; nothing asserts a speed.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=4
COUNT=200

# check MODE REPLY VERSION
check() {
	local mode=$1 reply=$2 v=$3 port tag=$1-$2-$3 total out
	port=$(free_ports 1)
	total=$((N * COUNT))
	start_bg "$TMPD/ctl-$tag.log" "$SBSIM" controller \
	    --openflow ptcp:$port --packet-in-reply $reply --duration 60
	local ctl=$LAST_PID
	wait_listen "$port" || fail "$tag: controller did not listen"
	timeout 30 "$SBSIM" openflow --switches $N --of-version $v \
	    --controller tcp:127.0.0.1:$port --packet-in $mode \
	    --packet-in-count $COUNT --packet-in-window 16 --timeout 20 \
	    --report "$TMPD/$tag.json" -q >"$TMPD/sw-$tag.log" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || fail "$tag: sbsim openflow exited $rc"
	stop_pid "$ctl"
	[ "$STOP_RC" -eq 0 ] || fail "$tag: controller exited $STOP_RC"
	"$PY" - "$TMPD/$tag.json" "$total" "$reply" <<'PYEOF' || fail "$tag: report"
import json, sys
r = json.load(open(sys.argv[1]))
total, reply = int(sys.argv[2]), sys.argv[3]
if r["ok"] is not True:
    sys.exit("ok is %r" % r["ok"])
p = [p for p in r["phases"] if p["name"] == "packet_in"][0]
if p["state"] != "DONE" or p["items"] != total or p["target"] != total:
    sys.exit("packet_in: %s %s/%s" % (p["state"], p["items"], p["target"]))
lat = p["latency_us"]
if lat["samples"] != total:
    sys.exit("%d latency samples" % lat["samples"])
if not 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"]:
    sys.exit("latency percentiles: %r" % lat)
if not p["rate_per_s"] > 0 or not p["seconds"] > 0:
    sys.exit("rate %r seconds %r" % (p["rate_per_s"], p["seconds"]))
c = r["counters"]
if c["packet_ins_sent"] != total:
    sys.exit("packet_ins_sent %d" % c["packet_ins_sent"])
answers = c["packet_outs"] if reply == "packet-out" else c["flows_added"]
if answers != total:
    sys.exit("%s answers: %d" % (reply, answers))
for k in ("errors_sent", "errors_received", "decode_errors", "flow_mod_errors"):
    if c[k]:
        sys.exit("%s = %d" % (k, c[k]))
PYEOF
	out=$(grep '^controller:' "$TMPD/ctl-$tag.log")
	case "$out" in
	*" $total PACKET_INs,"*" 0 errors received, 0 bad messages"*) ;;
	*) fail "$tag: controller summary: $out" ;;
	esac
	echo "$tag: $total PACKET_INs answered"
}

check latency packet-out 1.3
check latency flow-mod 1.3
check throughput packet-out 1.3
check throughput flow-mod 1.3
check latency packet-out 1.0
check throughput flow-mod 1.0

#!/bin/bash
# Numbers that match the wire, OpenFlow: 50 switches take K flows each
# from the embedded controller, which then deletes them one by one; the
# run is captured on lo and scripts/wirecheck recomputes program and
# delete from the capture (the first FLOW_MOD to the switch's
# BARRIER_REPLY after the last, docs/report.md "Phase windows"): the
# item counts must be equal and the rates within 2%, over windows of
# 0.1 s at least (K doubles until they are).  Once with OpenFlow 1.3,
# once with 1.0; then wirecheck's errors on a bad report or capture.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need dumpcap
need ss
N=50		# switches
V=1.3

# run_of K: one run; 1 when a window was too short.
run_of() {
	local k=$1 port d="$TMPD/$V-$1"
	port=$(free_ports 1)
	wire_capture "tcp port $port" "$d"
	# Small batches and windows: the phases last longer.
	start_bg "$TMPD/ctl-$V.log" "$SBSIM" controller \
	    --openflow ptcp:$port --of-version $V --switches $N \
	    --flows-per-switch "$k" --batch 20 --window 2 --delete strict \
	    --exit-when-done
	local ctl=$LAST_PID
	wait_listen "$port" || fail "$V: controller did not listen on $port"
	timeout 50 "$SBSIM" openflow --switches $N --of-version $V \
	    --controller tcp:127.0.0.1:$port --expect-flows $((N * k)) \
	    --report "$d/r.json" --timeout 20 -q >"$TMPD/sw-$V.log" 2>&1 ||
	    fail "$V: sbsim openflow exited $?"
	wait_exit "$ctl" 15 || fail "$V: controller did not exit when done"
	wire_check "$d" program:device delete:device
}

for V in 1.3 1.0; do
	echo "# OpenFlow $V"
	wire_scaled run_of 2000 16000
done

# A bad report or capture: a clear error and exit status 2.
r=$(ls "$TMPD"/1.0-*/r.json | head -1)
head -c 200 "$r" >"$TMPD/cut.json"
printf 'not a capture, but long enough\n' >"$TMPD/bad.pcap"
for bad in "$TMPD/cut.json ${r%/*}/wire.pcapng:not a JSON report" \
    "$r $TMPD/bad.pcap:not a pcap or pcapng" "$r $TMPD/none:No such file"; do
	"$PY" "$WIRECHECK" ${bad%%:*} >"$TMPD/bad.out" 2>&1
	[ $? -eq 2 ] && grep -q "^wirecheck: .*${bad#*:}" "$TMPD/bad.out" ||
	    fail "wirecheck ${bad%%:*}: $(cat "$TMPD/bad.out")"
done
exit 0

#!/bin/bash
# Numbers that match the wire, OpenFlow: 50 switches take K flows each
# from the embedded controller, which then deletes them one by one; the
# run is captured on lo and scripts/wirecheck recomputes program and
# delete from the capture (the first FLOW_MOD to the switch's
# BARRIER_REPLY after the last, docs/report.md "Phase windows"): the
# item counts must be equal and the rates within 2%, over windows of
# 0.1 s at least (K doubles until they are).  Once with OpenFlow 1.3,
# once with 1.0.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need dumpcap
need ss
N=50		# switches
V=1.3

# run_of K: one run; 1 when a window was too short.
run_of() {
	local k=$1 port d
	port=$(free_ports 1)
	d="$TMPD/$V-$k"
	mkdir -p "$d"
	wire_capture "tcp port $port" "$d/of.pcapng"
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
	[ "$(json_get "$d/r.json" \
	    "[p['witness'] for p in r['phases'] if p['name']=='program'][0]")" \
	    = device ] || fail "$V: program's witness is not device"
	wire_check "$d/r.json" "$d/of.pcapng" program delete
}

for V in 1.3 1.0; do
	echo "# OpenFlow $V"
	wire_scaled run_of 2000 16000
done
exit 0

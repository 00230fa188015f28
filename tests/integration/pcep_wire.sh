#!/bin/bash
# Numbers that match the wire, PCEP: 64 PCCs with M delegated LSPs each
# synchronize with the embedded PCE, which then updates every LSP; the
# run is captured on lo and scripts/wirecheck recomputes sync (the first
# synchronization PCRpt to the PCE's acknowledgment of the last
# end-of-synchronization marker) and update (the first PCUpd to the
# PCRpt answering the last), docs/report.md "Phase windows": item counts
# equal, rates within 2%, over windows of 0.1 s at least (M doubles until
# they are).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need dumpcap
need ss
N=64		# PCCs

# run_pcep M: one run; 1 when a window was too short.
run_pcep() {
	local m=$1 port d="$TMPD/$1"
	port=$(free_ports 1)
	wire_capture "tcp port $port" "$d"
	start_bg "$TMPD/ctl.log" "$SBSIM" controller \
	    --pcep ptcp:$port:127.0.0.1 --pcep-update-all 16
	local ctl=$LAST_PID
	wait_listen "$port" || fail "controller did not listen on $port"
	timeout 50 "$SBSIM" pcep --pccs $N --lsps "$m" --delegate \
	    --expect-updates $((N * m)) --controller tcp:127.0.0.1:$port \
	    --timeout 20 --report "$d/r.json" -q >"$TMPD/pcc.log" 2>&1 ||
	    fail "sbsim pcep exited $?"
	stop_pid "$ctl"
	wire_check "$d" sync:tcp_ack update:device
}

wire_scaled run_pcep 1024 8192
exit 0

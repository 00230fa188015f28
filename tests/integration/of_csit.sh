# Sourced by the of_csit_*.sh tests: start `sbsim controller` with
# RESTCONF and N sbsim OpenFlow switches, then run one suite of
# of_csit.py (the requests and checks of OpenDaylight's CSIT, replayed).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss

# csit_start N [controller options...]: leaves OF_PORT and RC_PORT.
csit_start() {
	local n=$1
	shift
	OF_PORT=$(free_ports 1)
	RC_PORT=$(free_ports 1)
	csit_capture "tcp port $OF_PORT or tcp port $RC_PORT"
	start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow "ptcp:$OF_PORT" \
	    --restconf "127.0.0.1:$RC_PORT" --stats-interval 0.2 "$@"
	wait_listen "$OF_PORT" || fail "controller did not listen on $OF_PORT"
	wait_listen "$RC_PORT" || fail "controller did not serve RESTCONF"
	# shellcheck disable=SC2086
	start_bg "$TMPD/sw.log" "$SBSIM" openflow --switches "$n" \
	    --controller "tcp:127.0.0.1:$OF_PORT" --duration 60 -q \
	    ${OF_SWITCH_ARGS:-}
}

# csit_run SUITE ARGS...: the suite against the controller; then its
# OpenFlow and RESTCONF frames decoded, none malformed.
csit_run() {
	"$PY" "$(dirname "$0")/of_csit.py" "$RC_PORT" "$@" ||
	    fail "CSIT suite $1"
	csit_decoded openflow_v4 -d "tcp.port==$OF_PORT,openflow" \
	    -d "tcp.port==$RC_PORT,http"
}

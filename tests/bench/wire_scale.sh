#!/bin/bash
# Bench (not part of make check): the wire check at scale.  Each protocol
# runs against the embedded controller with 100 000 items or more per
# phase while dumpcap captures the southbound connections on lo; then
# scripts/wirecheck prints, per phase, the report's items, seconds and
# rate next to the ones it recomputes from the capture (docs/report.md,
# "Phase windows"), with the difference (goal: within 1%).
#   openflow  100 switches x 2000 flows: program, delete
#   bgp       1 peer x 500 000 prefixes, with a monitor: announce, learn,
#             withdraw; and without one: announce, withdraw
#   pcep      256 PCCs x 512 LSPs: sync, update
#   netconf   100 devices over TCP, 1000 interfaces each (100 a request)
#             and 100 notifications of 10 prefixes each: program, learn
# Usage: tests/bench/wire_scale.sh [PROTOCOL...]   (default: all four).
# Needs root for dumpcap on lo.  Figures to read, never pass/fail.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
need dumpcap
NET=$((RANDOM % 200 + 20))

# capture NAME FILTER: dumpcap into $TMPD/NAME.pcapng, 590 s at most.
capture() {
	start_bg "$TMPD/$1.dumpcap" dumpcap -q -i lo -B 256 -a duration:590 \
	    -f "$2" -w "$TMPD/$1.pcapng"
	CAP=$LAST_PID
	sleep 1.5
}

# check NAME: stop the capture and compare.
check() {
	sleep 0.5
	stop_pid "$CAP"
	echo "== $1"
	"$PY" "$WIRECHECK" -t 1 "$TMPD/$1.json" "$TMPD/$1.pcapng"
	grep -h "dropped" "$TMPD/$1.dumpcap"
	echo
}

bench_openflow() {
	local port=$(free_ports 1)
	capture openflow "tcp port $port"
	start_bg "$TMPD/of.ctl" "$SBSIM" controller --openflow ptcp:$port \
	    --switches 100 --flows-per-switch 2000 --delete strict \
	    --exit-when-done
	wait_listen "$port"
	"$SBSIM" openflow --switches 100 --controller tcp:127.0.0.1:$port \
	    --expect-flows 200000 --timeout 60 -q \
	    --report "$TMPD/openflow.json"
	check openflow
}

# bench_bgp NAME MONITOR
bench_bgp() {
	local port=$(free_ports 1) mon=""
	[ "$2" = 1 ] && mon="--monitor tcp:127.0.0.1:$port"
	capture "$1" "tcp port $port"
	start_bg "$TMPD/$1.ctl" "$SBSIM" controller \
	    --bgp ptcp:$port:127.0.0.1 --as 65000 --bgp-monitor 127.$NET.0.2
	wait_listen "$port"
	# shellcheck disable=SC2086
	"$SBSIM" bgp --peers 1 --prefixes 500000 --as 65001 --peer-as 65000 \
	    --source 127.$NET.0.0/24 --controller tcp:127.0.0.1:$port $mon \
	    --withdraw --timeout 60 -q --report "$TMPD/$1.json"
	stop_pid "$LAST_PID"
	check "$1"
}

bench_pcep() {
	local port=$(free_ports 1)
	capture pcep "tcp port $port"
	start_bg "$TMPD/pcep.ctl" "$SBSIM" controller \
	    --pcep ptcp:$port:127.0.0.1 --pcep-update-all 64
	wait_listen "$port"
	"$SBSIM" pcep --pccs 256 --lsps 512 --delegate \
	    --expect-updates $((256 * 512)) --controller tcp:127.0.0.1:$port \
	    --timeout 60 -q --report "$TMPD/pcep.json"
	stop_pid "$LAST_PID"
	check pcep
}

bench_netconf() {
	local port=$(free_ports 101) rport
	rport=$((port + 100))
	capture netconf "tcp portrange $port-$((port + 99))"
	start_bg "$TMPD/nc.ctl" "$SBSIM" controller --netconf \
	    --netconf-subscribe --restconf 127.0.0.1:$rport
	wait_listen "$rport"
	"$SBSIM" netconf --devices 100 --listen ptcp:$port:127.0.0.1 \
	    --transport tcp --notifications 100 \
	    --prefixes-per-notification 10 \
	    --northbound odl:http://127.0.0.1:$rport --northbound-parallel 8 \
	    --edits 1000 --edits-per-request 100 --expect-edits 100000 \
	    --timeout 60 -q \
	    --report "$TMPD/netconf.json"
	stop_pid "$LAST_PID"
	check netconf
}

for p in ${@:-openflow bgp pcep netconf}; do
	case $p in
	bgp)
		bench_bgp bgp_monitor 1
		bench_bgp bgp 0
		;;
	*)
		"bench_$p"
		;;
	esac
done

#!/bin/bash
# Bench: N NETCONF devices (sbsim netconf) mounted by the embedded
# controller in its own process, over TCP and over SSH separately, through
# the controller's RESTCONF (sbsim's --northbound: PATCHes of B nodes);
# then E edit-configs per device through the mount point and K
# notifications of J prefixes per device.  Prints, per transport: devices,
# mount rate (devices/s) and time until all were connected (as polled
# through RESTCONF, and as the controller saw it), sbsim's RSS per device,
# edit-configs/s (their arrival at the devices) and notification
# prefixes/s (counted by the controller).
#   N=5000 B=200 E=1 K=1 J=100 tests/bench/netconf_mount.sh [tcp] [ssh]
# T=300: sbsim netconf's --timeout.  SOURCE=127.77.0.0/16: the devices on
# an address each, all at one port behind one shared listener (--source),
# instead of PORT+i.
# Two processes, each under the open-file limit: the controller needs one
# descriptor per session, the devices two per device (one with SOURCE:
# their sessions, and one listener for all).  sbsim netconf's descriptors
# are sampled while it runs (the most seen).  Timed assertions belong
# here, never in make check.
. "$(dirname "$0")/../lib.sh"
need ss
N=${N:-2000}
B=${B:-100}
E=${E:-1}
K=${K:-1}
J=${J:-100}
P=${P:-4}
T=${T:-300}
TRS=${*:-tcp ssh}
SOURCE=${SOURCE:-}
ulimit -n "$(ulimit -Hn)" 2>/dev/null

rport=$(free_ports 1)
# A base port with nothing listening on any of the N ports above it.
free_range() {
	ss -Htan 2>/dev/null | awk '{print $4}' | sed 's/.*://' |
	    "$PY" -c '
import sys
n = int(sys.argv[1]); used = set(int(l) for l in sys.stdin if l.strip())
for base in range(10000, 32768 - n, 500):
    if not any(p in used for p in range(base, base + n)):
        print(base); break
else:
    print(10000)' "$1"
}
ph() { json_get "$1" "[p for p in r['phases'] if p['name']=='$2'][0]['$3']"; }

for tr in $TRS; do
	start_bg "$TMPD/ctl-$tr.log" "$SBSIM" controller --netconf \
	    --netconf-subscribe --netconf-max-inflight 512 \
	    --restconf 127.0.0.1:$rport
	ctl=$LAST_PID
	wait_listen $rport || fail "the controller did not serve RESTCONF"
	if [ -n "$SOURCE" ]; then
		port=$(free_ports 1)
		where="ptcp:$port --source $SOURCE"
	else
		port=$(free_range "$N")
		where="ptcp:$port:127.0.0.1"
	fi
	key=
	[ "$tr" = ssh ] && key="--host-key $TMPD/hostkey"
	# shellcheck disable=SC2086
	"$SBSIM" netconf --devices "$N" --listen $where \
	    --transport "$tr" $key --northbound odl:http://127.0.0.1:$rport \
	    --mount-batch "$B" --northbound-parallel "$P" --edits "$E" \
	    --notifications "$K" --prefixes-per-notification "$J" \
	    --northbound-poll 0.2 --timeout "$T" --report "$TMPD/$tr.json" \
	    -q >"$TMPD/dev-$tr.log" 2>&1 &
	dev=$!
	fds=0
	while kill -0 $dev 2>/dev/null; do
		f=$(ls /proc/$dev/fd 2>/dev/null | wc -l)
		[ "$f" -gt "$fds" ] && fds=$f
		sleep 0.5
	done
	wait $dev
	rc=$?
	ctl_rss=$(awk '/VmHWM/ {print $2}' /proc/$ctl/status 2>/dev/null)
	stop_pid "$ctl"
	[ $rc -eq 0 ] || { echo "warning: sbsim netconf ($tr) exited $rc:" \
	    "$(tail -3 "$TMPD/dev-$tr.log")" >&2; [ -f "$TMPD/$tr.json" ] ||
	    continue; }
	R="$TMPD/$tr.json"
	rss=$(json_get "$R" "r['counters'].get('sbsim_max_rss_kb', 0)")
	ctl_line=$(grep '^netconf:' "$TMPD/ctl-$tr.log")
	printf '%s: %s devices%s, at most %s descriptors in sbsim netconf\n' \
	    "$tr" "$N" "${SOURCE:+ on $SOURCE}" "$fds"
	printf '  mount (RESTCONF, all connected):  %.3f s, %.0f devices/s\n' \
	    "$(ph "$R" mounted seconds)" "$(ph "$R" mounted rate_per_s)"
	printf '  mount (device side, get done):    %.3f s, %.0f devices/s\n' \
	    "$(ph "$R" mount seconds)" "$(ph "$R" mount rate_per_s)"
	printf '  controller: %s\n' "$(echo "$ctl_line" |
	    grep -o 'last connected [0-9.]* s after the first mount')"
	printf '  sbsim netconf RSS: %s kB, %.1f kB per device; controller ' \
	    "$rss" "$(echo "$rss / $N" | bc -l)"
	printf 'RSS %s kB, %.1f kB per mounted device\n' "${ctl_rss:-?}" \
	    "$(echo "${ctl_rss:-0} / $N" | bc -l)"
	printf '  edit-configs: %s in %.3f s, %.0f/s (arrival at the devices)\n' \
	    "$(ph "$R" program items)" "$(ph "$R" program seconds)" \
	    "$(ph "$R" program rate_per_s)"
	printf '  notification prefixes: %s counted by the controller in ' \
	    "$(ph "$R" nb_learn items)"
	printf '%.3f s (%.0f/s, polled); sent in %.3f s (%.0f/s)\n' \
	    "$(ph "$R" nb_learn seconds)" "$(ph "$R" nb_learn rate_per_s)" \
	    "$(ph "$R" learn seconds)" "$(ph "$R" learn rate_per_s)"
	printf '  unmount: %.3f s\n' "$(ph "$R" unmounted seconds)"
done

#!/bin/bash
# Command-line errors: each gets one line on stderr that names the
# problem, nothing on stdout, exit status 2, and never a crash or a hang.
# Help and version exit 0.
. "$(dirname "$0")/../lib.sh"
C="--controller tcp:127.0.0.1:9"
problem() {
	echo "FAIL: sbsim $*" >&2
	echo "  exit $RC; stderr: $ERR" >&2
	[ -z "$OUT" ] || echo "  stdout: $(echo "$OUT" | head -3)" >&2
	FAILS=$((FAILS + 1))
}

# bad REGEX ARGS...: a usage error whose one stderr line matches REGEX.
bad() {
	local re=$1
	shift
	run_cli "$@"
	is_usage_error "$re" || problem "$@"
}

good() {
	run_cli "$@"
	if [ $RC -ne 0 ] || [ -z "$OUT" ] || [ -n "$ERR" ]; then
		problem "$@"
	fi
}

bad 'missing command'
bad "unknown command 'bogus'" bogus
bad "unknown phase 'nosuch'" openflow --switches 1 $C --expect 'nosuch.items>=1'
bad "unknown option '--bogus'" openflow --bogus $C
bad "unknown option '--nope'" controller --nope
bad "--switches N is required" openflow $C
bad "--switches: 'abc' is not a whole number" openflow --switches abc $C
bad "--switches: '0' is not a whole number" openflow --switches 0 $C
bad "--switches: '-5'" openflow --switches -5 $C
bad "--switches: '99999999999999999999'" openflow \
    --switches 99999999999999999999 $C
bad "--switches needs an argument" openflow --switches
bad "--controller is required" openflow --switches 1
bad "--controller: 'garbage'" openflow --switches 1 --controller garbage
bad "--controller: .*bad port '99999'" openflow --switches 1 \
    --controller tcp:1.2.3.4:99999
bad "--controller: .*bad port ''" openflow --switches 1 \
    --controller tcp:127.0.0.1:
bad "--controller: .*bad IP address '1.2.3'" openflow --switches 1 \
    --controller tcp:1.2.3:6653
bad "--of-version: '2.0'" openflow --switches 1 $C --of-version 2.0
bad "--of-version: .* too long" openflow --switches 1 $C \
    --of-version 1.3,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,2.0
bad "--topology: 'star'" openflow --switches 1 $C --topology star
bad "--topology needs at least 4 ports" openflow --switches 7 $C \
    --topology tree:3 --ports 2
bad "--topology ring needs 3 switches" openflow --switches 2 $C \
    --topology ring
bad "--expect 'foo'" openflow --switches 1 $C --expect foo
bad "--expect 'program.rate>=5': unknown metric 'rate'" openflow \
    --switches 1 $C --expect 'program.rate>=5'
bad "--expect 'connect.items>=abc'" openflow --switches 1 $C \
    --expect 'connect.items>=abc'
bad "--repeat: '0'" openflow --switches 1 $C --repeat 0
bad "--duration: '-1'" openflow --switches 1 $C --duration -1
bad "--timeout: '0'" openflow --switches 1 $C --timeout 0
bad "--backoff" openflow --switches 1 $C --backoff 500:100
bad "--ports: '65'" openflow --switches 1 $C --ports 65
bad "--packet-in: 'bogus'" openflow --switches 1 $C --packet-in bogus
bad "--source: '300.1.1.1/8'" openflow --switches 1 $C \
    --source 300.1.1.1/8
bad "--source makes no sense with ptcp" openflow --switches 1 \
    --controller ptcp:7777 --source 127.0.0.0/8
bad "different address families" openflow --switches 1 \
    --controller 'tcp:[::1]:9' --source 127.2.0.0/16
bad "ptcp:65500 with 100 switches would need ports past 65535" openflow \
    --switches 100 --controller ptcp:65500
# The same check (run_listen_ports()) for every protocol whose devices listen.
bad "ptcp:65500 with 100 peers would need ports past 65535" bgp \
    --peers 100 --as 65001 --controller ptcp:65500
bad "ptcp:65500 with 100 devices would need ports past 65535" netconf \
    --devices 100 --listen ptcp:65500
bad "ptcp:65500 with 100 devices would need ports past 65535" ovsdb \
    --devices 100 --controller ptcp:65500
bad "unexpected argument 'extra'" openflow --switches 1 $C extra
bad "--ssl-key /nonexistent: No such file" openflow --switches 1 \
    --controller ssl:127.0.0.1:9 --ssl-key /nonexistent
echo "not a certificate" >"$TMPD/notpem"
bad "--ssl-cert $TMPD/notpem: no start line" openflow --switches 1 \
    --controller ssl:127.0.0.1:9 --ssl-cert "$TMPD/notpem"
# More devices than file descriptors: a hard limit of 1000 here.
fds_bad() {
	local re=$1
	shift
	timeout 10 bash -c 'ulimit -Sn 1000 && ulimit -Hn 1000 && exec "$@"' \
	    fds "$SBSIM" "$@" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	OUT=$(cat "$TMPD/out")
	ERR=$(cat "$TMPD/err")
	if [ $RC -ne 2 ] || [ -n "$OUT" ] ||
	    [ "$(wc -l <"$TMPD/err")" -ne 1 ] || ! grep -qE "$re" "$TMPD/err"
	then
		problem "$@ (ulimit -Hn 1000)"
	fi
}
fds_bad "need 3000 open files.*at most 1000 \(ulimit -Hn\)" openflow \
    --switches 3000 $C
fds_bad "need 1200 open files.*at most 1000" openflow --switches 600 \
    --controller ptcp:30000
bad "--delete: 'maybe' is not one of none, strict or all" controller \
    --delete maybe
bad "--packet-in-reply: 'nope'" controller --packet-in-reply nope
bad "--openflow: the controller listens" controller \
    --openflow tcp:1.2.3.4:5
bad "--exit-when-done needs --switches and --flows-per-switch" controller \
    --exit-when-done
bad "--of-version" controller --of-version 2.0
bad "--switches: 'abc'" controller --switches abc
bad "unexpected argument 'extra'" controller extra

# A role that cannot listen: exit 1, one line naming the role and port,
# and whatever started before it is stopped again.
P=$(free_ports 1)
start_bg "$TMPD/holder.log" "$SBSIM" controller --openflow "ptcp:$P:127.0.0.1" \
    --duration 20
wait_listen "$P" || fail "the port holder did not listen"
for role in bgp pcep openflow; do
	run_cli controller --restconf "127.0.0.1:$(free_ports 1)" \
	    --"$role" "ptcp:$P:127.0.0.1"
	[ $RC -eq 1 ] && [ -z "$OUT" ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] &&
	    grep -qi "cannot listen for $role on ptcp:$P:127.0.0.1" \
	    "$TMPD/err" || problem "controller --$role on a port in use"
done
stop_pid "$LAST_PID"

good --help
good help
good version
good openflow --help
good controller --help
good run --help
run_cli version
echo "$OUT" | grep -qE '^sbsim [0-9]' || problem version

[ $FAILS -eq 0 ] || fail "$FAILS command lines not refused as they should be"
echo "command-line errors: one line, exit 2, every time"

#!/bin/bash
# Hostile NETCONF clients (issues 14, 24): idle connections that never
# finish the SSH key exchange, authentication or hello, refilled as soon
# as they close, lock no client of another address out (--max-startups
# apart from --max-sessions, the oldest of the busiest address evicted;
# closed at --hello-timeout, counted in hello_timeouts), over SSH and TCP;
# wrong SSH passwords are slowed by --auth-delay (a guesser's rate is
# printed with and without it), the device's own: 8 sessions at once
# guess no faster than one.
. "$(dirname "$0")/../lib.sh"
HERE=$(dirname "$0")
[ -x "$PY" ] || skip "$PY is not installed"
"$PY" -c 'import paramiko, ncclient' 2>/dev/null ||
    skip "python3-paramiko or python3-ncclient is not installed"
need ss

# device NAME TRANSPORT ARGS...: one device on a free port (PORT, DEV).
device() {
	local name=$1 tr=$2 key=""
	shift 2
	PORT=$(free_ports 1)
	[ "$tr" = ssh ] && key="--host-key $TMPD/hostkey"
	# shellcheck disable=SC2086
	start_bg "$TMPD/dev-$name.log" "$SBSIM" netconf --devices 1 \
	    --listen ptcp:$PORT:127.0.0.1 --transport "$tr" $key \
	    --duration 120 \
	    --report "$TMPD/$name.json" -q "$@"
	DEV=$LAST_PID
	wait_listen "$PORT" || fail "$name: the device did not listen"
}

counter() {
	json_get "$1" "r['counters'].get('$2', 0)"
}

# 1. SSH: three idle connections from 127.0.0.1 fill the three
# --max-startups slots and are replaced as soon as the device closes one;
# ncclient from 127.0.0.2 gets in all along (it was refused while they
# held the slots): its connection closes the oldest of the address that
# holds most (sessions_evicted), and idle ones still close at the 2 s
# hello deadline.
device ssh ssh --max-startups 3 --hello-timeout 2
"$PY" "$HERE/nc_hostile.py" lockout $PORT 3 2 ssh admin admin \
    >"$TMPD/ssh.out" 2>&1 || fail "ssh lockout: $(cat "$TMPD/ssh.out")"
cat "$TMPD/ssh.out"
stop_pid "$DEV"
[ "$(counter "$TMPD/ssh.json" hello_timeouts)" -ge 3 ] ||
    fail "ssh: hello_timeouts $(counter "$TMPD/ssh.json" hello_timeouts)"
[ "$(counter "$TMPD/ssh.json" sessions_evicted)" -ge 1 ] ||
    fail "ssh: no unfinished session was evicted"
[ "$(grep -c 'no hello within' "$TMPD/dev-ssh.log")" -eq 1 ] ||
    fail "ssh: the deadline was not logged exactly once"

# 2. TCP: the same with idle TCP connections; the real client must
# receive the device's hello and a reply to its <get>.
device tcp tcp --max-startups 2 --hello-timeout 1.5
"$PY" "$HERE/nc_hostile.py" lockout $PORT 2 1.5 tcp - - \
    >"$TMPD/tcp.out" 2>&1 || fail "tcp lockout: $(cat "$TMPD/tcp.out")"
cat "$TMPD/tcp.out"
stop_pid "$DEV"
[ "$(counter "$TMPD/tcp.json" hello_timeouts)" -ge 2 ] ||
    fail "tcp: hello_timeouts $(counter "$TMPD/tcp.json" hello_timeouts)"
[ "$(counter "$TMPD/tcp.json" sessions_evicted)" -ge 1 ] ||
    fail "tcp: no unfinished session was evicted"

# 3. Wrong passwords for 3 s, one after another: without a delay
# (--auth-delay 0) and with the default 1 s.  Every one is counted; the
# delay holds a guesser to about one a second.
for d in 0 1; do
	device "guess$d" ssh --auth-delay $d
	"$PY" "$HERE/nc_hostile.py" guess $PORT admin 3 \
	    >"$TMPD/guess$d.out" 2>"$TMPD/guess$d.err" ||
	    fail "guess (delay $d): $(cat "$TMPD/guess$d.out")"
	stop_pid "$DEV"
	read -r _ n _ rate <"$TMPD/guess$d.out"
	echo "--auth-delay $d: $n wrong passwords in 3 s ($rate/s)"
	# A session closes after its 6th failure, and paramiko may count
	# its try on the closing session as one more: at worst 6 of every 7
	# attempts reach the device (a loaded host makes that case common).
	f=$(counter "$TMPD/guess$d.json" auth_failures)
	[ $((f * 7)) -ge $((n * 6)) ] && [ "$f" -le "$n" ] ||
	    fail "delay $d: auth_failures $f for $n attempts"
	eval "n$d=$n"
done
[ "$n1" -le 6 ] || fail "--auth-delay 1: $n1 attempts in 3 s, want <= 6"
[ "$n0" -gt $((n1 * 3)) ] ||
    fail "the delay did not slow the guesser ($n0 without, $n1 with)"

# 4. The delay is the device's: 8 sessions guessing at once check no
# more passwords a second than one did (they checked 8 times as many).
device guess8 ssh --auth-delay 1
"$PY" "$HERE/nc_hostile.py" guess $PORT admin 3 8 \
    >"$TMPD/guess8.out" 2>"$TMPD/guess8.err" ||
    fail "guess (8 sessions): $(cat "$TMPD/guess8.out")"
stop_pid "$DEV"
read -r _ n8 _ rate8 <"$TMPD/guess8.out"
f=$(counter "$TMPD/guess8.json" auth_failures)
t=$(counter "$TMPD/guess8.json" auth_throttled)
echo "8 sessions, --auth-delay 1: $n8 refused ($rate8/s), $((f - t))" \
    "passwords checked, $t refused unchecked"
read -r _ _ _ rate1 <"$TMPD/guess1.out"
# Rates in tenths: 8 sessions at most the single session's, plus slack
# for the first try of each (the single one had 3 s too).
[ "${rate8/./}" -le $((${rate1/./} + 5)) ] ||
    fail "8 sessions guessed $rate8/s, one session $rate1/s"
exit 0

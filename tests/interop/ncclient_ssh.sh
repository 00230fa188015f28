#!/bin/bash
# Interop: ncclient (python3-ncclient, paramiko) against sbsim netconf
# over SSH (RFC 6242): a wrong password refused, password and public-key
# logins, get-schema, get-config, edit-config (and its rpc-error), lock,
# candidate commit and discard-changes, create-subscription and the
# notifications (ncclient_ssh.py).  The host key is generated on the
# first run and the same one served on the second.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
"$PY" -c 'import ncclient' 2>/dev/null || skip "python3-ncclient missing"
need ssh-keygen
need ss
HERE=$(dirname "$0")
K=4		# notifications
J=2		# prefixes each

ssh-keygen -q -t ed25519 -N '' -f "$TMPD/client_key" ||
    fail "ssh-keygen failed"
port=$(free_ports 2)
start_bg "$TMPD/sbsim.log" "$SBSIM" netconf --devices 2 \
    --listen ptcp:$port:127.0.0.1 --user alice --password 's3cret pw' \
    --authorized-keys "$TMPD/client_key.pub" --host-key "$TMPD/host_key" \
    --candidate --notifications $K --prefixes-per-notification $J \
    --duration 60 --report "$TMPD/r.json" -q
pid=$LAST_PID
wait_listen $((port + 1)) || fail "sbsim netconf did not listen"
[ -f "$TMPD/host_key" ] || fail "no host key generated"
fp1=$(ssh-keygen -l -f "$TMPD/host_key" | awk '{print $2}')
timeout 90 "$PY" "$HERE/ncclient_ssh.py" $((port + 1)) alice 's3cret pw' \
    "$TMPD/client_key" $K $J >"$TMPD/client.log" 2>&1 ||
    fail "ncclient_ssh.py: $(tail -5 "$TMPD/client.log")"
stop_pid "$pid"
[ "$(json_get "$TMPD/r.json" "r['counters']['auth_failures']")" -ge 1 ] ||
    fail "the wrong password was not counted"
[ "$(json_get "$TMPD/r.json" "r['counters']['rpc_commit']")" = 1 ] ||
    fail "commit not counted"

# Second run: the same host key, and too many wrong passwords end the
# connection without harm to the run.
start_bg "$TMPD/sbsim2.log" "$SBSIM" netconf --devices 1 \
    --listen ptcp:$port:127.0.0.1 --user alice --password 's3cret pw' \
    --host-key "$TMPD/host_key" --duration 60 --report "$TMPD/r2.json" -q
pid=$LAST_PID
wait_listen $port || fail "sbsim netconf did not listen (second run)"
fp2=$(ssh-keygen -l -f "$TMPD/host_key" | awk '{print $2}')
[ "$fp1" = "$fp2" ] || fail "the host key changed between runs"
timeout 60 "$PY" - $port <<'PYEOF' >"$TMPD/client2.log" 2>&1 ||
import socket, sys, paramiko
t = paramiko.Transport(socket.create_connection(("127.0.0.1",
                                                 int(sys.argv[1]))))
t.start_client(timeout=20)
tries = 0
try:
    while tries < 20:
        try:
            t.auth_password("alice", "wrong%d" % tries)
        except paramiko.AuthenticationException:
            tries += 1
except (paramiko.SSHException, EOFError, OSError):
    pass
# Retries allowed, then the connection ends (6 tries; paramiko may
# count the closed connection as a seventh failure).
print("refused after", tries, "tries, active", t.is_active())
sys.exit(0 if 2 <= tries <= 7 and not t.is_active() else 1)
PYEOF
    fail "auth retries: $(tail -3 "$TMPD/client2.log")"
timeout 60 "$PY" "$HERE/ncclient_ssh.py" $port alice 's3cret pw' - 0 0 \
    >"$TMPD/client3.log" 2>&1 || true
grep -q "password login" "$TMPD/client3.log" ||
    fail "no login after the refused one: $(tail -3 "$TMPD/client3.log")"
stop_pid "$pid"
exit 0

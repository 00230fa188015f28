#!/bin/bash
# PCCs with two PCEs (sbsim pcep --controller EP,EP, RFC 8231 5.7): two
# embedded controllers with --pcep-update-all, every PCC connected to
# both, its LSPs delegated to the first (the primary) and updated by it;
# the second hears every report (c1's paths too) without D and sends no
# PCUpd.  The first
# is killed (by its PID): after --redelegation-timeout each PCC delegates
# its LSPs to the second (a PCRpt with D), which updates them; the
# failover phase is DONE with one item per PCC.  A second run: a PCUpd
# from the PCE that is not the delegate (update-lsp through its RESTCONF)
# is answered with PCErr 19/1 and counted.  First, the options refused.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
N=4		# PCCs
M=25		# LSPs per PCC

ports=$(free_ports 4)
P1=$ports P2=$((ports + 1)) R1=$((ports + 2)) R2=$((ports + 3))

pce() {		# LOG PCEP-PORT RESTCONF-PORT
	start_bg "$TMPD/$1" "$SBSIM" controller --pcep ptcp:$2:127.0.0.1 \
	    --restconf 127.0.0.1:$3 --pcep-update-all 16 --pcep-timeout 10
}

# pce_figure LOG LABEL: the figure before the last LABEL of a controller's
# pcep summary line ("100 PCUpds sent").
pce_figure() {
	sed -n "s/^pcep: .* \([0-9]*\) $2.*/\1/p" "$TMPD/$1" | head -1
}

# --- the options ---
E=tcp:127.0.0.1:1
bad_usage pcep "at most 4 PCEs" --pccs 1 --controller $E,$E,$E,$E,$E
bad_usage pcep "names no second PCE" --pccs 1 --controller $E,
bad_usage pcep "tcp:IP:PORT" --pccs 1 --controller $E,ptcp:4189
bad_usage pcep "redelegation-timeout" --pccs 1 --controller $E,$E \
    --redelegation-timeout -1
[ "$FAILS" -eq 0 ] || fail "$FAILS usage errors not refused as such"

# --- the failover ---
pce c1.log $P1 $R1
C1=$LAST_PID
pce c2.log $P2 $R2
C2=$LAST_PID
for p in $P1 $P2 $R1 $R2; do
	wait_listen $p || fail "nothing listens on $p"
done
start_bg "$TMPD/pcc.log" "$SBSIM" pcep --pccs $N --lsps $M --delegate \
    --controller tcp:127.0.0.1:$P1,tcp:127.0.0.1:$P2 \
    --redelegation-timeout 0.2 --duration 6 --timeout 5 \
    --report "$TMPD/r.json" -q
SIM=$LAST_PID

# c1 updates every LSP; the PCCs report each new path to c2 as well
# (RFC 8231: to every stateful PCE), so c2's pcep-topology shows them all
# (the ERO's first hop moved) before c1 is killed.
TOPO=/rests/data/network-topology:network-topology/topology=pcep-topology
i=0
while [ $i -lt 100 ]; do
	[ "$(curl -s -m 5 -u admin:admin -o "$TMPD/topo" -w '%{http_code}' \
	    "http://127.0.0.1:$R2$TOPO")" = 200 ] &&
	    [ "$(grep -o '"ip-prefix":"10\.1\.128\.' "$TMPD/topo" |
	    wc -l)" -eq $((N * M)) ] && break
	sleep 0.1
	i=$((i + 1))
done
[ $i -lt 100 ] || fail "c2 does not show c1's paths"
grep -q '"delegate":true' "$TMPD/topo" && fail "c2 shows a delegated LSP"
kill "$C1"
wait "$C1" 2>/dev/null
wait_exit "$SIM" 20 || fail "sbsim pcep did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "sbsim pcep exited $EXIT_RC"
stop_pid "$C2"
upd2=$(pce_figure c2.log "PCUpds sent")
err2=$(pce_figure c2.log "PCErrs sent")
[ "$upd2" = $((N * M)) ] || fail "c2 sent '$upd2' PCUpds, want $((N * M))"
[ "$err2" = 0 ] || fail "c2 sent '$err2' PCErrs"

"$PY" - "$TMPD/r.json" "$N" "$M" <<'PYEOF' || fail "the report"
import json, sys
r = json.load(open(sys.argv[1]))
n, m = int(sys.argv[2]), int(sys.argv[3])
if r.get("ok") is not True:
    sys.exit("ok is %r" % r.get("ok"))
ph = {p["name"]: p for p in r["phases"]}
want = {"connect": 2 * n, "connect.p1": n, "connect.p2": n,
        "sync": 2 * n * m, "update": n * m, "failover": n}
for name, items in want.items():
    p = ph.get(name)
    if p is None or p["state"] != "DONE" or p["items"] != items:
        sys.exit("%s: %r, want DONE %d" % (name, p, items))
fo = ph["failover"]["latency_us"]
# At least the redelegation timeout (0.2 s), well under the run.
if not 200000 <= fo["p50"] <= fo["max"] < 5000000:
    sys.exit("failover latency %r" % fo)
c = r["counters"]
want = {"pcupd_received": 2 * n * m, "lsps_redelegated": n * m,
        "pcupd_not_delegated": 0, "pcerr_sent": 0, "sessions_lost": n,
        "malformed_messages": 0, "unexpected_messages": 0}
for k, v in want.items():
    if c.get(k) != v:
        sys.exit("counter %s = %r, want %d" % (k, c.get(k), v))
print("failover: %d PCCs, p50 %.1f ms, max %.1f ms" %
      (ph["failover"]["items"], fo["p50"] / 1e3, fo["max"] / 1e3))
PYEOF

# --- a PCUpd from the PCE that is not the delegate ---
pce c3.log $P1 $R1
C1=$LAST_PID
pce c4.log $P2 $R2
C2=$LAST_PID
for p in $P1 $P2 $R1 $R2; do
	wait_listen $p || fail "nothing listens on $p (second run)"
done
start_bg "$TMPD/pcc2.log" "$SBSIM" pcep --pccs 1 --lsps 2 --delegate \
    --controller tcp:127.0.0.1:$P1,tcp:127.0.0.1:$P2 --duration 3 \
    --report "$TMPD/r2.json" -q
SIM=$LAST_PID
OPS=/rests/operations/network-topology-pcep
body='{"input":{"node":"pcc://127.1.0.1","name":"pcc_127.1.0.1_tunnel_1",
    "arguments":{"lsp":{"delegate":true,"administrative":true},
    "ero":{"subobject":[{"loose":false,"ip-prefix":{"ip-prefix":"10.99.0.1/32"}}]}}}}'
i=0
while [ $i -lt 50 ]; do
	code=$(curl -s -m 5 -u admin:admin -X POST -o "$TMPD/out" \
	    -w '%{http_code}' -H 'Content-Type: application/json' \
	    -d "$body" "http://127.0.0.1:$R2$OPS:update-lsp")
	[ "$code" = 409 ] && grep -q "data-missing" "$TMPD/out" || break
	sleep 0.1	# not synchronized yet
	i=$((i + 1))
done
echo "update-lsp on the non-delegate: HTTP $code: $(cat "$TMPD/out")"
# ODL's operation-result: the PCC's error object, 19/1 (RFC 8231 8.5).
[ "$code" = 200 ] && grep -q '"failure":"failed".*"type":19,"value":1' \
    "$TMPD/out" || fail "update-lsp on the non-delegate was not refused"
wait_exit "$SIM" 20 || fail "sbsim pcep (second run) did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "sbsim pcep (second run) exited $EXIT_RC"
stop_pid "$C1"
stop_pid "$C2"
# c3 (the delegate) updated both LSPs, c4's one PCUpd was refused.
for kv in pcupd_received=3 pcupd_not_delegated=1 pcerr_sent=1 \
    lsps_redelegated=0; do
	v=$(json_get "$TMPD/r2.json" "r['counters'].get('${kv%=*}')")
	[ "$v" = "${kv#*=}" ] || fail "second run: ${kv%=*} = $v, want ${kv#*=}"
done
[ "$(pce_figure c4.log "received, ")" = 1 ] ||
    fail "c4 got no PCErr: $(grep pcep: "$TMPD/c4.log")"
echo "PASS: PCCs failed over from a killed PCE; a non-delegate's PCUpd refused"

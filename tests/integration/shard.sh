#!/bin/bash
# --shard I/N and --start-at: three `sbsim openflow --switches 30 --shard
# I/3` processes started together against one embedded controller, their
# reports merged with sbsim merge, count what one process with 30
# switches counts, and the controller's inventory holds 30 distinct
# datapath ids, openflow:1 to openflow:30.  Bad --shard and --start-at
# arguments are refused.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=30		# switches of the whole run
K=20		# flows per switch
S=3		# shards

bad_usage openflow "--shard: expected I/N" --switches 3 --shard 3/3 \
    --controller tcp:127.0.0.1:1
bad_usage openflow "--shard: expected I/N" --switches 3 --shard 1 \
    --controller tcp:127.0.0.1:1
bad_usage openflow "--shard: expected I/N" --switches 3 --shard -1/2 \
    --controller tcp:127.0.0.1:1
bad_usage openflow "leaves this shard no device" --switches 2 --shard 0/3 \
    --controller tcp:127.0.0.1:1
bad_usage openflow "does not spread evenly" --switches 3 --shard 0/2 \
    --expect-flows 10 --controller tcp:127.0.0.1:1
bad_usage openflow "--sweep" --switches 4 --shard 0/2 --sweep 2,4 \
    --controller tcp:127.0.0.1:1
bad_usage openflow "more than a week" --switches 3 --start-at 99999999999 \
    --controller tcp:127.0.0.1:1
bad_usage bgp "does not go with --monitor" --peers 2 --as 65001 \
    --shard 0/2 --controller tcp:127.0.0.1:1 --monitor tcp:127.0.0.1:1
bad_usage pcep "does not go with --pce-initiated" --pccs 2 --lsps 1 \
    --shard 0/2 --pce-initiated --controller tcp:127.0.0.1:1
bad_usage netconf "does not spread evenly" --devices 4 --expect-edits 3 \
    --listen ptcp:1830:127.0.0.1 --transport tcp --shard 0/2
bad_usage ovsdb "--shard does not go with --northbound" --devices 2 \
    --shard 0/2 --controller tcp:127.0.0.1:1 \
    --northbound odl:http://127.0.0.1:1
bad_usage ovsdb "--expect-bridges 3 does not spread evenly" --devices 4 \
    --bridges 1 --expect-bridges 3 --shard 0/2 --controller tcp:127.0.0.1:1
[ "$FAILS" -eq 0 ] || fail "$FAILS bad arguments not refused"

# One process, 30 switches: what the shards must add up to.
port=$(free_ports 1)
start_bg "$TMPD/ctl1.log" "$SBSIM" controller --openflow ptcp:$port \
    --switches $N --flows-per-switch $K --read-stats --delete all \
    --exit-when-done
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"
timeout 60 "$SBSIM" openflow --switches $N --controller tcp:127.0.0.1:$port \
    --expect-flows $((N * K)) --timeout 20 --report "$TMPD/one.json" -q \
    >"$TMPD/one.log" 2>&1 || fail "the one-process run exited $?"
wait_exit "$ctl" 15 || fail "controller did not exit when done"

# The shards, against a controller that stays up (its inventory is read
# while they hold their sessions) and starting together.
ports=$(free_ports 2)
of=$ports
rc_port=$((ports + 1))
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$of \
    --restconf 127.0.0.1:$rc_port --switches $N --flows-per-switch $K \
    --read-stats --delete all
ctl=$LAST_PID
wait_listen "$of" || fail "controller did not listen on $of"
wait_listen "$rc_port" || fail "controller did not serve RESTCONF"
at=$("$PY" -c 'import time; print("%.3f" % (time.time() + 1.5))')
pids=""
for i in $(seq 0 $((S - 1))); do
	start_bg "$TMPD/shard$i.log" "$SBSIM" openflow --switches $N \
	    --shard $i/$S --start-at "$at" --controller tcp:127.0.0.1:$of \
	    --expect-flows $((N * K)) --timeout 20 --duration 6 \
	    --report "$TMPD/s$i.json" -q
	pids="$pids $LAST_PID"
done

"$PY" - "$rc_port" "$N" <<'PYEOF' || fail "the controller's inventory"
import base64, http.client, re, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
auth = "Basic " + base64.b64encode(b"admin:admin").decode()
ids = set()
for _ in range(100):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", "/restconf/operational/opendaylight-inventory:nodes",
              headers={"Authorization": auth, "Accept": "application/json"})
    body = c.getresponse().read().decode()
    ids = set(int(x) for x in re.findall(r'"openflow:(\d+)"', body))
    if len(ids) >= n:
        break
    time.sleep(0.1)
if ids != set(range(1, n + 1)):
    print("inventory: %d ids %s" % (len(ids), sorted(ids)), file=sys.stderr)
    sys.exit(1)
PYEOF
for p in $pids; do
	wait_exit "$p" 30 || fail "a shard did not end"
	[ "$EXIT_RC" -eq 0 ] || fail "a shard exited $EXIT_RC"
done
stop_pid "$ctl"

"$SBSIM" merge "$TMPD"/s0.json "$TMPD"/s1.json "$TMPD"/s2.json \
    --report "$TMPD/m.json" -q || fail "merge exited $?"

"$PY" - "$TMPD/m.json" "$TMPD/one.json" "$N" "$K" "$TMPD"/s0.json \
    "$TMPD"/s1.json "$TMPD"/s2.json "$at" <<'PYEOF' || fail "merged shards"
import json, sys
m, one = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
n, k = int(sys.argv[3]), int(sys.argv[4])
shards = [json.load(open(f)) for f in sys.argv[5:8]]
at_ns = float(sys.argv[8]) * 1e9
def die(msg):
    print("shards:", msg, file=sys.stderr)
    sys.exit(1)
# Each shard ran its slice: 10 switches, 10 * K flows.
for i, s in enumerate(shards):
    c = {p["name"]: p for p in s["phases"]}["connect"]
    if c["items"] != n // 3 or c["target"] != n // 3:
        die("shard %d connected %r of %r" % (i, c["items"], c["target"]))
# --start-at held each one until then (10 ms for the clocks' grain).
starts = [s["start_unix_ns"] for s in shards]
if min(starts) < at_ns - 1e7:
    die("a shard started %.3f s before --start-at" %
        ((at_ns - min(starts)) / 1e9))
if m["ok"] is not True:
    die("merge not ok")
mp = {p["name"]: p for p in m["phases"]}
op = {p["name"]: p for p in one["phases"]}
if sorted(mp) != sorted(op):
    die("phases %r vs %r" % (sorted(mp), sorted(op)))
for name in op:
    for key in ("items", "target", "state"):
        if mp[name][key] != op[name][key]:
            die("%s.%s: merged %r, one process %r" % (name, key,
                mp[name][key], op[name][key]))
    if mp[name]["latency_hist"]["count"] != op[name]["latency_hist"]["count"]:
        die("%s: latency samples %r vs %r" % (name,
            mp[name]["latency_hist"]["count"],
            op[name]["latency_hist"]["count"]))
if mp["connect"]["items"] != n or mp["program"]["items"] != n * k:
    die("connect %r program %r" % (mp["connect"]["items"],
        mp["program"]["items"]))
# (Not stats_requests: the shards ran for --duration, and the
# controller reads stats as long as they do.)
for c in ("flows_added", "flows_deleted", "flow_mods", "barriers"):
    if m["counters"][c] != one["counters"][c]:
        die("counter %s: merged %r, one process %r" % (c,
            m["counters"][c], one["counters"][c]))
PYEOF

# BGP: 2 shards of 6 peers, 50 prefixes each, from one source range: the
# controller's Loc-RIB holds 300 distinct prefixes, and the last peer's
# address (127.NET.0.6, shard 1's) has its 50.
NET=$((RANDOM % 200 + 20))
ports=$(free_ports 2)
bgp=$ports
rc_port=$((ports + 1))
start_bg "$TMPD/bctl.log" "$SBSIM" controller --bgp ptcp:$bgp:127.0.0.1 \
    --as 65000 --restconf 127.0.0.1:$rc_port
ctl=$LAST_PID
wait_listen "$bgp" && wait_listen "$rc_port" || fail "BGP controller"
at=$("$PY" -c 'import time; print("%.3f" % (time.time() + 1))')
pids=""
for i in 0 1; do
	start_bg "$TMPD/bshard$i.log" "$SBSIM" bgp --peers 6 --prefixes 50 \
	    --as 65001 --peer-as 65000 --source 127.$NET.0.0/24 \
	    --controller tcp:127.0.0.1:$bgp --shard $i/2 --start-at "$at" \
	    --duration 5 --timeout 20 --report "$TMPD/b$i.json" -q
	pids="$pids $LAST_PID"
done
"$PY" - "$rc_port" "$NET" <<'PYEOF' || fail "the BGP controller's RIBs"
import base64, http.client, sys, time
port, net = int(sys.argv[1]), sys.argv[2]
auth = "Basic " + base64.b64encode(b"admin:admin").decode()
T4 = ("tables=bgp-types:ipv4-address-family,"
      "bgp-types:unicast-subsequent-address-family/ipv4-routes")
RIB = "/rests/data/bgp-rib:bgp-rib/rib=example-bgp-rib/"
def count(path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", RIB + path, headers={"Authorization": auth})
    return c.getresponse().read().decode().count('"prefix":"')
for _ in range(100):
    n = count("loc-rib/" + T4)
    if n >= 300:
        break
    time.sleep(0.1)
if n != 300:
    sys.exit("loc-rib holds %d routes, not 300" % n)
n = count("peer=bgp:%%2F%%2F127.%s.0.6/adj-rib-in/%s" % (net, T4))
if n != 50:
    sys.exit("adj-rib-in of 127.%s.0.6 holds %d routes, not 50" % (net, n))
PYEOF
for p in $pids; do
	wait_exit "$p" 30 || fail "a BGP shard did not end"
	[ "$EXIT_RC" -eq 0 ] || fail "a BGP shard exited $EXIT_RC"
done
stop_pid "$ctl"
"$SBSIM" merge "$TMPD"/b0.json "$TMPD"/b1.json --report "$TMPD/bm.json" \
    -q || fail "BGP merge exited $?"
[ "$(json_get "$TMPD/bm.json" '[(p["name"], p["items"], p["state"])
    for p in r["phases"]][:2]')" = \
    "[('connect', 6, 'DONE'), ('announce', 300, 'DONE')]" ] ||
    fail "BGP merged: $(json_get "$TMPD/bm.json" 'r["phases"]')"

# PCEP: 2 shards of 4 PCCs with 5 delegated LSPs each: the PCE's topology
# holds 4 nodes, pcc://127.1.0.1 to .4, and 20 LSPs.
ports=$(free_ports 2)
pp=$ports
rc_port=$((ports + 1))
start_bg "$TMPD/pctl.log" "$SBSIM" controller --pcep ptcp:$pp:127.0.0.1 \
    --restconf 127.0.0.1:$rc_port --pcep-update-all 16 --pcep-timeout 10
ctl=$LAST_PID
wait_listen "$pp" && wait_listen "$rc_port" || fail "PCEP controller"
at=$("$PY" -c 'import time; print("%.3f" % (time.time() + 1))')
pids=""
for i in 0 1; do
	start_bg "$TMPD/pshard$i.log" "$SBSIM" pcep --pccs 4 --lsps 5 \
	    --delegate --controller tcp:127.0.0.1:$pp --shard $i/2 \
	    --start-at "$at" --duration 5 --timeout 20 \
	    --report "$TMPD/pc$i.json" -q
	pids="$pids $LAST_PID"
done
"$PY" - "$rc_port" <<'PYEOF' || fail "the PCE's topology"
import base64, http.client, json, sys, time
port = int(sys.argv[1])
auth = "Basic " + base64.b64encode(b"admin:admin").decode()
TOPO = ("/rests/data/network-topology:network-topology/"
        "topology=pcep-topology")
for _ in range(100):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", TOPO, headers={"Authorization": auth})
    r = c.getresponse()
    body = r.read()
    nodes, lsps = set(), 0
    if r.status == 200:
        t = json.loads(body)["network-topology:topology"][0]
        for n in t.get("node", []):
            nodes.add(n["node-id"])
            pcc = n["network-topology-pcep:path-computation-client"]
            lsps += len(pcc.get("reported-lsp", []))
    if len(nodes) >= 4 and lsps >= 20:
        break
    time.sleep(0.1)
want = set("pcc://127.1.0.%d" % i for i in range(1, 5))
if nodes != want or lsps != 20:
    sys.exit("nodes %s, %d LSPs" % (sorted(nodes), lsps))
PYEOF
for p in $pids; do
	wait_exit "$p" 30 || fail "a PCEP shard did not end"
	[ "$EXIT_RC" -eq 0 ] || fail "a PCEP shard exited $EXIT_RC"
done
stop_pid "$ctl"
"$SBSIM" merge "$TMPD"/pc0.json "$TMPD"/pc1.json --report "$TMPD/pm.json" \
    -q || fail "PCEP merge exited $?"
[ "$(json_get "$TMPD/pm.json" '(r["ok"], r["phases"][0]["name"], r["phases"][0]["items"])')" = \
    "(True, 'connect', 4)" ] ||
    fail "PCEP merged: $(json_get "$TMPD/pm.json" 'r["phases"]')"

# NETCONF: 2 shards of 4 listening devices take ports PORT to PORT+3
# between them, two each (the same two would not bind twice).
port=$(free_ports 4)
pids=""
for i in 0 1; do
	start_bg "$TMPD/nshard$i.log" "$SBSIM" netconf --devices 4 \
	    --listen ptcp:$port:127.0.0.1 --transport tcp --shard $i/2 \
	    --duration 3 -q
	pids="$pids $LAST_PID"
done
for p in $port $((port + 1)) $((port + 2)) $((port + 3)); do
	wait_listen "$p" || fail "no NETCONF shard listens on $p"
done
for p in $pids; do
	wait_exit "$p" 20 || fail "a NETCONF shard did not end"
	[ "$EXIT_RC" -le 1 ] || fail "a NETCONF shard exited $EXIT_RC"
done
exit 0

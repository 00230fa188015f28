#!/bin/bash
# sbsim controller --workers: 300 switches programmed by 3 workers sharing
# one port, the summary added up as a one-process run's, the parent's
# RESTCONF answering for all workers (the inventory lists every node, one
# node is found wherever it lives, a flow write reaches every worker), a
# worker killed making the parent fail naming it, and bad --workers
# values refused.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
N=300
K=5

# The controller line without its durations, which differ run to run.
figures() {
	grep '^controller:' "$1" | sed -E 's/ in [0-9.]+ s//g'
}

# run_program WORKERS SWITCH_WORKERS: a run to its end; the controller's
# output in $TMPD/ctl-W.log.
run_program() {
	local w=$1 sw=$2 port log wopt swopt
	port=$(free_ports 1)
	log="$TMPD/ctl-$w.log"
	wopt=""
	[ "$w" -gt 0 ] && wopt="--workers $w"
	swopt=""
	[ "$sw" -gt 0 ] && swopt="--workers $sw"
	start_bg "$log" "$SBSIM" controller $wopt --openflow ptcp:$port \
	    --switches $N --flows-per-switch $K --read-stats --delete strict \
	    --exit-when-done
	local ctl=$LAST_PID
	wait_listen "$port" || fail "workers $w: no listener on $port"
	timeout 60 "$SBSIM" openflow --switches $N $swopt \
	    --controller tcp:127.0.0.1:$port --expect-flows $((N * K)) \
	    --timeout 30 -q >"$TMPD/sw-$w.log" 2>&1 ||
	    fail "workers $w: sbsim openflow exited $?"
	wait_exit "$ctl" 30 || fail "workers $w: controller did not exit when done"
	[ "$EXIT_RC" -eq 0 ] || fail "workers $w: controller exited $EXIT_RC"
}

# (c) Bad input, refused before anything starts.
for bad in 0 65 x 3x ""; do
	"$SBSIM" controller --workers "$bad" >"$TMPD/bad.out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "--workers '$bad': exit $rc, want 2"
	grep -q -- '--workers' "$TMPD/bad.out" ||
	    fail "--workers '$bad': no message naming --workers"
done
for opt in "--lldp" "--role master" "--netconf --restconf 1" \
    "--ovsdb ptcp:6640" "--bgp ptcp:1179 --as 1"; do
	"$SBSIM" controller --workers 2 $opt >"$TMPD/bad.out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "--workers 2 $opt: exit $rc, want 2"
	grep -q -- "${opt%% *}.*--workers" "$TMPD/bad.out" ||
	    fail "--workers 2 $opt: $(cat "$TMPD/bad.out")"
done
# Each worker holds its share: 100 000 switches over 8 pass the
# descriptor check that refuses them in one process.
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt 100100 ]; then
	"$SBSIM" controller --switches 100000 --duration 0.1 \
	    >"$TMPD/fd.out" 2>&1 && fail "--switches 100000 in one process passed"
	timeout 20 "$SBSIM" controller --workers 8 --switches 100000 \
	    --openflow ptcp:$(free_ports 1) --duration 0.5 \
	    >"$TMPD/fd8.out" 2>&1 ||
	    fail "--switches 100000 --workers 8: $(cat "$TMPD/fd8.out")"
fi

# (a) 3 workers (switches on 3 workers too), then one process: the same
# figures.
run_program 3 3
run_program 0 0
# FLOW_MODs: the adds and as many strict deletes.
grep -qE "^controller: $N switches, $((2 * N * K)) FLOW_MODs sent, .* $N switches programmed.*, $((N * K)) flows seen in stats, $N switches deleted" \
    "$TMPD/ctl-3.log" || fail "3 workers: $(grep controller: "$TMPD/ctl-3.log")"
[ "$(figures "$TMPD/ctl-3.log")" = "$(figures "$TMPD/ctl-0.log")" ] ||
    fail "3 workers and one process differ:
$(figures "$TMPD/ctl-3.log")
$(figures "$TMPD/ctl-0.log")"

# RESTCONF for all workers, while the switches stay connected.
port=$(free_ports 2)
rport=$((port + 1))
start_bg "$TMPD/ctl-rc.log" "$SBSIM" controller --workers 3 \
    --openflow ptcp:$port --switches $N --flows-per-switch $K \
    --restconf 127.0.0.1:$rport
ctl=$LAST_PID
wait_listen "$port" || fail "restconf run: no listener on $port"
start_bg "$TMPD/sw-rc.log" "$SBSIM" openflow --switches $N \
    --controller tcp:127.0.0.1:$port --duration 30 -q
sw=$LAST_PID
"$PY" - "$rport" "$N" <<'PYEOF' || fail "RESTCONF through the parent"
import base64, http.client, json, re, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
auth = "Basic " + base64.b64encode(b"admin:admin").decode()
def req(method, path, body=None, accept="application/yang-data+json",
        cred=auth):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    h = {"Authorization": cred, "Accept": accept}
    if body is not None:
        h["Content-Type"] = "application/yang-data+json"
        body = json.dumps(body)
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    return r.status, r.read()
def die(msg):
    print(msg, file=sys.stderr)
    sys.exit(1)
INV = "/rests/data/opendaylight-inventory:nodes"
ids = []
for _ in range(150):
    st, b = req("GET", INV + "?content=nonconfig")
    if st == 200:
        ids = [x["id"] for x in
               json.loads(b)["opendaylight-inventory:nodes"].get("node", [])]
        if len(ids) == n:
            break
    time.sleep(0.1)
if sorted(ids) != sorted("openflow:%d" % i for i in range(1, n + 1)):
    die("inventory: %d nodes, want %d" % (len(ids), n))
st, b = req("GET", "/restconf/operational/opendaylight-inventory:nodes",
            accept="application/yang-data+xml")
got = len(set(re.findall(rb"<id>openflow:[0-9]+</id>", b)))
if st != 200 or got != n:
    die("XML inventory: %d, %d nodes" % (st, got))
for i in (1, 150, n):
    st, b = req("GET", INV + "/node=openflow%%3A%d?content=nonconfig" % i)
    if st != 200 or json.loads(b)["opendaylight-inventory:node"][0]["id"] != \
            "openflow:%d" % i:
        die("node %d: %d %r" % (i, st, b[:200]))
st, _ = req("GET", INV + "/node=openflow%%3A%d?content=nonconfig" % (n + 1))
if st != 404:
    die("an unknown node: %d, want 404" % st)
st, _ = req("GET", INV, cred="Basic " + base64.b64encode(b"admin:no").decode())
if st != 401:
    die("a wrong password: %d, want 401" % st)
# A flow written once is in every worker's config: worker 0 answers it.
flow = {"flow-node-inventory:flow": [{"id": "w1", "priority": 7,
        "match": {"ethernet-match": {"ethernet-type": {"type": 2048}},
                  "ipv4-destination": "10.9.0.1/32"}}]}
path = INV + "/node=openflow%3A7/flow-node-inventory:table=0/flow=w1"
st, b = req("PUT", path, flow)
if st not in (200, 201, 204):
    die("PUT: %d %r" % (st, b[:300]))
st, b = req("GET", path + "?content=config")
if st != 200 or b"10.9.0.1/32" not in b:
    die("GET config after PUT: %d %r" % (st, b[:300]))
# An RPC reaches every worker: the one holding the node answers 200,
# the others 404; the parent answers the 200.  An unknown node: 404.
def add_flow(node):
    return {"input": {
        "opendaylight-flow-service:node": "/opendaylight-inventory:nodes/"
            "opendaylight-inventory:node[opendaylight-inventory:id="
            "'openflow:%d']" % node,
        "priority": 2, "table_id": 0,
        "match": {"ipv4-destination": "10.0.1.0/24",
                  "ethernet-match": {"ethernet-type": {"type": 2048}}}}}
for node in (5, 250):
    st, b = req("POST", "/restconf/operations/sal-flow:add-flow",
                add_flow(node))
    if st != 200:
        die("add-flow on node %d: %d %r" % (node, st, b[:300]))
st, b = req("POST", "/restconf/operations/sal-flow:add-flow",
            add_flow(n + 1))
if st != 404:
    die("add-flow on an unknown node: %d %r" % (st, b[:300]))
PYEOF
stop_pid "$sw"
kill -TERM "$ctl"
wait_exit "$ctl" 30 || fail "restconf run: the parent did not end on SIGTERM"
[ "$EXIT_RC" -eq 0 ] || fail "restconf run: the parent exited $EXIT_RC"
grep -q '^restconf: [1-9]' "$TMPD/ctl-rc.log" || fail "no restconf line"

# (b) A worker killed: the parent fails, naming it, and stops the rest.
port=$(free_ports 1)
start_bg "$TMPD/ctl-kill.log" "$SBSIM" controller --workers 3 \
    --openflow ptcp:$port --switches $N --flows-per-switch $K
ctl=$LAST_PID
wait_listen "$port" || fail "kill run: no listener on $port"
start_bg "$TMPD/sw-kill.log" "$SBSIM" openflow --switches 30 \
    --controller tcp:127.0.0.1:$port --duration 30 -q
sw=$LAST_PID
sleep 1
workers=$(ps -o pid= --ppid "$ctl" | tr -d ' ')
[ "$(echo "$workers" | wc -l)" -eq 3 ] || fail "kill run: workers: $workers"
victim=$(echo "$workers" | sed -n 2p)
kill -KILL "$victim"
wait_exit "$ctl" 40 || fail "kill run: the parent did not end"
[ "$EXIT_RC" -ne 0 ] || fail "kill run: the parent exited 0"
grep -qE "worker [0-9] of 3 \(pid $victim\) was killed by signal 9" \
    "$TMPD/ctl-kill.log" || fail "kill run: no message naming the worker"
for p in $workers; do
	[ "$p" = "$victim" ] && continue
	kill -0 "$p" 2>/dev/null && fail "kill run: worker $p still runs"
done
stop_pid "$sw"
exit 0

#!/bin/bash
# Bench (not part of make check): what a bridge's OpenFlow switch costs
# an OVSDB device (ovsdb_datapath.c).  N active devices connect to a
# small manager (Python) that gives each one bridge with its local port
# and a Controller row whose target is the embedded controller (sbsim
# controller --openflow); once every switch is up, the peak resident size
# (/usr/bin/time -v) with switches and with --no-datapath, the KiB one
# bridge's switch costs, and the bridge_openflow phase (rate, latency).
# Usage: tests/bench/ovsdb_datapath_scale.sh [N]   (default 1000)
# Figures to read, never pass/fail.  Each device needs two descriptors
# (its session, its switch's connection), the controller one per switch.
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N=${1:-1000}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-bench.XXXXXX)}
PORT=${PORT:-12500}
PY=/usr/bin/python3
DUR=${DUR:-20}
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)"; exit 2; }
ulimit -n $((2 * N + 256)) 2>/dev/null || { echo "ulimit -n too low"; exit 2; }

# The manager: one transact per session, a bridge with a controller.
cat >"$OUT/manager.py" <<'PYEOF'
import json, selectors, socket, sys
port, ctl = int(sys.argv[1]), sys.argv[2]
txn = json.dumps({"id": 1, "method": "transact", "params": ["Open_vSwitch",
    {"op": "insert", "table": "Controller", "row": {"target": ctl},
     "uuid-name": "c"},
    {"op": "insert", "table": "Interface",
     "row": {"name": "br1", "type": "internal"}, "uuid-name": "i"},
    {"op": "insert", "table": "Port",
     "row": {"name": "br1", "interfaces": ["named-uuid", "i"]},
     "uuid-name": "p"},
    {"op": "insert", "table": "Bridge",
     "row": {"name": "br1", "ports": ["named-uuid", "p"],
             "controller": ["named-uuid", "c"]}, "uuid-name": "b"},
    {"op": "mutate", "table": "Open_vSwitch", "where": [],
     "mutations": [["bridges", "insert", ["set", [["named-uuid", "b"]]]]]}]})
sel = selectors.DefaultSelector()
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", port))
srv.listen(4096)
srv.setblocking(False)
sel.register(srv, selectors.EVENT_READ)
while True:
    for key, _ in sel.select(timeout=1):
        if key.fileobj is srv:
            c, _ = srv.accept()
            c.sendall(txn.encode())
            c.setblocking(False)
            sel.register(c, selectors.EVENT_READ)
            continue
        try:
            data = key.fileobj.recv(65536)
        except OSError:
            data = b""
        if not data:
            sel.unregister(key.fileobj)
            key.fileobj.close()
PYEOF

run() {	# run NAME [sbsim ovsdb options]: the report and the peak RSS
	local name=$1 ctl mgr
	shift
	"$SBSIM" controller --openflow ptcp:$PORT:127.0.0.1 \
	    --duration $((DUR + 10)) >"$OUT/ctl-$name.log" 2>&1 &
	ctl=$!
	$PY "$OUT/manager.py" $((PORT + 1)) tcp:127.0.0.1:$PORT \
	    >"$OUT/mgr-$name.log" 2>&1 &
	mgr=$!
	sleep 1
	/usr/bin/time -v "$SBSIM" ovsdb --devices "$N" \
	    --controller tcp:127.0.0.1:$((PORT + 1)) --duration "$DUR" \
	    --report "$OUT/$name.json" "$@" >"$OUT/$name.log" 2>&1
	kill "$mgr" "$ctl" 2>/dev/null
	wait "$mgr" "$ctl" 2>/dev/null
	sed -n 's/.*Maximum resident set size (kbytes): //p' "$OUT/$name.log"
}

with=$(run datapath)
without=$(run nodatapath --no-datapath)
echo "devices (one bridge with a controller each): $N"
echo "peak RSS with switches: $with KiB, with --no-datapath: $without KiB"
echo "one bridge's switch: $(( (with - without) * 1024 / N )) bytes"
$PY - "$OUT/datapath.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
p = [p for p in r["phases"] if p["name"] == "bridge_openflow"][0]
print("bridge_openflow: %d/%d %s in %.3f s, %.0f/s, latency p50 %d us, "
      "p99 %d us" % (p["items"], p["target"], p["state"], p["seconds"],
      p["rate_per_s"], p["latency_us"]["p50"], p["latency_us"]["p99"]))
c = r["counters"]
print("datapaths_opened %d, datapath_handshakes %d, connect failures %d"
      % (c["datapaths_opened"], c["datapath_handshakes"],
         c["datapath_connect_failures"]))
PYEOF
echo "(files in $OUT)"

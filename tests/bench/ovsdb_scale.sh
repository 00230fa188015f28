#!/bin/bash
# Bench (not part of make check): what an OVSDB device costs.  For each
# device count (default 1000 and 5000): passive devices idle, passive
# devices with a bridge of five ports, and active devices each holding a
# session to a small manager that takes every connection (Python); the
# peak resident size (/usr/bin/time -v) and, between the two counts, the
# KiB one more device costs; and the connect rate of the active ones.
# Usage: tests/bench/ovsdb_scale.sh [N1 N2]   Figures to read, never
# pass/fail.  Active devices need one descriptor each, passive ones two.
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N1=${1:-1000}
N2=${2:-5000}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-bench.XXXXXX)}
PORT=${PORT:-12000}
PY=/usr/bin/python3
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)"; exit 2; }

# The manager: takes every connection and reads what comes.
cat >"$OUT/acceptor.py" <<'PYEOF'
import selectors, socket, sys
sel = selectors.DefaultSelector()
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(sys.argv[1])))
srv.listen(4096)
srv.setblocking(False)
sel.register(srv, selectors.EVENT_READ)
while True:
    for key, _ in sel.select(timeout=1):
        if key.fileobj is srv:
            c, _ = srv.accept()
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

# rss KIND N OPTIONS...: one run; its peak RSS in KiB on stdout.
rss() {
	local kind=$1 n=$2
	shift 2
	/usr/bin/time -v "$SBSIM" ovsdb --devices "$n" "$@" -q \
	    --report "$OUT/$kind-$n.json" >"$OUT/$kind-$n.log" 2>&1
	awk '/Maximum resident/ { print $NF }' "$OUT/$kind-$n.log"
}

row() {
	local kind=$1 a b
	shift
	a=$(rss "$kind" "$N1" "$@")
	b=$(rss "$kind" "$N2" "$@")
	printf "%-22s %10s %10s %12.2f\n" "$kind" "$a" "$b" \
	    "$(echo "($b - $a) / ($N2 - $N1)" | bc -l)"
	[ -n "$a" ] && [ -n "$b" ] || echo "  (a run failed: $OUT/$kind-*.log)"
}

ulimit -n "$(ulimit -Hn)"

printf "%-22s %10s %10s %12s\n" "devices" "$N1 (KiB)" "$N2 (KiB)" \
    "KiB/device"
row passive --controller ptcp:$PORT:127.0.0.1 --duration 2
row passive-bridge --controller ptcp:$PORT:127.0.0.1 --duration 2 \
    --bridges-per-node 1 --ports-per-bridge 4
"$PY" "$OUT/acceptor.py" "$PORT" >/dev/null 2>&1 &
acc=$!
sleep 0.5
row active --controller tcp:127.0.0.1:$PORT --duration 4
kill "$acc"
for n in "$N1" "$N2"; do
	"$PY" - "$OUT/active-$n.json" "$n" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
c = [p for p in r["phases"] if p["name"] == "connect"][0]
print("active %s: %d connected in %.3f s, %.0f devices/s, %s" % (
    sys.argv[2], c["items"], c["seconds"], c["rate_per_s"], c["state"]))
PYEOF
done
echo "(runs in $OUT)"

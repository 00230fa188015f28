#!/bin/bash
# SRv6 paths (RFC 9603) between sbsim's PCCs and the embedded PCE: sbsim
# pcep --srv6 opens with PATH-SETUP-TYPE 3 and the SRv6-PCE-CAPABILITY,
# reports SRv6-EROs (hop k: End SID fc00:0:0:k+1::N, N the PCC's number);
# the PCE shows them in pcep-topology (srv6-sid, endpoint-behavior, pst
# 3) and updates every delegated LSP with an SRv6 path of its own
# (--pcep-update-all), which the PCCs apply and report.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
N=2
M=4
H=3
NET=$((RANDOM % 200 + 20))
PP=$(free_ports 2)
RP=$((PP + 1))
TOPO="http://127.0.0.1:$RP/rests/data/network-topology:network-topology/topology=pcep-topology"

start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1 \
    --restconf 127.0.0.1:$RP --pcep-update-all 2
CTL=$LAST_PID
wait_listen "$PP" && wait_listen "$RP" || fail "controller did not listen"
start_bg "$TMPD/pcc.log" "$SBSIM" pcep --pccs $N --lsps $M --hops $H --srv6 \
    --delegate --source "127.$NET.0.0/24" --controller tcp:127.0.0.1:$PP \
    --report "$TMPD/r.json" --timeout 20 --duration 30 -q
PCC=$LAST_PID
i=0
while [ $i -lt 150 ]; do
	curl -s -m 5 -u admin:admin "$TOPO" >"$TMPD/topo.json"
	[ "$(grep -o '"srv6-sid"' "$TMPD/topo.json" | wc -l)" -eq $((N * M * H)) ] &&
	    break
	sleep 0.1
	i=$((i + 1))
done
"$PY" - "$TMPD/topo.json" $N $M $H <<'PYEOF' || fail "pcep-topology: $(head -c 2000 "$TMPD/topo.json")"
import ipaddress, json, sys
path, n, m, hops = sys.argv[1], *map(int, sys.argv[2:])
t = json.load(open(path))["network-topology:topology"][0]
seen = 0
for node in t.get("node", []):
    pcc = node["network-topology-pcep:path-computation-client"]
    num = int(pcc["ip-address"].rsplit(".", 1)[1]) - 1
    for r in pcc.get("reported-lsp", []):
        p = r["path"][0]
        assert p["path-setup-type"]["pst"] == 3, p["path-setup-type"]
        sub = p["ero"]["subobject"]
        assert len(sub) == hops, sub
        for k, h in enumerate(sub):
            want = ipaddress.IPv6Address(b"\xfc\0\0\0\0\0" + (k + 1).to_bytes(2, "big")
                                         + b"\0" * 4 + num.to_bytes(4, "big"))
            got = ipaddress.IPv6Address(h["srv6-sid"])
            # The PCE's update moves the first hop to another node.
            moved = ipaddress.IPv6Address(int(want) ^ (0x80 << 32))
            assert got == want or (k == 0 and got == moved), (r["name"], k, h)
            assert h["endpoint-behavior"] == 1, h
        seen += 1
assert seen == n * m, "%d LSPs, want %d" % (seen, n * m)
PYEOF
# Every LSP updated with the PCE's SRv6 path, then shown moved.
i=0
while [ $i -lt 150 ]; do
	curl -s -m 5 -u admin:admin "$TOPO" >"$TMPD/topo.json"
	[ "$(grep -o '"srv6-sid":"fc00::1:0:80:' "$TMPD/topo.json" | wc -l)" -eq $((N * M)) ] &&
	    break
	sleep 0.1
	i=$((i + 1))
done
[ $i -lt 150 ] || fail "not every LSP shows its updated SRv6 path"
stop_pid "$PCC"
stop_pid "$CTL"
grep -q "pcep: $N sessions, $N PCCs synchronized, .*$((N * M)) PCUpds sent, $((N * M)) acked" \
    "$TMPD/ctl.log" || fail "controller summary: $(grep 'pcep:' "$TMPD/ctl.log")"
bad_usage pcep "--sr and --srv6" --pccs 1 --sr --srv6 \
    --controller tcp:127.0.0.1:1
[ "$FAILS" = 0 ] || fail "$FAILS usage errors not as expected"
echo "SRv6 paths between sbsim pcep and the embedded PCE: $((N * M)) LSPs reported and updated: ok"

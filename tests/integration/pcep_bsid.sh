#!/bin/bash
# Binding SIDs (RFC 9604 TE-PATH-BINDING) between sbsim's PCCs and the
# embedded PCE: sbsim pcep --binding-sid mpls reports label 24000 + i for
# LSP i, --binding-sid srv6 the SID fc00:0:PCC::i+1 (PCC numbered from
# 0); the PCE keeps each LSP's binding SID, shows it in pcep-topology
# (te-path-binding among the LSP's TLVs) and counts them in its summary.
# Allocation (RFC 9604 5): a PCE with --pcep-bsid-alloc puts a binding
# label of its own (500000 on) in each LSP's first PCUpd; the PCCs take
# it and report it (bsid phase, --expect-bsids, counter
# bsids_allocated), the PCE counts it confirmed.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
N=2		# PCCs
M=5		# LSPs per PCC
NET=$((RANDOM % 200 + 20))
PP=$(free_ports 2)
RP=$((PP + 1))
TOPO="http://127.0.0.1:$RP/rests/data/network-topology:network-topology/topology=pcep-topology"

start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1 \
    --restconf 127.0.0.1:$RP
CTL=$LAST_PID
wait_listen "$PP" && wait_listen "$RP" || fail "controller did not listen"

# check KIND: every LSP's binding SID in the topology as KIND makes it.
check() {
	"$PY" - "$TMPD/topo.json" "$1" $N $M <<'PYEOF'
import ipaddress, json, sys
path, kind, n, m = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
t = json.load(open(path))["network-topology:topology"][0]
seen = 0
for node in t.get("node", []):
    pcc = node["network-topology-pcep:path-computation-client"]
    num = int(pcc["ip-address"].rsplit(".", 1)[1]) - 1
    for r in pcc.get("reported-lsp", []):
        k = int(r["name"].rsplit("_", 1)[1]) - 1
        b = r["path"][0]["odl-pcep-ietf-stateful:lsp"]["tlvs"]["te-path-binding"]
        if kind == "mpls":
            assert b == {"binding-type": 0, "mpls-label": 24000 + k}, (r["name"], b)
        else:
            want = ipaddress.IPv6Address(b"\xfc\0\0\0" + num.to_bytes(4, "big") +
                                         b"\0" * 4 + (k + 1).to_bytes(4, "big"))
            assert b["binding-type"] == 2, b
            assert ipaddress.IPv6Address(b["srv6-sid"]) == want, (b, str(want))
        seen += 1
assert seen == n * m, "%d LSPs with a binding SID, want %d" % (seen, n * m)
PYEOF
}

run() {
	local kind=$1 pcc i=0
	start_bg "$TMPD/$kind.log" "$SBSIM" pcep --pccs $N --lsps $M \
	    --binding-sid "$kind" --source "127.$NET.0.0/24" \
	    --controller tcp:127.0.0.1:$PP --duration 30 -q
	pcc=$LAST_PID
	while [ $i -lt 150 ]; do
		curl -s -m 5 -u admin:admin "$TOPO" >"$TMPD/topo.json"
		[ "$(grep -o '"te-path-binding"' "$TMPD/topo.json" | wc -l)" -eq $((N * M)) ] &&
		    break
		sleep 0.1
		i=$((i + 1))
	done
	check "$kind" || fail "$kind: pcep-topology: $(head -c 2000 "$TMPD/topo.json")"
	stop_pid "$pcc"
	echo "$kind: $((N * M)) binding SIDs as reported"
}

run mpls
run srv6
stop_pid "$CTL"
grep -q "binding SIDs: $((N * M)) MPLS, $((N * M)) SRv6, 0 skipped, 0 allocated, 0 confirmed" \
    "$TMPD/ctl.log" || fail "controller summary: $(grep 'pcep:' "$TMPD/ctl.log")"

# The PCE allocates: every delegated LSP's first PCUpd carries its label.
start_bg "$TMPD/alloc.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1 \
    --pcep-update-all 4 --pcep-bsid-alloc
CTL=$LAST_PID
wait_listen "$PP" || fail "the allocating controller did not listen"
timeout 60 "$SBSIM" pcep --pccs $N --lsps $M --delegate --binding-sid mpls \
    --expect-bsids $((N * M)) --source "127.$NET.0.0/24" \
    --controller tcp:127.0.0.1:$PP --timeout 20 --report "$TMPD/alloc.json" \
    -q 2>"$TMPD/alloc.err" || fail "allocation run: $(cat "$TMPD/alloc.err")"
got=$(json_get "$TMPD/alloc.json" "[(p['state'], p['items']) for p in r['phases'] if p['name'] == 'bsid'], r['counters']['bsids_allocated']")
[ "$got" = "([('DONE', $((N * M)))], $((N * M)))" ] || fail "bsid phase, counter: $got"
stop_pid "$CTL"
grep -q "binding SIDs: .* skipped, $((N * M)) allocated, $((N * M)) confirmed" \
    "$TMPD/alloc.log" || fail "allocating controller: $(grep 'pcep:' "$TMPD/alloc.log")"
echo "allocation: $((N * M)) binding labels allocated by the PCE, reported back"
bad_usage pcep "--binding-sid" --pccs 1 --binding-sid ip \
    --controller tcp:127.0.0.1:1
bad_usage pcep "--expect-bsids needs --delegate" --pccs 1 --expect-bsids 1 \
    --controller tcp:127.0.0.1:1
[ "$FAILS" = 0 ] || fail "$FAILS usage errors not as expected"
echo "binding SIDs between sbsim pcep and the embedded PCE: ok"

#!/bin/bash
# Association groups (RFC 8697) between sbsim's PCCs and the embedded
# PCE: sbsim pcep --association path-protection, disjoint and --sr-policy
# report their LSPs --association-size to a group; the PCE keeps each
# LSP's ASSOCIATION (type, ID, source and the type's TLVs: RFC 8745's
# protecting flag, RFC 8800's diversity, the SR policy's color, endpoint,
# names and preference), shows them in pcep-topology and counts them in
# its summary.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
N=2		# PCCs
M=6		# LSPs per PCC
G=3		# LSPs per group
NET=$((RANDOM % 200 + 20))
PP=$(free_ports 2)
RP=$((PP + 1))
TOPO="http://127.0.0.1:$RP/rests/data/network-topology:network-topology/topology=pcep-topology"

start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1 \
    --restconf 127.0.0.1:$RP
CTL=$LAST_PID
wait_listen "$PP" && wait_listen "$RP" || fail "controller did not listen"

# check KIND: the topology's association of every LSP as KIND has it.
check() {
	"$PY" - "$TMPD/topo.json" "$1" $N $M $G "$NET" <<'PYEOF'
import json, sys
path, kind, n, m, g, net = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
t = json.load(open(path))["network-topology:topology"][0]
seen = 0
for node in t.get("node", []):
    pcc = node["network-topology-pcep:path-computation-client"]
    src = pcc["ip-address"]
    for r in pcc.get("reported-lsp", []):
        k = int(r["name"].rsplit("_", 1)[1]) - 1      # slot
        a = r["path"][0]["association-list"]
        assert len(a) == 1, (r["name"], a)
        a = a[0]
        grp, mem = k // g, k % g
        assert (a["id"], a["source"]) == (grp + 1, src), (r["name"], a)
        if kind == "path-protection":
            assert a["type"] == 1, a
            assert a["path-protection"]["protecting"] == (mem > 0), a
            assert a["path-protection"]["protection-type"] == 8, a
        elif kind == "disjoint":
            assert a["type"] == 2 and a["disjointness"]["link-diverse"], a
            assert a["disjointness"]["node-diverse"], a
        else:
            p = a["sr-policy"]
            assert a["type"] == 6 and a["type-name"] == "sr-policy", a
            assert (p["color"], p["endpoint"]) == (grp + 1, "192.0.2.1"), p
            assert p["policy-name"] == "policy-%d" % (grp + 1), p
            assert p["candidate-path-name"] == "cp-%d" % (mem + 1), p
            assert p["preference"] == 100 * (g - mem), p
            assert (p["originator-address"], p["discriminator"]) == (src, mem + 1), p
            pst = r["path"][0]["path-setup-type"]["pst"]
            assert pst == 1, pst
        seen += 1
assert seen == n * m, "%d LSPs with associations, want %d" % (seen, n * m)
PYEOF
}

# run KIND ARGS...: PCCs reporting KIND groups, held until the topology
# shows all of them, checked, then stopped.
run() {
	local kind=$1 pcc i=0
	shift
	start_bg "$TMPD/$kind.log" "$SBSIM" pcep --pccs $N --lsps $M \
	    --association-size $G --source "127.$NET.0.0/24" \
	    --controller tcp:127.0.0.1:$PP --duration 30 -q "$@"
	pcc=$LAST_PID
	while [ $i -lt 150 ]; do
		curl -s -m 5 -u admin:admin "$TOPO" >"$TMPD/topo.json"
		[ "$(grep -o '"association-list"' "$TMPD/topo.json" | wc -l)" -eq $((N * M)) ] &&
		    break
		sleep 0.1
		i=$((i + 1))
	done
	check "$kind" || fail "$kind: pcep-topology: $(head -c 2000 "$TMPD/topo.json")"
	stop_pid "$pcc"
	echo "$kind: $((N * M)) LSPs in groups of $G, as reported"
}

run path-protection --association path-protection
run disjoint --association disjoint
run sr-policy --sr-policy
stop_pid "$CTL"
grep -q "associations: $((N * M)) path protection, $((N * M)) disjoint, $((N * M)) SR policy, 0 of unsupported types, 0 skipped" \
    "$TMPD/ctl.log" || fail "controller summary: $(grep 'pcep:' "$TMPD/ctl.log")"

bad_usage pcep "--sr-policy is --association sr-policy" --pccs 1 \
    --sr-policy --association disjoint --controller tcp:127.0.0.1:1
bad_usage pcep "--association" --pccs 1 --association ring \
    --controller tcp:127.0.0.1:1
bad_usage pcep "--association-size" --pccs 1 --association-size 0 \
    --controller tcp:127.0.0.1:1
[ "$FAILS" = 0 ] || fail "$FAILS usage errors not as expected"
echo "association groups between sbsim pcep and the embedded PCE: ok"

#!/bin/bash
# `sbsim bgp --csit-results NAME` in play.py's place, as the bgpingest
# suites (singlepeer_prefixcount, singlepeer_changecount) run it against
# the embedded controller: the talking peer fills the speaker, the suite
# counts example-ipv4-topology's prefixes, then stores totals-NAME and
# performance-NAME for the Jenkins plot plugin.  The files hold what the
# run's own report holds (UPDATEs, and UPDATEs per second of the phase's
# seconds), in play.py's shape; bad names are refused.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
P=1500		# prefixes, one per UPDATE (play.py --insert 1)

port=$(free_ports 2)
rc=$((port + 1))
csit_capture "tcp port $port"
start_bg "$TMPD/ctl.log" "$SBSIM" controller --bgp ptcp:$port:127.0.0.1 \
    --as 64496 --restconf 127.0.0.1:$rc
ctl=$LAST_PID
wait_listen "$port" && wait_listen "$rc" || fail "controller"

# check_results DIR/NAME REPORT LABEL=PHASE[:K]...: the two files hold,
# in play.py's order, those labels with the report's figures of each
# phase: its UPDATEs and their rate over the phase's seconds.
check_results() {
	"$PY" - "$@" <<'PYEOF' || fail "results $1"
import json, os, sys
name, report = sys.argv[1], sys.argv[2]
r = json.load(open(report))
ph = {p["name"]: p for p in r["phases"]}
want = {}
for spec in sys.argv[3:]:
    label, phase = spec.rsplit("=", 1)
    p = ph[phase]
    # One prefix per UPDATE in both phases here, so UPDATEs are items.
    want[label] = (p["items"], int(p["items"] / p["seconds"]))
d, base = os.path.split(name)
lines = {k: open(os.path.join(d, k + "-" + base)).read()
         for k in ("totals", "performance")}
for kind, i in (("totals", 0), ("performance", 1)):
    keys = sorted(want)
    text = ", ".join(keys) + "\n" + ", ".join(str(want[k][i])
                                             for k in keys) + "\n"
    got = lines[kind]
    if kind == "performance" and keys:
        # The report's seconds are rounded: 1% either way.
        g = [int(x) for x in got.splitlines()[1].split(", ")]
        w = [want[k][1] for k in keys]
        ok = (got.splitlines()[0] == ", ".join(keys) and
              all(abs(a - b) <= b / 100 + 1 for a, b in zip(g, w)))
    else:
        ok = got == text
    if not ok:
        sys.exit("%s-%s: %r, want %r" % (kind, base, got, text))
    print("%s-%s: %r" % (kind, base, got))
PYEOF
}

# singlepeer_prefixcount: the talking peer's prefixes all reach
# example-ipv4-topology (Check_Talking_Ipv4_Topology_Count), then the
# files.
mkdir -p "$TMPD/r1"
timeout 60 "$SBSIM" bgp --peers 1 --prefixes $P --per-update 1 --as 64496 \
    --peer-as 64496 --controller tcp:127.0.0.1:$port \
    --northbound odl:http://127.0.0.1:$rc --northbound-count topology \
    --timeout 20 --csit-results "$TMPD/r1/bgp.csv" --report "$TMPD/r1.json" \
    -q >"$TMPD/r1.log" 2>&1 || fail "prefixcount: sbsim bgp exited $?"
[ "$(json_get "$TMPD/r1.json" '[p["items"] for p in r["phases"] if p["name"] == "learn"][0]')" = $P ] ||
    fail "prefixcount: the topology did not count $P prefixes"
check_results "$TMPD/r1/bgp.csv" "$TMPD/r1.json" \
    "pre-fill 1 route(s) per UPDATE=announce"

# With churn (play.py's second phase, one prefix withdrawn and announced
# again per pair of UPDATEs) above a lower threshold, and UPDATEs filled
# with as many prefixes as fit: announce's UPDATEs are fewer than its
# prefixes, so it is left out at a threshold of P.
mkdir -p "$TMPD/r2"
timeout 60 "$SBSIM" bgp --peers 2 --prefixes $P --as 64496 --peer-as 64496 \
    --controller tcp:127.0.0.1:$port --churn-rate 2000 --churn-duration 1 \
    --settle 1 \
    --timeout 20 --csit-results "$TMPD/r2/bgp.csv" --csit-threshold $P \
    --report "$TMPD/r2.json" -q >"$TMPD/r2.log" 2>&1 ||
    fail "churn: sbsim bgp exited $?"
check_results "$TMPD/r2/bgp.csv" "$TMPD/r2.json" \
    "+1/-1 routes in two UPDATEs=churn"
updates=$(json_get "$TMPD/r2.json" 'r["counters"]["updates_sent"]')
churned=$(json_get "$TMPD/r2.json" '[p["items"] for p in r["phases"] if p["name"] == "churn"][0]')
[ $((updates - churned)) -lt $((2 * P / 10)) ] ||
    fail "churn: announce sent $((updates - churned)) UPDATEs for $((2 * P)) prefixes"

# Nothing above the threshold: two empty lines, as play.py writes them.
(cd "$TMPD" && timeout 60 "$SBSIM" bgp --peers 1 --prefixes 10 --as 64496 \
    --peer-as 64496 --controller tcp:127.0.0.1:$port --timeout 20 \
    --csit-results few.csv -q >"$TMPD/r3.log" 2>&1) ||
    fail "few: sbsim bgp exited $?"
[ "$(od -An -c "$TMPD/totals-few.csv" | tr -d ' ')" = '\n\n' ] &&
    [ "$(od -An -c "$TMPD/performance-few.csv" | tr -d ' ')" = '\n\n' ] ||
    fail "few: $(cat "$TMPD/totals-few.csv")"
stop_pid "$ctl"
csit_decoded bgp -d "tcp.port==$port,bgp"

bad_usage bgp "cannot write in $TMPD/none" --peers 1 --as 1 \
    --controller tcp:127.0.0.1:1 --csit-results "$TMPD/none/bgp.csv"
bad_usage bgp "names no file" --peers 1 --as 1 \
    --controller tcp:127.0.0.1:1 --csit-results "$TMPD/"
bad_usage bgp "csit-threshold" --peers 1 --as 1 \
    --controller tcp:127.0.0.1:1 --csit-results x --csit-threshold -1
[ "$FAILS" -eq 0 ] || fail "$FAILS bad command lines were not refused"
echo "ok"

#!/bin/bash
# Bench (not part of make check): one sbsim process holding OpenFlow
# switches, NETCONF devices, BGP peers and PCEP PCCs at once against the
# embedded controller with every role (sbsim run, docs/guide.md
# "Scenarios").  Prints each group's connect time, every phase's rate,
# and sbsim's and the controller's CPU seconds and peak RSS (the
# controller sampled with --controller-pid).
# Usage: tests/bench/mixed_scale.sh [SWITCHES NC_DEVICES BGP_PEERS PCCS]
# (default 5000 2000 500 500).  Figures to read, never pass/fail.
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
SW=${1:-5000} NC=${2:-2000} BGP=${3:-500} PCC=${4:-500}
FLOWS=${FLOWS:-$((SW * 10))} PREFIXES=${PREFIXES:-100} LSPS=${LSPS:-10}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-bench.XXXXXX)}
BASE=${BASE:-27000}
OFP=$BASE BGPP=$((BASE + 1)) PCEPP=$((BASE + 2)) RC=$((BASE + 3))
NCP=$((BASE + 4))
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
# BGP peers from 127.50.0.0/16, the monitor the address after them;
# NETCONF devices each on its own address of 127.51.0.0/16, one port.
MON=127.50.$(( (BGP + 1) / 256 )).$(( (BGP + 1) % 256 ))

"$SBSIM" controller --openflow ptcp:$OFP --bgp ptcp:$BGPP:127.0.0.1 \
    --as 65000 --bgp-monitor "$MON" --pcep ptcp:$PCEPP:127.0.0.1 \
    --pcep-update-all 16 --netconf --restconf 127.0.0.1:$RC \
    --stats-interval 2 >"$OUT/ctl.log" 2>&1 &
CTL=$!
trap 'kill $CTL 2>/dev/null; wait $CTL 2>/dev/null' EXIT
sleep 1

cat >"$OUT/mixed.json" <<EOS
{"sbsim-scenario:scenario": {
  "description": "mixed scale bench",
  "option": [{"name": "timeout", "value": ["120"]}],
  "group": [
    {"name": "of", "protocol": "openflow", "count": $SW,
     "controller": "tcp:127.0.0.1:$OFP",
     "option": [{"name": "northbound", "value": ["odl:http://127.0.0.1:$RC"]},
                {"name": "flows", "value": ["$FLOWS"]},
                {"name": "flows-per-request", "value": ["100"]},
                {"name": "northbound-parallel", "value": ["8"]},
                {"name": "connect-rate", "value": ["5000"]}]},
    {"name": "nc", "protocol": "netconf", "count": $NC,
     "option": [{"name": "listen", "value": ["ptcp:$NCP"]},
                {"name": "source", "value": ["127.51.0.1/16"]},
                {"name": "transport", "value": ["tcp"]},
                {"name": "northbound", "value": ["odl:http://127.0.0.1:$RC"]},
                {"name": "northbound-parallel", "value": ["8"]},
                {"name": "edits", "value": ["1"]}]},
    {"name": "bgp", "protocol": "bgp", "count": $BGP,
     "controller": "tcp:127.0.0.1:$BGPP",
     "option": [{"name": "prefixes", "value": ["$PREFIXES"]},
                {"name": "as", "value": ["65001"]},
                {"name": "peer-as", "value": ["65000"]},
                {"name": "source", "value": ["127.50.0.1/16"]},
                {"name": "monitor", "value": ["tcp:127.0.0.1:$BGPP"]},
                {"name": "withdraw"}]},
    {"name": "pcep", "protocol": "pcep", "count": $PCC,
     "controller": "tcp:127.0.0.1:$PCEPP",
     "option": [{"name": "lsps", "value": ["$LSPS"]},
                {"name": "delegate"}]}
  ]}}
EOS
/usr/bin/time -v "$SBSIM" run "$OUT/mixed.json" --controller-pid $CTL \
    --report "$OUT/mixed-r.json" -q >"$OUT/run.log" 2>"$OUT/time.log"
rc=$?
echo "sbsim run exited $rc ($OUT)"
/usr/bin/python3 - "$OUT/mixed-r.json" "$OUT/time.log" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read()
c = r["counters"]
print("%-20s %8s %9s %12s  %s" % ("phase", "items", "seconds", "rate/s", "state"))
for p in r["phases"]:
    print("%-20s %8d %9.3f %12.1f  %s" % (p["name"], p["items"], p["seconds"],
          p["rate_per_s"], p["state"]))
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", t)
print()
print("sbsim: cpu %.2f s (user %.2f, system %.2f), peak RSS %.1f MiB, wall %s"
      % ((c["sbsim_cpu_user_ms"] + c["sbsim_cpu_system_ms"]) / 1000,
         c["sbsim_cpu_user_ms"] / 1000, c["sbsim_cpu_system_ms"] / 1000,
         int(rss.group(1)) / 1024 if rss else 0, wall.group(1) if wall else "?"))
print("controller: cpu %.2f s, peak RSS %.1f MiB, threads %d"
      % (c.get("controller_cpu_ms", 0) / 1000,
         c.get("controller_max_rss_kb", 0) / 1024,
         c.get("controller_threads_max", 0)))
print("sbsim saturated in some phase: %s; ok: %s" % (r["sbsim_saturated"], r["ok"]))
PY

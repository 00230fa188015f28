#!/bin/bash
# The controller's cost and the live metrics (docs/report.md, "Cost" and
# "Live metrics"): a real Prometheus server scrapes --metrics-listen
# during a run and its query API returns the connected switches the
# report counts; --controller-pid samples the embedded controller,
# --controller-metrics scrapes a real Prometheus exposition (Prometheus's
# own /metrics), an endpoint that does not answer is counted, and bad
# values of the options are usage errors before anything starts.  The
# exposition passes `promtool check metrics` without a word: counters as
# counter families named _total, units in base units in the names.
. "$(dirname "$0")/../lib.sh"
need prometheus
need promtool
need curl

base=$(free_ports 8)
OFP=$base RC=$((base + 1)) MP=$((base + 2)) PP=$((base + 3)) DEAD=$((base + 4))
SW=20

bad_usage openflow "no such process" --switches 1 \
    --controller tcp:127.0.0.1:$OFP --controller-pid 2147483000
bad_usage openflow "only http:// is scraped" --switches 1 \
    --controller tcp:127.0.0.1:$OFP --controller-metrics ftp://x/metrics
bad_usage openflow "give one" --switches 1 \
    --controller tcp:127.0.0.1:$OFP --controller-pid $$ \
    --controller-metrics http://127.0.0.1:$PP/metrics
bad_usage openflow "expected \[IP:\]PORT" --switches 1 \
    --controller tcp:127.0.0.1:$OFP --metrics-listen 127.0.0.1:99999
[ "$FAILS" -eq 0 ] || fail "$FAILS usage errors were not reported"

start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$OFP \
    --restconf 127.0.0.1:$RC
CTL=$LAST_PID
wait_listen $OFP || fail "the controller does not listen"

cat >"$TMPD/prom.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: sbsim
    static_configs:
      - targets: ['127.0.0.1:$MP']
EOC
start_bg "$TMPD/prom.log" prometheus --config.file="$TMPD/prom.yml" \
    --storage.tsdb.path="$TMPD/tsdb" --web.listen-address=127.0.0.1:$PP
PROM=$LAST_PID
i=0
until curl -sf "http://127.0.0.1:$PP/-/ready" >/dev/null; do
	i=$((i + 1))
	[ $i -lt 150 ] || fail "prometheus is not ready after 15 s"
	sleep 0.1
done

# Run 1: live metrics scraped by Prometheus, the controller by its PID.
start_bg "$TMPD/run1.log" "$SBSIM" openflow --switches $SW \
    --controller tcp:127.0.0.1:$OFP --duration 8 \
    --metrics-listen 127.0.0.1:$MP --controller-pid $CTL \
    --report "$TMPD/r1.json"
RUN=$LAST_PID
q='sbsim_phase_items{phase="connect",job="sbsim"}'
got= i=0
while [ $i -lt 70 ]; do
	got=$(curl -sG "http://127.0.0.1:$PP/api/v1/query" \
	    --data-urlencode "query=$q" | "$PY" -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")')
	[ "$got" = $SW ] && break
	sleep 0.1
	i=$((i + 1))
done
up=$(curl -sG "http://127.0.0.1:$PP/api/v1/query" \
    --data-urlencode 'query=sbsim_devices{state="up"}' | "$PY" -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")')
# The exposition as promtool lints it: silent, and a counter family.
curl -sf "http://127.0.0.1:$MP/metrics" >"$TMPD/scrape.txt" ||
    fail "no scrape of --metrics-listen"
promtool check metrics <"$TMPD/scrape.txt" >"$TMPD/lint.txt" 2>&1 ||
    fail "promtool check metrics: $(cat "$TMPD/lint.txt")"
[ ! -s "$TMPD/lint.txt" ] || fail "promtool says: $(cat "$TMPD/lint.txt")"
grep -q '^# TYPE sbsim_rx_messages_total counter$' "$TMPD/scrape.txt" &&
    grep -qE '^sbsim_rx_messages_total [1-9]' "$TMPD/scrape.txt" ||
    fail "no counter family sbsim_rx_messages_total in the scrape"
rx=$(curl -sG "http://127.0.0.1:$PP/api/v1/query" \
    --data-urlencode 'query=sbsim_rx_messages_total{job="sbsim"}' | "$PY" -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")')
[ -n "$rx" ] && [ "$rx" -gt 0 ] || fail "Prometheus has no sbsim_rx_messages_total"
wait_exit $RUN 20 || fail "run 1 did not end"
[ "$EXIT_RC" -eq 0 ] || fail "run 1 exited $EXIT_RC"
n=$(json_get "$TMPD/r1.json" \
    '[p["items"] for p in r["phases"] if p["name"]=="connect"][0]')
[ "$n" = "$SW" ] || fail "the report counts $n connected, want $SW"
[ "$got" = "$n" ] || fail "Prometheus says $got connected, the report $n"
[ "$up" = "$n" ] || fail "Prometheus says $up devices up, the report $n"
c=$(json_get "$TMPD/r1.json" \
    '(r["phases"][0]["cost"]["controller"]["rss_max_kb"] > 0 and
     r["counters"]["controller_max_rss_kb"] > 0 and
     "controller_cpu_ms" in r["counters"] and
     r["phases"][0]["cost"]["sbsim"]["busy"] <= 1.5)')
[ "$c" = True ] || fail "no controller cost from --controller-pid"

# Run 2: the controller's cost from a Prometheus text endpoint (here
# Prometheus's own, a Go process: go_threads, process_cpu_seconds_total).
timeout 30 "$SBSIM" openflow --switches $SW --controller tcp:127.0.0.1:$OFP \
    --duration 3 --controller-metrics http://127.0.0.1:$PP/metrics \
    --report "$TMPD/r2.json" --csv "$TMPD/r2.csv" >"$TMPD/run2.log" 2>&1 ||
    fail "run 2 exited $?"
c=$(json_get "$TMPD/r2.json" \
    '(r["counters"].get("controller_scrape_errors", 0) == 0 and
     r["counters"]["controller_threads_max"] > 1 and
     r["counters"]["controller_max_rss_kb"] > 1000 and
     r["phases"][0]["cost"]["controller"]["threads_max"] > 1)')
[ "$c" = True ] || fail "no controller cost from --controller-metrics"
head -n 1 "$TMPD/r2.csv" | grep -q "connect.controller.cpu_s" ||
    fail "the CSV has no connect.controller.cpu_s column"
grep -q "controller cpu s" "$TMPD/run2.log" || fail "no cost table"

# Run 3: an endpoint that does not answer is counted, the run still ends.
timeout 30 "$SBSIM" openflow --switches 2 --controller tcp:127.0.0.1:$OFP \
    --duration 2.5 --controller-metrics http://127.0.0.1:$DEAD/metrics \
    --report "$TMPD/r3.json" >"$TMPD/run3.log" 2>&1 ||
    fail "run 3 exited $?"
e=$(json_get "$TMPD/r3.json" 'r["counters"]["controller_scrape_errors"]')
[ "$e" -ge 2 ] || fail "controller_scrape_errors is $e, want 2 or more"
[ "$(grep -c 'controller_scrape_errors; logged once' "$TMPD/run3.log")" = 1 ] ||
    fail "the scrape error is not logged once"
# Every protocol at once, a scenario's groups as labels: sbsim demo's
# scrape, linted as the single run's was.
DP=$(free_ports 1)
start_bg "$TMPD/demo.log" "$SBSIM" demo --metrics-listen 127.0.0.1:$DP \
    --duration 20 -q
DEMO=$LAST_PID
i=0
until curl -sf "http://127.0.0.1:$DP/metrics" >"$TMPD/demo.txt" &&
    grep -q 'group="nc"' "$TMPD/demo.txt" &&
    grep -q 'group="pcep"' "$TMPD/demo.txt"; do
	i=$((i + 1))
	[ $i -lt 200 ] || fail "no scrape of sbsim demo with its groups"
	sleep 0.1
done
stop_pid "$DEMO"
promtool check metrics <"$TMPD/demo.txt" >"$TMPD/lint2.txt" 2>&1 &&
    [ ! -s "$TMPD/lint2.txt" ] ||
    fail "promtool on sbsim demo's scrape: $(cat "$TMPD/lint2.txt")"
[ "$(grep -c '^# TYPE sbsim_rx_messages_total counter$' "$TMPD/demo.txt")" = 1 ] ||
    fail "sbsim_rx_messages_total is not one counter family"
echo "live metrics: Prometheus saw $got connected = report; controller cost ok"

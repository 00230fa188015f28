#!/bin/bash
# The northbound driver against a stub of OpenDaylight's RESTCONF flow
# writes (odl_stub.py): switches connect to `sbsim controller` (which
# writes no flows), sbsim pushes --flows F through the stub, confirms them
# in the stub's operational table, deletes them and confirms they are
# gone.  Checked: the nb_program / confirm / nb_delete / confirm_delete
# phases, request counts, HTTP status counters, the auth header, both URL
# styles, both formats, one flow per request and batches, 1 and 8
# requests in flight, and a 401 counted as errors.  The switches see no
# flows here, so program times out and the run exits 1 by design.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
STUB="$(dirname "$0")/odl_stub.py"
N=3

# Command-line errors exit 2 before anything starts.
base="--switches 1 --controller tcp:127.0.0.1:1"
for args in "--flows 5" "--northbound odl:http://x" \
    "--northbound odl:https://127.0.0.1:1 --flows 5" \
    "--northbound onos:http://127.0.0.1:1 --flows 5" \
    "--northbound odl:http://127.0.0.1:1" \
    "--northbound odl:http://127.0.0.1:1 --flows 0" \
    "--northbound odl:http://127.0.0.1:1 --flows 5 --flows-per-request 0" \
    "--northbound odl:http://127.0.0.1:1 --flows 5 --northbound-parallel 0" \
    "--northbound odl:http://127.0.0.1:1 --flows 5 --northbound-style x" \
    "--northbound odl:http://127.0.0.1:1 --flows 5 --northbound-format yaml" \
    "--northbound odl:http://127.0.0.1:1 --flows 5 --northbound-format xml --flows-per-request 2" \
    "--northbound odl:http://127.0.0.1:1 --flows 5 --expect-flows 6" \
    "--northbound odl:http://127.0.0.1:1 --flows 5 --flow-table 3 --tables 2" \
    "--northbound odl:http://127.0.0.1:1 --flows 5 --northbound-user a:b" \
    "--northbound-user u"; do
	# shellcheck disable=SC2086
	"$SBSIM" openflow $base $args >"$TMPD/cli.out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "openflow $args: exit $rc, want 2"
	[ "$(wc -l <"$TMPD/cli.out")" -eq 1 ] ||
	    fail "openflow $args: not one line: $(cat "$TMPD/cli.out")"
done

of=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow "ptcp:$of"
wait_listen "$of" || fail "controller did not listen on $of"
nb=$(free_ports 1)
start_bg "$TMPD/stub.out.log" "$PY" "$STUB" "$nb" "$TMPD/req.jsonl"
wait_listen "$nb" || fail "stub did not listen on $nb"
nb2=$(free_ports 1)
start_bg "$TMPD/stub2.out.log" "$PY" "$STUB" "$nb2" "$TMPD/req2.jsonl" \
    --user op --password 's3cr:t'
wait_listen "$nb2" || fail "stub 2 did not listen on $nb2"

# run NAME PORT LOG F K P STYLE FORMAT [more options]: one sbsim run
# against the stub; its report is $TMPD/NAME.json, its exit status RUN_RC.
run() {
	local name=$1 port=$2 log=$3 f=$4 k=$5 p=$6 style=$7 fmt=$8
	shift 8
	: >"$log"
	"$SBSIM" openflow --switches $N --controller "tcp:127.0.0.1:$of" \
	    --northbound "odl:http://127.0.0.1:$port" --flows "$f" \
	    --flows-per-request "$k" --northbound-parallel "$p" \
	    --northbound-style "$style" --northbound-format "$fmt" \
	    --timeout 1 -q --report "$TMPD/$name.json" "$@" \
	    >"$TMPD/$name.log" 2>&1
	RUN_RC=$?
}

# check NAME LOG F REQS STYLE FORMAT AUTH: every phase of the northbound
# done with the counts expected, and the stub saw what it should.
check() {
	"$PY" - "$TMPD/$1.json" "$2" "$3" "$4" "$5" "$6" "$7" <<'PYEOF' ||
import json, sys
rep, log, f, reqs, style, fmt, auth = sys.argv[1:]
f, reqs = int(f), int(reqs)
r = json.load(open(rep))
ph = {p["name"]: p for p in r["phases"]}
c = r["counters"]
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
for name, items in (("nb_program", reqs), ("confirm", f),
                    ("nb_delete", reqs if reqs == f else 3),
                    ("confirm_delete", f)):
    p = ph.get(name, {})
    want(p.get("state") == "DONE" and p.get("items") == items,
         "%s: %s items %s, want DONE %d" % (name, p.get("state"),
                                            p.get("items"), items))
want(ph["nb_program"]["latency_us"]["p50"] > 0, "no HTTP latency")
want([p["name"] for p in r["phases"]] == ["connect", "program", "nb_program",
     "confirm", "delete", "nb_delete", "confirm_delete"],
     "phase order %s" % [p["name"] for p in r["phases"]])
want(c.get("nb_requests") == c.get("nb_http_2xx") and
     c.get("nb_http_4xx", 0) == 0 and c.get("nb_http_5xx", 0) == 0 and
     c.get("nb_transport_errors", 0) == 0, "counters %s" % c)
lines = [json.loads(l) for l in open(log)]
want(len(lines) == c.get("nb_requests"), "stub saw %d, sbsim sent %s" %
     (len(lines), c.get("nb_requests")))
writes = [l for l in lines if l["method"] in ("PUT", "POST")]
want(len(writes) == reqs and sum(l["flows"] for l in writes) == f,
     "writes %d flows %d" % (len(writes), sum(l["flows"] for l in writes)))
want(all(l["method"] == ("PUT" if reqs == f else "POST") for l in writes),
     "write methods")
prefix = "/rests/data/" if style == "rfc8040" else "/restconf/"
want(all(l["path"].startswith(prefix) for l in lines), "URL style")
if style == "rfc8040":
    want(all("node=openflow%3A" in l["path"] for l in lines), "encoded ids")
    want(all(l["path"].endswith("?content=nonconfig") for l in lines
             if l["method"] == "GET"), "GET ?content=nonconfig")
else:
    want(all(l["path"].startswith("/restconf/operational/") ==
             (l["method"] == "GET") for l in lines), "draft datastores")
want(all(l["status"] in (200, 201, 204) for l in lines), "statuses")
want(all(l["auth"] == auth for l in lines), "auth header")
media = ("application/yang-data+" if style == "rfc8040" else
         "application/") + fmt
want(all(l["ctype"] == media for l in writes), "Content-Type")
want(all(l["accept"] == media for l in lines), "Accept")
want(sum(l["method"] == "DELETE" for l in lines) == (f if reqs == f else 3),
     "deletes")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PYEOF
	    fail "$1: $(cat "$TMPD/$1.log")"
}

ADMIN="Basic YWRtaW46YWRtaW4="
run a "$nb" "$TMPD/req.jsonl" 20 1 1 rfc8040 json
[ $RUN_RC -eq 1 ] || fail "a: exit $RUN_RC, want 1 (program sees no flows)"
check a "$TMPD/req.jsonl" 20 20 rfc8040 json "$ADMIN"
run b "$nb" "$TMPD/req.jsonl" 450 100 8 draft json
check b "$TMPD/req.jsonl" 450 6 draft json "$ADMIN"
run c "$nb" "$TMPD/req.jsonl" 30 1 8 rfc8040 xml
check c "$TMPD/req.jsonl" 30 30 rfc8040 xml "$ADMIN"
run d "$nb" "$TMPD/req.jsonl" 10 1 1 draft xml --flow-table 5
check d "$TMPD/req.jsonl" 10 10 draft xml "$ADMIN"
grep -q 'table/5/flow/' "$TMPD/req.jsonl" || fail "d: --flow-table 5 unused"
run e "$nb2" "$TMPD/req2.jsonl" 300 100 1 rfc8040 json \
    --northbound-user op --northbound-password 's3cr:t'
check e "$TMPD/req2.jsonl" 300 3 rfc8040 json "Basic b3A6czNjcjp0"

# Wrong credentials: every write answered 401, counted; nothing to confirm
# or delete, so those phases are not observed.
run f "$nb2" "$TMPD/req2.jsonl" 12 1 4 rfc8040 json
[ $RUN_RC -eq 1 ] || fail "f: exit $RUN_RC, want 1"
"$PY" - "$TMPD/f.json" <<'PYEOF' || fail "401 run: $(cat "$TMPD/f.log")"
import json, sys
r = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in r["phases"]}
c = r["counters"]
ok = (ph["nb_program"]["state"] == "TIMEOUT" and
      ph["nb_program"]["items"] == 0 and
      ph["nb_program"]["latency_us"]["max"] > 0 and
      ph["confirm"]["state"] == "PENDING" and
      ph["nb_delete"]["state"] == "PENDING" and
      c["nb_requests"] == 12 and c["nb_http_4xx"] == 12 and
      c.get("nb_http_2xx", 0) == 0)
if not ok:
    print(ph, c)
sys.exit(0 if ok else 1)
PYEOF
[ "$(wc -l <"$TMPD/req2.jsonl")" -eq 12 ] || fail "f: stub saw other than 12"

# Nothing listens: transport errors, counted.
dead=$(free_ports 1)
run g "$dead" "$TMPD/none.jsonl" 4 1 2 rfc8040 json
"$PY" - "$TMPD/g.json" <<'PYEOF' || fail "transport errors: $(cat "$TMPD/g.log")"
import json, sys
c = json.load(open(sys.argv[1]))["counters"]
sys.exit(0 if c["nb_transport_errors"] == 4 and c["nb_requests"] == 4 else
         print(c) or 1)
PYEOF
echo "northbound_stub: ok"

#!/bin/bash
# The controller role programs groups and meters when asked
# (--groups-per-switch, --meters-per-switch) and deletes them with its
# flows (--delete strict: one DELETE each; all: OFPG_ALL and OFPM_ALL);
# the switches' program_groups, delete_groups, program_meters and
# delete_meters phases end when they hold the count asked for, and then
# none.  A 1.0 switch gets no groups or meters.  With --northbound odl:
# sbsim openflow PUTs --groups-per-switch groups and --meters-per-switch
# meters through the embedded controller's RESTCONF and times them.
. "$(dirname "$0")/../lib.sh"
need ss
[ -x "$PY" ] || skip "$PY is not installed"

# run MODE: 2 switches, 4 groups, 3 meters and 5 flows each.
run() {
	local mode=$1 port
	port=$(free_ports 1)
	start_bg "$TMPD/ctl-$mode.log" "$SBSIM" controller \
	    --openflow "ptcp:$port" --switches 2 --groups-per-switch 4 \
	    --meters-per-switch 3 --flows-per-switch 5 --batch 3 \
	    --delete "$mode" --exit-when-done
	wait_listen "$port" || fail "controller did not listen on $port"
	"$SBSIM" openflow --switches 2 --controller "tcp:127.0.0.1:$port" \
	    --expect-flows 10 --expect-groups 8 --expect-meters 6 \
	    --expect-delete --timeout 20 --report "$TMPD/$mode.json" -q \
	    >"$TMPD/sw-$mode.log" 2>&1 || fail "$mode: the run failed"
	wait_exit "$LAST_PID" 20
	[ "$(json_get "$TMPD/$mode.json" '[(p["name"], p["state"], p["items"]) for p in r["phases"] if p["name"] in ("program", "delete", "program_groups", "delete_groups", "program_meters", "delete_meters")]')" = \
	    "[('program', 'DONE', 10), ('delete', 'DONE', 10), ('program_groups', 'DONE', 8), ('delete_groups', 'DONE', 8), ('program_meters', 'DONE', 6), ('delete_meters', 'DONE', 6)]" ] ||
	    fail "$mode: phases $(json_get "$TMPD/$mode.json" '[(p["name"], p["state"], p["items"]) for p in r["phases"]]')"
	[ "$(json_get "$TMPD/$mode.json" '(r["counters"]["group_mod_errors"], r["counters"]["meter_mod_errors"])')" = "(0, 0)" ] ||
	    fail "$mode: the switches refused some"
}
run strict
grep -q "controller: 16 GROUP_MODs sent, 12 METER_MODs sent" \
    "$TMPD/ctl-strict.log" || fail "strict: controller's GROUP_MOD line"
run all	# 8 and 6 adds, one DELETE of all of each per switch
grep -q "controller: 10 GROUP_MODs sent, 8 METER_MODs sent" \
    "$TMPD/ctl-all.log" || fail "all: controller's GROUP_MOD line"

# OpenFlow 1.0: flows only; the groups' phases are never fed.
port=$(free_ports 1)
start_bg "$TMPD/ctl-10.log" "$SBSIM" controller --openflow "ptcp:$port" \
    --switches 1 --groups-per-switch 4 --flows-per-switch 5 \
    --of-version 1.0 --delete all --exit-when-done
wait_listen "$port" || fail "controller did not listen on $port"
"$SBSIM" openflow --switches 1 --controller "tcp:127.0.0.1:$port" \
    --of-version 1.0 --expect-flows 5 --expect-delete \
    --report "$TMPD/10.json" -q \
    >"$TMPD/sw-10.log" 2>&1 || fail "1.0: the run failed"
wait_exit "$LAST_PID" 20
grep -q "controller: 0 GROUP_MODs" "$TMPD/ctl-10.log" &&
    fail "1.0: a GROUP_MOD line with none sent"
[ "$(json_get "$TMPD/10.json" 'r["counters"]["group_mods"]')" = 0 ] ||
    fail "1.0: the switch got GROUP_MODs"

# --northbound odl: the switches' groups and meters PUT one a request
# into the embedded controller's config, confirmed in its operational
# view, deleted: every group and meter phase completes, in both URL
# styles and formats.
nb_run() {
	local tag=$1 port rc_port
	shift
	port=$(free_ports 1)
	rc_port=$(free_ports 1)
	start_bg "$TMPD/ctl-$tag.log" "$SBSIM" controller \
	    --openflow "ptcp:$port" --restconf "127.0.0.1:$rc_port" \
	    --stats-interval 0.2
	wait_listen "$port" && wait_listen "$rc_port" ||
	    fail "$tag: controller did not listen"
	"$SBSIM" openflow --switches 2 --controller "tcp:127.0.0.1:$port" \
	    --northbound "odl:http://127.0.0.1:$rc_port" --flows 4 \
	    --groups-per-switch 3 --meters-per-switch 2 --timeout 20 \
	    --report "$TMPD/$tag.json" -q "$@" >"$TMPD/sw-$tag.log" 2>&1 ||
	    fail "$tag: the northbound run failed"
	stop_pid "$LAST_PID"
	[ "$(json_get "$TMPD/$tag.json" 'sorted((p["name"], p["state"], p["items"]) for p in r["phases"] if "group" in p["name"] or "meter" in p["name"])')" = \
	    "[('confirm_delete_groups', 'DONE', 6), ('confirm_delete_meters', 'DONE', 4), ('confirm_groups', 'DONE', 6), ('confirm_meters', 'DONE', 4), ('delete_groups', 'DONE', 6), ('delete_meters', 'DONE', 4), ('nb_delete_groups', 'DONE', 6), ('nb_delete_meters', 'DONE', 4), ('nb_program_groups', 'DONE', 6), ('nb_program_meters', 'DONE', 4), ('program_groups', 'DONE', 6), ('program_meters', 'DONE', 4)]" ] ||
	    fail "$tag: phases $(json_get "$TMPD/$tag.json" '[(p["name"], p["state"], p["items"]) for p in r["phases"]]')"
	grep -q "groups: 12 GROUP_MODs sent, 0 refused" "$TMPD/ctl-$tag.log" ||
	    fail "$tag: the controller's groups line"
}
nb_run rfc8040
nb_run draft-xml --northbound-style draft --northbound-format xml
bad_usage openflow "--groups-per-switch needs --northbound" \
    --switches 1 --controller tcp:127.0.0.1:1 --groups-per-switch 2
[ "$FAILS" = 0 ] || fail "usage errors"
exit 0

#!/bin/bash
# sbsim ovsdb's northbound driver against the embedded controller's OVSDB
# role (issue 12, items 4 and 5): active devices connect to the manager,
# passive ones are configured through RESTCONF and connected to; B
# bridges per node are created through topology ovsdb:1, timed at the
# devices (program) and confirmed in the operational topology, then
# deleted; every phase DONE with exact counts.
. "$(dirname "$0")/../lib.sh"

base=$(free_ports 40)
OVP=$base RC=$((base + 1)) DEV=$((base + 10))
start_bg "$TMPD/ctl.log" "$SBSIM" controller --ovsdb ptcp:$OVP:127.0.0.1 \
    --restconf 127.0.0.1:$RC
wait_listen $OVP && wait_listen $RC || fail "the controller does not listen"

check() {
	local r=$1 mode=$2 n=$3 b=$4 p want got
	for p in connect learn program delete nb_learn nb_program confirm \
	    nb_delete confirm_delete; do
		case $p in
		program|delete|nb_program|confirm|nb_delete|confirm_delete)
			want=$((n * b)) ;;
		*)	want=$n ;;
		esac
		got=$(json_get "$r" "[(q['state'], q['items']) for q in r['phases'] if q['name']=='$p']")
		[ "$got" = "[('DONE', $want)]" ] ||
		    fail "$mode: phase $p is $got, want DONE with $want"
	done
}

timeout 60 "$SBSIM" ovsdb --devices 20 --controller tcp:127.0.0.1:$OVP \
    --northbound odl:http://127.0.0.1:$RC --bridges 2 --timeout 10 \
    --report "$TMPD/active.json" -q >"$TMPD/active.log" 2>&1 ||
    fail "active run exited $?"
check "$TMPD/active.json" active 20 2

timeout 60 "$SBSIM" ovsdb --devices 10 --controller ptcp:$DEV:127.0.0.1 \
    --northbound odl:http://127.0.0.1:$RC --northbound-style draft \
    --bridges 3 --timeout 10 --report "$TMPD/passive.json" -q \
    >"$TMPD/passive.log" 2>&1 || fail "passive run exited $?"
check "$TMPD/passive.json" passive 10 3
for p in nb_connect disconnected nb_disconnect; do
	got=$(json_get "$TMPD/passive.json" "[(q['state'], q['items']) for q in r['phases'] if q['name']=='$p']")
	[ "$got" = "[('DONE', 10)]" ] || fail "passive: $p is $got"
done
echo "ovsdb northbound against the embedded controller: active 20x2, passive 10x3"

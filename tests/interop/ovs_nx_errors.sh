#!/bin/bash
# The errors of Nicira's actions and TLV table messages, compared with
# what Open vSwitch's own switch answers: a private ovs-vswitchd (dummy
# datapath, its database, sockets and logs in this test's directory) and
# a passive sbsim switch get the same raw FLOW_MODs and NXT_TLV_TABLE_MODs
# in 1.0 and 1.3 (of_nx_errors.py), and every answer must be the same:
# standard codes, Nicira's in their vendor encoding (NXET_VENDOR in 1.0,
# EXPERIMENTER in 1.3), and the TLV map's state from case to case.
. "$(dirname "$0")/../lib.sh"
need ovs-vswitchd
need ovsdb-server
need ovsdb-tool
need ovs-vsctl
need ss
SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
[ -f "$SCHEMA" ] || skip "no $SCHEMA"
PY=/usr/bin/python3
HERE=$(dirname "$0")

# Open vSwitch's run, log and database paths, all inside $TMPD.
export OVS_RUNDIR=$TMPD OVS_LOGDIR=$TMPD OVS_DBDIR=$TMPD OVS_SYSCONFDIR=$TMPD
db=unix:$TMPD/db.sock
ovsdb-tool create "$TMPD/conf.db" "$SCHEMA" || fail "ovsdb-tool create"
start_bg "$TMPD/ovsdb-server.log" ovsdb-server --remote=punix:"$TMPD/db.sock" \
    --unixctl="$TMPD/ovsdb-server.ctl" "$TMPD/conf.db"
for i in $(seq 100); do [ -S "$TMPD/db.sock" ] && break; sleep 0.1; done
timeout 20 ovs-vsctl --db="$db" --no-wait init || fail "ovs-vsctl init"
start_bg "$TMPD/ovs-vswitchd.log" ovs-vswitchd "$db" --enable-dummy --disable-system \
    --unixctl="$TMPD/ovs-vswitchd.ctl"
ovs_port=$(free_ports 2)
sb_port=$((ovs_port + 1))
timeout 30 ovs-vsctl --db="$db" --timeout=20 add-br br0 \
    -- set bridge br0 datapath_type=dummy \
    -- set-controller br0 "ptcp:$ovs_port:127.0.0.1" ||
    fail "ovs-vsctl add-br"
wait_listen "$ovs_port" || fail "ovs-vswitchd did not listen on $ovs_port"

start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches 1 \
    --controller "ptcp:$sb_port" --of-version 1.3,1.0 --duration 120 -q
wait_listen "$sb_port" || fail "sbsim did not listen on $sb_port"

timeout 60 $PY "$HERE/of_nx_errors.py" "$ovs_port" >"$TMPD/ovs.out" ||
    fail "against ovs-vswitchd: $(tail -3 "$TMPD/ovs.out")"
timeout 60 $PY "$HERE/of_nx_errors.py" "$sb_port" >"$TMPD/sbsim.out" ||
    fail "against sbsim: $(tail -3 "$TMPD/sbsim.out")"
grep -q 'reg_load2_tun_unmapped *1.3 error ffff002500002320' \
    "$TMPD/ovs.out" &&
    grep -q 'tlv_clear_in_use *1.3 error ffff002600002320' "$TMPD/ovs.out" ||
    fail "ovs-vswitchd's answers unexpected:
$(cat "$TMPD/ovs.out")"
diff -u "$TMPD/ovs.out" "$TMPD/sbsim.out" >&2 ||
    fail "sbsim answers otherwise than ovs-vswitchd"
echo "$(wc -l <"$TMPD/sbsim.out") answers the same as ovs-vswitchd's"

#!/bin/bash
# ovs-ofctl -O OpenFlow13 (Open vSwitch) programs groups on a passive sbsim
# switch: one of each type added and read back as given, modified, its
# stats (ref_count = the flows naming it) and the features read, the
# errors a switch owes (GROUP_EXISTS, UNKNOWN_GROUP, BAD_OUT_GROUP,
# OUT_OF_GROUPS past --max-groups), chaining (LOOP, CHAINED_GROUP,
# ref_count counting a group that forwards), a group's delete taking its
# flows with it (1.3.5 section 6.5), and del-groups emptying the table.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/ofctl_passive.sh"
need ovs-ofctl
need ss
OFCTL="timeout 30 ovs-ofctl -O OpenFlow13"
MAX=5
passive_start --max-groups $MAX --max-group-depth 2

# Each type, written as ovs-ofctl prints it back (so the dump must equal
# the input: buckets kept as sent).
cat >"$TMPD/groups" <<'EOF'
group_id=1,type=all,bucket=actions=output:1,bucket=actions=output:2
group_id=2,type=select,bucket=weight:10,actions=output:1,bucket=weight:20,actions=set_field:00:11:22:33:44:55->eth_dst,output:2
group_id=3,type=indirect,bucket=actions=push_vlan:0x8100,set_field:4196->vlan_vid,output:3
group_id=4,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,actions=output:2
EOF
while read -r g; do
	$OFCTL add-group $EP "$g" || fail "add-group $g"
done <"$TMPD/groups"
dump() { $OFCTL dump-groups $EP | grep group_id= | sed 's/^ *//' | sort; }
dump >"$TMPD/dump"
diff -u <(sort "$TMPD/groups") "$TMPD/dump" || fail "dump-groups differs from what was added"

# Errors: each must fail and name its code.
expect_err OFPGMFC_GROUP_EXISTS add-group $EP 'group_id=1,type=all,bucket=output:3'
expect_err OFPGMFC_UNKNOWN_GROUP mod-group $EP 'group_id=9,type=all,bucket=output:1'
expect_err OFPBAC_BAD_OUT_GROUP add-flow $EP 'priority=5,ip,actions=group:7'
expect_err OFPGMFC_BAD_WATCH add-group $EP 'group_id=8,type=ff,bucket=watch_port:9,output:1'
expect_err OFPBAC_BAD_OUT_PORT add-group $EP 'group_id=8,type=all,bucket=output:9'

# MODIFY replaces type and buckets.
$OFCTL mod-group $EP 'group_id=1,type=select,bucket=weight:5,actions=output:4' ||
    fail "mod-group"
dump | grep -qx 'group_id=1,type=select,bucket=weight:5,actions=output:4' ||
    fail "mod-group not read back: $(dump)"

# ref_count counts the flows naming a group.
$OFCTL add-flow $EP 'priority=5,ip,actions=group:1' || fail "add-flow group:1"
$OFCTL add-flow $EP 'priority=6,tcp,actions=group:1,output:3' || fail "add-flow 2"
$OFCTL add-flow $EP 'priority=7,udp,actions=group:2' || fail "add-flow group:2"
$OFCTL dump-group-stats $EP group_id=1 | grep -q 'group_id=1,.*ref_count=2,' ||
    fail "group 1 stats: $($OFCTL dump-group-stats $EP)"
[ "$($OFCTL dump-group-stats $EP | grep -c 'group_id=')" -eq 4 ] ||
    fail "dump-group-stats: $($OFCTL dump-group-stats $EP)"
feat=$($OFCTL dump-group-features $EP)
echo "$feat" | grep -q 'Types:  0xf' || fail "group features: $feat"
echo "$feat" | grep -q "max_groups=0x$(printf %x $MAX)" || fail "max_groups: $feat"

# Chaining (1.3.5 section 5.6.1): 5 forwards to 2, so 2's ref_count is
# its flow and group 5 (7.3.5.9); 2 forwarding back would loop, and 2
# cannot go while 5 forwards to it (CHAINED_GROUP).
$OFCTL add-group $EP 'group_id=5,type=indirect,bucket=actions=group:2' ||
    fail "group 5 forwarding to group 2"
dump | grep -qx 'group_id=5,type=indirect,bucket=actions=group:2' ||
    fail "group 5 not read back: $(dump)"
$OFCTL dump-group-stats $EP group_id=2 | grep -q 'group_id=2,.*ref_count=2,' ||
    fail "group 2 stats: $($OFCTL dump-group-stats $EP group_id=2)"
expect_err OFPGMFC_LOOP mod-group $EP 'group_id=2,type=all,bucket=actions=group:5'
expect_err OFPGMFC_CHAINED_GROUP del-groups $EP group_id=2
# 1 -> 5 -> 2 would be three groups on a chain, past --max-group-depth 2.
expect_err OFPGMFC_CHAINING_UNSUPPORTED mod-group $EP 'group_id=1,type=all,bucket=actions=group:5'

# The bound: MAX groups, the next is OUT_OF_GROUPS.
expect_err OFPGMFC_OUT_OF_GROUPS add-group $EP 'group_id=6,type=all,bucket=output:1'

# Deleting group 1 removes its two flows and leaves the group:2 one.
$OFCTL del-groups $EP group_id=1 || fail "del-groups group_id=1"
[ "$(nflows)" -eq 1 ] || fail "after deleting group 1: $(nflows) flows, want 1"
$OFCTL dump-flows $EP | grep -q 'group:2' || fail "the group:2 flow went"
[ "$(dump | wc -l)" -eq 4 ] || fail "after deleting group 1: $(dump)"
$OFCTL del-groups $EP || fail "del-groups (all)"
[ -z "$(dump)" ] || fail "groups left: $(dump)"
[ "$(nflows)" -eq 0 ] || fail "after del-groups: $(nflows) flows, want 0"

passive_stop groups_out_of_room=1 groups_too_deep=1 group_mod_errors=8
echo "ovs-ofctl OpenFlow13: groups of each type added, read back, modified, counted and deleted"

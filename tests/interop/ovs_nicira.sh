#!/bin/bash
# ovs-ofctl (Open vSwitch) in its default mode (OpenFlow 1.0 with NXM:
# NXT_SET_FLOW_FORMAT, NXT_FLOW_MOD, NXST_FLOW) and with -O OpenFlow13
# (experimenter OXM fields and actions) against a passive sbsim switch:
# a flow with each Nicira field and action is added, dump-flows prints
# exactly what was added (written here as ovs-ofctl prints it, read
# back over several NXST_FLOW / OFPMP_FLOW reply messages), a
# non-strict delete on a register selects by it, a strict one needs the
# exact match, and del-flows empties the table.
. "$(dirname "$0")/../lib.sh"
need ovs-ofctl
need ss

# Fields and actions both versions carry.
cat >"$TMPD/common" <<'EOF2'
priority=10,reg3=0x5/0xff,reg15=0x10 actions=resubmit(1,4)
priority=11,reg0=0,reg1=0x12 actions=resubmit(,7)
priority=12,ct_state=-new+trk,ct_label=0x1,ip actions=ct(commit,zone=5,exec(load:0x1->NXM_NX_CT_MARK[]))
priority=13,ip actions=ct(commit,table=4,zone=NXM_NX_REG0[0..15],nat(src=10.0.0.1-10.0.0.9:100-200))
priority=14,tcp actions=multipath(eth_src,50,hrw,12,0,NXM_NX_REG0[0..3])
priority=15,udp actions=bundle_load(eth_src,0,hrw,ofport,NXM_NX_REG0[],members:1,2)
priority=16,conj_id=7 actions=output:3
priority=17,ip,nw_src=10.0.0.1 actions=conjunction(7,1/2)
priority=18,reg1=0x1 actions=learn(table=10,idle_timeout=30,NXM_OF_VLAN_TCI[0..11],NXM_OF_ETH_DST[]=NXM_OF_ETH_SRC[],load:NXM_OF_IN_PORT[]->NXM_NX_REG0[0..15],output:NXM_OF_IN_PORT[])
priority=19,dl_vlan=5 actions=output:2
priority=20,in_port=2,dl_vlan_pcp=3 actions=output:1
priority=21,reg4=0x1 actions=load:0x5->NXM_NX_REG1[0..7],move:NXM_NX_REG0[]->NXM_NX_REG2[],note:01.02.03.00.00.00,output:NXM_NX_REG0[0..15]
priority=22,ct_state=+est+trk,ct_zone=5,ct_mark=0x3/0xf,ip actions=ct(commit,zone=5,exec(load:0x1->NXM_NX_CT_LABEL[0..7]))
EOF2
# NXM only (ovs-ofctl has no OXM for these in 1.3, or prints 1.3's way).
cat >"$TMPD/only10" <<'EOF2'
table=3,priority=7,pkt_mark=0x9,ct_state=+est+trk,ct_zone=5,ct_mark=0x3/0xf,tun_id=0x55,metadata=0x7 actions=load:0x5->NXM_NX_REG1[0..7],dec_ttl,output:NXM_NX_REG0[0..15]
priority=23,reg5=0x1 actions=load:0x7->NXM_NX_REG5[]
table=5,priority=8,ip actions=resubmit(,6)
priority=27,tcp,nw_ttl=5,nw_frag=first,tcp_flags=+syn-ack actions=drop
priority=28,recirc_id=0x5,dp_hash=0x3/0xf,tun_src=1.1.1.1,tun_dst=2.2.2.0/24,tun_flags=+oam actions=exit,ct_clear,set_tunnel:0x5
EOF2
cat >"$TMPD/only13" <<'EOF2'
priority=23,reg5=0x1 actions=set_field:0x7->reg5
priority=24,reg2=0x1 actions=resubmit(,3),goto_table:5
priority=25,ip,tun_id=0x55,metadata=0x7 actions=dec_ttl
priority=26,pkt_mark=0x9 actions=drop
priority=27,tcp,tcp_flags=+syn-ack actions=drop
EOF2

run_version() {	# LABEL OFCTL-ARGS... (flows files from $FLOWS)
	local label=$1 port ep sb
	shift
	port=$(free_ports 1)
	ep=tcp:127.0.0.1:$port
	start_bg "$TMPD/sbsim-$label.log" "$SBSIM" openflow --switches 1 \
	    --controller ptcp:$port --tables 16 --multipart-bytes 1024 \
	    --duration 120 \
	    --report "$TMPD/r-$label.json" -q
	sb=$LAST_PID
	wait_listen "$port" || fail "$label: sbsim did not listen on $port"
	cat $FLOWS >"$TMPD/added-$label"
	while read -r f; do
		timeout 30 ovs-ofctl "$@" add-flow "$ep" "$f" ||
		    fail "$label: add-flow $f"
	done <"$TMPD/added-$label"
	timeout 30 ovs-ofctl "$@" dump-flows --no-stats "$ep" |
	    grep 'actions=' | sed 's/^ *//; s/^\(table=[0-9]*\), /\1,/' |
	    sort >"$TMPD/dump-$label"
	diff -u <(sort "$TMPD/added-$label") "$TMPD/dump-$label" ||
	    fail "$label: dump-flows differs from what was added"
	# ... though the reply came in several messages (MORE flag).
	timeout 30 ovs-ofctl "$@" -vvconn dump-flows "$ep" 2>&1 |
	    grep -q 'reply (.*flags=\[more\]' ||
	    fail "$label: flow stats not split at --multipart-bytes 1024"
	# Non-strict on an extension field selects by it.
	timeout 30 ovs-ofctl "$@" del-flows "$ep" "reg1=0x1" ||
	    fail "$label: del-flows reg1=0x1"
	timeout 30 ovs-ofctl "$@" dump-flows "$ep" | grep -q 'reg1=0x1 ' &&
	    fail "$label: reg1=0x1 flow left"
	timeout 30 ovs-ofctl "$@" dump-flows "$ep" | grep -q 'learn(' &&
	    fail "$label: reg1=0x1 delete missed the learn flow"
	# Strict: the exact match and priority only.
	timeout 30 ovs-ofctl "$@" --strict del-flows "$ep" \
	    "priority=16,conj_id=8" || fail "$label: strict del-flows"
	timeout 30 ovs-ofctl "$@" dump-flows "$ep" | grep -q 'conj_id=7' ||
	    fail "$label: strict delete of conj_id=8 removed conj_id=7"
	timeout 30 ovs-ofctl "$@" --strict del-flows "$ep" \
	    "priority=16,conj_id=7" || fail "$label: strict del-flows 7"
	timeout 30 ovs-ofctl "$@" dump-flows "$ep" | grep -q 'conj_id=7' &&
	    fail "$label: conj_id=7 left"
	timeout 30 ovs-ofctl "$@" dump-aggregate "$ep" >"$TMPD/agg-$label"
	want=$(($(wc -l <"$TMPD/added-$label") - 2))
	grep -q "flow_count=$want" "$TMPD/agg-$label" ||
	    fail "$label: $(cat "$TMPD/agg-$label"), want flow_count=$want"
	timeout 30 ovs-ofctl "$@" del-flows "$ep" || fail "$label: del-flows"
	[ "$(timeout 30 ovs-ofctl "$@" dump-flows "$ep" | grep -c actions=)" \
	    -eq 0 ] || fail "$label: flows left after del-flows"
	# Cookies select (NXM_NX_COOKIE in NXM, cookie_mask in 1.3).
	timeout 30 ovs-ofctl "$@" add-flow "$ep" \
	    "cookie=0x5,priority=5,reg0=0x1,actions=drop" || fail "$label: c5"
	timeout 30 ovs-ofctl "$@" add-flow "$ep" \
	    "cookie=0x6,priority=6,reg0=0x1,actions=drop" || fail "$label: c6"
	timeout 30 ovs-ofctl "$@" del-flows "$ep" "cookie=0x5/-1" ||
	    fail "$label: del-flows cookie"
	timeout 30 ovs-ofctl "$@" mod-flows "$ep" "cookie=0x6/-1,actions=output:1" ||
	    fail "$label: mod-flows cookie"
	got=$(timeout 30 ovs-ofctl "$@" dump-flows --no-stats "$ep" "cookie=0x6/-1" |
	    grep actions= | sed 's/^ *//')
	[ "$got" = "cookie=0x6, priority=6,reg0=0x1 actions=output:1" ] ||
	    fail "$label: after the cookie delete and modify: $got"
	[ "$(timeout 30 ovs-ofctl "$@" dump-flows "$ep" | grep -c actions=)" \
	    -eq 1 ] || fail "$label: cookie=0x5 not deleted"
	# A 1.0 tool that never asked for NXM reads such a flow too, its
	# extension fields left out of the ofp_match (as from Open vSwitch).
	if [ "$label" = nxm ]; then
		timeout 30 ovs-ofctl "$@" del-flows "$ep"
		timeout 30 ovs-ofctl "$@" add-flow "$ep" \
		    "priority=30,reg0=0x1,ip,actions=drop" || fail "nxm: p30"
		got=$(timeout 30 ovs-ofctl --flow-format=openflow10 \
		    dump-flows --no-stats "$ep" | grep actions= | sed 's/^ *//')
		[ "$got" = "priority=30,ip actions=drop" ] ||
		    fail "nxm: OFPST_FLOW of an NXM flow: '$got'"
	fi
	stop_pid "$sb"
	errs=$(json_get "$TMPD/r-$label.json" \
	    'r["counters"].get("flow_mod_errors", 0)')
	[ "$errs" = 0 ] || fail "$label: $errs FLOW_MOD errors"
}

# tun_metadata: NXT_TLV_TABLE_MOD/REQUEST, flows on mapped fields read
# back as added, Open vSwitch's NXTTMFC_* and NXFMFC_INVALID_TLV_FIELD.
cat >"$TMPD/tlvflows" <<'EOF2'
priority=5,tun_metadata0=0x1200/0xff00 actions=set_field:0x1/0xff->tun_metadata0
priority=6,tun_metadata0=0,tun_metadata63=0x1122334455667788 actions=set_field:0x5->tun_metadata0,move:NXM_NX_TUN_METADATA63[0..31]->NXM_NX_REG0[]
priority=8,tun_metadata1=0xabcdef actions=set_field:0x1/0xffff->tun_metadata1
EOF2
TLVMAP="{class=0xffff,type=0,len=4}->tun_metadata0,{class=0x102,type=0x80,len=8}->tun_metadata63,{class=0x102,type=0x81,len=124}->tun_metadata1"

ofctl_err() {	# WANT LABEL OFCTL-ARGS...: fails with the error WANT
	local want=$1 label=$2 out
	shift 2
	out=$(timeout 30 ovs-ofctl "$@" 2>&1) && fail "$label: accepted: $*"
	case $out in
	*"$want"*) ;;
	*) fail "$label: $* gave '$out', want $want" ;;
	esac
}

run_tlv() {	# LABEL REFUSED OFCTL-ARGS... (REFUSED: nx_refused wanted)
	local label=$1 refused=$2 port ep sb
	shift 2
	port=$(free_ports 1)
	ep=tcp:127.0.0.1:$port
	start_bg "$TMPD/sbsim-tlv-$label.log" "$SBSIM" openflow \
	    --switches 1 --controller ptcp:$port --duration 120 \
	    --report "$TMPD/r-tlv-$label.json" -q
	sb=$LAST_PID
	wait_listen "$port" || fail "tlv $label: sbsim did not listen"
	ofctl_err NXFMFC_INVALID_TLV_FIELD "tlv $label" "$@" add-flow "$ep" \
	    "tun_metadata0=0x1,actions=drop"
	timeout 30 ovs-ofctl "$@" add-tlv-map "$ep" "$TLVMAP" ||
	    fail "tlv $label: add-tlv-map"
	timeout 30 ovs-ofctl "$@" dump-tlv-map "$ep" >"$TMPD/map-$label"
	grep -q 'max option space=256 max fields=64' "$TMPD/map-$label" &&
	    grep -q 'allocated option space=136' "$TMPD/map-$label" &&
	    grep -Eq '0x102 +0x81 +124 +tun_metadata1' "$TMPD/map-$label" ||
	    fail "tlv $label: dump-tlv-map: $(cat "$TMPD/map-$label")"
	while read -r f; do
		timeout 30 ovs-ofctl "$@" add-flow "$ep" "$f" ||
		    fail "tlv $label: add-flow $f"
	done <"$TMPD/tlvflows"
	timeout 30 ovs-ofctl "$@" dump-flows --no-stats "$ep" |
	    grep 'actions=' | sed 's/^ *//' | sort >"$TMPD/tlvdump-$label"
	diff -u <(sort "$TMPD/tlvflows") "$TMPD/tlvdump-$label" ||
	    fail "tlv $label: dump-flows differs from what was added"
	ofctl_err NXFMFC_INVALID_TLV_FIELD "tlv $label" "$@" add-flow "$ep" \
	    "actions=set_field:0x5->tun_metadata2"
	ofctl_err NXTTMFC_ALREADY_MAPPED "tlv $label" "$@" add-tlv-map "$ep" \
	    "{class=0xffff,type=9,len=4}->tun_metadata0"
	ofctl_err NXTTMFC_DUP_ENTRY "tlv $label" "$@" add-tlv-map "$ep" \
	    "{class=0xffff,type=0,len=4}->tun_metadata2"
	ofctl_err NXTTMFC_TABLE_FULL "tlv $label" "$@" add-tlv-map "$ep" \
	    "{class=1,type=1,len=124}->tun_metadata2"
	ofctl_err NXTTMFC_INVALID_TLV_DEL "tlv $label" "$@" del-tlv-map \
	    "$ep" "{class=0xffff,type=0,len=4}->tun_metadata0"
	timeout 30 ovs-ofctl "$@" del-flows "$ep" || fail "tlv $label: del-flows"
	timeout 30 ovs-ofctl "$@" del-tlv-map "$ep" \
	    "{class=0xffff,type=0,len=4}->tun_metadata0" ||
	    fail "tlv $label: del-tlv-map one"
	timeout 30 ovs-ofctl "$@" dump-tlv-map "$ep" | grep -q tun_metadata0 &&
	    fail "tlv $label: tun_metadata0 left mapped"
	timeout 30 ovs-ofctl "$@" del-tlv-map "$ep" ||
	    fail "tlv $label: del-tlv-map (clear)"
	timeout 30 ovs-ofctl "$@" dump-tlv-map "$ep" |
	    grep -q 'allocated option space=0' || fail "tlv $label: not cleared"
	stop_pid "$sb"
	errs=$(json_get "$TMPD/r-tlv-$label.json" \
	    'r["counters"].get("nx_refused", 0)')
	[ "$errs" = "$refused" ] ||
	    fail "tlv $label: nx_refused $errs, want $refused"
}

# Four TLV table refusals; NXM's NXT_FLOW_MOD with an unmapped field too.
run_tlv nxm 5
run_tlv of13 4 -O OpenFlow13
FLOWS="$TMPD/common $TMPD/only10" run_version nxm
FLOWS="$TMPD/common $TMPD/only13" run_version of13 -O OpenFlow13
echo "ovs-ofctl NXM and OpenFlow13: each Nicira field and action read back as added; TLV map add/dump/del, tun_metadata flows"

#!/usr/bin/python3
"""Write the seed corpus of tests/fuzz/fuzz_of_decode.c.

usage: gen_corpus.py DIR

Each seed is one selector byte (bit 7: OpenFlow 1.0, bits 0-6: the
harness's enum fz_kind) and then a valid message of that kind, laid out
field by field from OpenFlow 1.3.5 section 7 and 1.0.0 section 5.  Seeds
found by the fuzzer (crashes that were fixed) live in the same folder
under names starting with "crash-" and are not written by this script.
Plain struct only.
"""
import os
import struct
import sys

# enum fz_kind in fuzz_of_decode.c, in order.
(HEADER, HELLO, ERROR, FEATURES_REPLY, SWITCH_CONFIG, PACKET_IN, PACKET_OUT,
 FLOW_MOD, PORT_MOD, ROLE, ASYNC, QUEUE_GET_CONFIG, MP_REQUEST, MP_REPLY,
 MATCH13, MATCH10, ACTIONS, INSTRUCTIONS, SWITCH, NXM, NX_TLV) = range(21)
V13, V10 = 4, 1

# Message types: (1.3, 1.0).
T = {
    "HELLO": (0, 0), "ERROR": (1, 1), "FEATURES_REQUEST": (5, 5),
    "FEATURES_REPLY": (6, 6), "SET_CONFIG": (9, 9), "PACKET_IN": (10, 10),
    "PACKET_OUT": (13, 13), "FLOW_MOD": (14, 14), "PORT_MOD": (16, 15),
    "GROUP_MOD": (15, None), "METER_MOD": (29, None),
    "MP_REQUEST": (18, 16), "MP_REPLY": (19, 17),
    "QUEUE_GET_CONFIG_REQUEST": (22, 20), "ROLE_REQUEST": (24, None),
    "SET_ASYNC": (28, None),
}
MP_FLOW, MP_AGGREGATE, MP_PORT_STATS = 1, 2, 4
ANY32, NONE10, NO_BUFFER = 0xffffffff, 0xffff, 0xffffffff
# OXM basic fields.
IN_PORT, ETH_DST, ETH_TYPE, VLAN_VID, IP_PROTO, IPV4_SRC, IPV4_DST = \
    0, 3, 5, 6, 10, 11, 12
TCP_DST, IPV6_SRC = 14, 26
# 1.0 wildcards.
FW_IN_PORT, FW_DL_VLAN, FW_DL_SRC, FW_DL_DST, FW_DL_TYPE = 1, 2, 4, 8, 16
FW_NW_PROTO, FW_TP_SRC, FW_TP_DST = 32, 64, 128
FW_DL_VLAN_PCP, FW_NW_TOS, FW_ALL = 1 << 20, 1 << 21, (1 << 22) - 1
FW_NW_SRC_ALL, FW_NW_DST_ALL = 32 << 8, 32 << 14


def msg(v, name, body=b"", xid=1):
    t = T[name][0 if v == V13 else 1]
    return struct.pack("!BBHI", v, t, 8 + len(body), xid) + body


def oxm(field, value, mask=None):
    hm = 1 if mask is not None else 0
    n = len(value) * (2 if hm else 1)
    return (struct.pack("!I", 0x8000 << 16 | field << 9 | hm << 8 | n) +
            value + (mask or b""))


def match13(*tlvs):
    body = b"".join(tlvs)
    m = struct.pack("!HH", 1, 4 + len(body)) + body
    return m + b"\0" * ((8 - len(m) % 8) % 8)


def match10(wildcards=FW_ALL, in_port=0, dl_src=b"\0" * 6, dl_dst=b"\0" * 6,
            dl_vlan=0, pcp=0, dl_type=0, nw_tos=0, nw_proto=0, nw_src=0,
            nw_dst=0, tp_src=0, tp_dst=0):
    return struct.pack("!IH6s6sHBxHBBxxIIHH", wildcards, in_port, dl_src,
                       dl_dst, dl_vlan, pcp, dl_type, nw_tos, nw_proto,
                       nw_src, nw_dst, tp_src, tp_dst)


def out13(port):
    return struct.pack("!HHIH6x", 0, 16, port, 0xffff)


def out10(port):
    return struct.pack("!HHHH", 0, 8, port, 0xffff)


def set_field(field, value):
    a = struct.pack("!HH", 25, 0) + oxm(field, value)
    a += b"\0" * ((8 - len(a) % 8) % 8)
    return a[:2] + struct.pack("!H", len(a)) + a[4:]


def apply_actions(*acts):
    a = b"".join(acts)
    return struct.pack("!HH4x", 4, 8 + len(a)) + a


def goto_table(t):
    return struct.pack("!HHB3x", 1, 8, t)


def write_metadata(v, m):
    return struct.pack("!HH4xQQ", 2, 24, v, m)


IP4 = oxm(ETH_TYPE, b"\x08\x00")
TCP = oxm(IP_PROTO, b"\x06")
M13_TCP = match13(IP4, TCP, oxm(IPV4_DST, bytes([10, 1, 0, 0]),
                                bytes([255, 255, 0, 0])),
                  oxm(TCP_DST, b"\x00\x50"))
M13_PORT = match13(oxm(IN_PORT, struct.pack("!I", 3)),
                   oxm(ETH_DST, bytes([2, 0, 0, 0, 0, 1])))
M13_V6 = match13(oxm(ETH_TYPE, b"\x86\xdd"),
                 oxm(IPV6_SRC, bytes(15) + b"\x01", b"\xff" * 8 + bytes(8)),
                 oxm(VLAN_VID, b"\x10\x00", b"\x10\x00"))
M10_TCP = match10(FW_ALL & ~(FW_DL_TYPE | FW_NW_PROTO | FW_TP_DST) &
                  ~(0x3f << 14) | (8 << 14), dl_type=0x0800, nw_proto=6,
                  nw_dst=0x0a010000, tp_dst=80)
M10_PORT = match10(FW_ALL & ~(FW_IN_PORT | FW_DL_DST | FW_DL_VLAN), in_port=3,
                   dl_dst=bytes([2, 0, 0, 0, 0, 1]), dl_vlan=10)
FRAME = bytes([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x00]) + bytes(46)


def flow_mod13(cmd=0, table=0, prio=100, idle=0, hard=0, flags=0, cookie=1,
               match=M13_TCP, inst=None, out_port=ANY32, out_group=ANY32):
    if inst is None:
        inst = apply_actions(out13(2))
    return msg(V13, "FLOW_MOD", struct.pack(
        "!QQBBHHHIIIH2x", cookie, 0, table, cmd, idle, hard, prio,
        NO_BUFFER, out_port, out_group, flags) + match + inst)


def flow_mod10(cmd=0, prio=100, idle=0, hard=0, flags=0, cookie=1,
               match=M10_TCP, acts=None, out_port=NONE10):
    if acts is None:
        acts = out10(2)
    return msg(V10, "FLOW_MOD", match + struct.pack(
        "!QHHHHIHH", cookie, cmd, idle, hard, prio, NO_BUFFER, out_port,
        flags) + acts)


def flow_stats_req(v, match=None, table=0xff):
    if v == V13:
        body = struct.pack("!HH4xB3xII4xQQ", MP_FLOW, 0, table, ANY32,
                           ANY32, 0, 0) + (match or match13())
    else:
        body = struct.pack("!HH", MP_FLOW, 0) + (match or match10()) + \
            struct.pack("!BxH", table, NONE10)
    return msg(v, "MP_REQUEST", body)


def bucket(acts, weight=0, watch_port=ANY32, watch_group=ANY32):
    return struct.pack("!HHII4x", 16 + len(acts), weight, watch_port,
                       watch_group) + acts


def group_mod(cmd, gtype, gid, *buckets):
    return msg(V13, "GROUP_MOD", struct.pack("!HBxI", cmd, gtype, gid) +
               b"".join(buckets))


def group_session():
    """GROUP_MODs of each type, a modify, errors, deletes (fz_switch)."""
    return (group_mod(0, 0, 1, bucket(out13(1)), bucket(out13(2))) +
            group_mod(0, 1, 2, bucket(out13(1), 10), bucket(out13(2), 20)) +
            group_mod(0, 2, 3, bucket(out13(3))) +
            group_mod(0, 3, 4, bucket(out13(1), watch_port=1),
                      bucket(out13(2), watch_port=2)) +
            group_mod(0, 0, 1, bucket(out13(1))) +          # exists
            group_mod(1, 2, 9, bucket(out13(1))) +          # unknown
            group_mod(0, 0, 5, bucket(struct.pack("!HHI", 22, 8, 1))) +
            group_mod(1, 2, 1, bucket(out13(4))) +
            group_mod(2, 0, 1) + group_mod(2, 0, 0xfffffffc))


def onf(exp_type, body):
    """An ONF experimenter message of 1.3 (xid 1, as msg() gives)."""
    return struct.pack("!BBHIII", V13, 4, 16 + len(body), 1, 0x4F4E4600,
                       exp_type) + body


def bundle_ctrl(bid, btype, flags=3):
    return onf(2300, struct.pack("!IHH", bid, btype, flags))


def bundle_add(bid, inner, flags=3):
    return onf(2301, struct.pack("!IHH", bid, 0, flags) + inner)


def bundle_session():
    """ONF bundles (fz_switch): one discarded after a modify, a strict
    delete and a bad table (rolled back), one committed."""
    ip4 = lambda d: match13(oxm(ETH_TYPE, b"\x08\x00"),
                            oxm(IPV4_DST, bytes([10, 3, 0, d])))
    base = b"".join(flow_mod13(match=ip4(i), cookie=i, idle=50 * (i == 2))
                    for i in range(1, 5))
    return (base + bundle_ctrl(1, 0) +
            bundle_add(1, flow_mod13(cmd=1, match=match13(),
                                     inst=apply_actions(out13(3)))) +
            bundle_add(1, flow_mod13(cmd=4, match=ip4(2))) +
            bundle_add(1, flow_mod13(match=ip4(9), table=9)) +
            bundle_add(1, flow_mod13(match=ip4(5))) +
            bundle_ctrl(1, 2) + bundle_ctrl(1, 6) +
            bundle_add(2, flow_mod13(match=ip4(6))) +
            bundle_add(2, flow_mod13(cmd=3, match=ip4(1))) +
            bundle_ctrl(2, 4) + flow_stats_req(V13) +
            bundle_add(3, flow_mod13(match=ip4(7))))


def band(btype, rate, burst=0, prec=0):
    return struct.pack("!HHIIB3x", btype, 16, rate, burst, prec)


def meter_mod(cmd, flags, mid, *bands):
    return msg(V13, "METER_MOD", struct.pack("!HHI", cmd, flags, mid) +
               b"".join(bands))


def meter_session():
    """METER_MODs of each band and flag, a metered flow, errors, deletes
    (fz_switch)."""
    meter1 = struct.pack("!HHI", 6, 8, 1)       # OFPIT_METER 1
    return (meter_mod(0, 1, 1, band(1, 1000)) +
            meter_mod(0, 2 | 4 | 8, 2, band(1, 100, 10),
                      band(2, 50, 5, 1)) +
            meter_mod(0, 1 | 8, 0xfffffffe, band(2, 2000, 0, 2)) +
            flow_mod13(inst=meter1 + apply_actions(out13(1))) +
            meter_mod(0, 1, 1, band(1, 5)) +                # exists
            meter_mod(1, 1, 9, band(1, 5)) +                # unknown
            meter_mod(0, 1, 3, band(0xffff, 5)) +           # bad band
            meter_mod(0, 3, 3, band(1, 5)) +                # bad flags
            meter_mod(0, 1, 3, band(1, 0)) +                # bad rate
            meter_mod(0, 1 | 4, 3, band(1, 5)) +            # bad burst
            meter_mod(0, 1, 3, band(2, 5, 0, 64)) +         # band value
            meter_mod(0, 1, 3) + meter_mod(0, 1, 0, band(1, 5)) +
            meter_mod(1, 2, 1, band(1, 7), band(2, 8, 0, 3)) +
            meter_mod(2, 0, 1) + meter_mod(2, 0, 0xffffffff))


def group_flows_session():
    """Chained groups and flows naming them (fz_switch): a flow naming a
    missing group refused, a flow modified onto another group, LOOP,
    CHAINED_GROUP, deletes taking their flows, packets sent to each."""
    grp = struct.pack("!HHI", 22, 8, 1)
    grp2 = struct.pack("!HHI", 22, 8, 2)
    grp9 = struct.pack("!HHI", 22, 8, 9)
    return (group_mod(0, 0, 1, bucket(out13(1)), bucket(out13(2))) +
            group_mod(0, 2, 2, bucket(grp)) +
            group_mod(0, 3, 3, bucket(out13(1), watch_port=1),
                      bucket(out13(2), watch_group=1)) +
            flow_mod13(inst=apply_actions(grp)) +
            flow_mod13(match=M13_PORT, inst=apply_actions(grp2, grp)) +
            flow_mod13(match=M13_V6, inst=apply_actions(grp9)) +
            flow_mod13(cmd=1, inst=apply_actions(grp2)) +
            group_mod(1, 0, 1, bucket(grp2)) +               # loop
            group_mod(2, 0, 1) +                             # chained
            group_mod(2, 0, 2) + group_mod(2, 0, 1) +
            flow_mod13(match=M13_PORT, inst=apply_actions(
                struct.pack("!HHI", 22, 8, 3))) +
            group_mod(2, 0, 0xfffffffc))


def seeds():
    s = {}
    for v, tag in ((V13, "13"), (V10, "10")):
        sel = 0 if v == V13 else 0x80
        out = out13 if v == V13 else out10

        def put(name, kind, data):
            s["%s_%s" % (name, tag)] = bytes([sel | kind]) + data

        put("header_features_request", HEADER, msg(v, "FEATURES_REQUEST"))
        put("hello", HELLO, msg(v, "HELLO", struct.pack(
            "!HHI", 1, 8, 1 << V13 | 1 << V10) if v == V13 else b""))
        put("error", ERROR, msg(v, "ERROR", struct.pack("!HH", 1, 6) +
                                msg(v, "FEATURES_REQUEST")))
        fr = struct.pack("!QIB", 0x1234, 256, 4)
        if v == V13:
            fr += struct.pack("!B2xII", 0, 7, 0)
        else:
            fr += struct.pack("!3xII", 7, 0xfff) + struct.pack(
                "!H6s16sIIIIII", 1, bytes([2, 0, 0, 0, 0, 1]), b"s1-eth1",
                0, 0, 0xc0, 0xc0, 0xc0, 0)
        put("features_reply", FEATURES_REPLY, msg(v, "FEATURES_REPLY", fr))
        put("set_config", SWITCH_CONFIG, msg(v, "SET_CONFIG",
                                             struct.pack("!HH", 0, 128)))
        if v == V13:
            pi = struct.pack("!IHBBQ", NO_BUFFER, len(FRAME), 0, 0, 5) + \
                match13(oxm(IN_PORT, struct.pack("!I", 1))) + b"\0\0"
        else:
            pi = struct.pack("!IHHBx", NO_BUFFER, len(FRAME), 1, 0)
        put("packet_in", PACKET_IN, msg(v, "PACKET_IN", pi + FRAME))
        acts = out(2)
        if v == V13:
            po = struct.pack("!IIH6x", NO_BUFFER, 0xfffffffd, len(acts))
        else:
            po = struct.pack("!IHH", NO_BUFFER, 0xfffd, len(acts))
        put("packet_out", PACKET_OUT, msg(v, "PACKET_OUT", po + acts + FRAME))
        if v == V13:
            put("flow_mod_add", FLOW_MOD, flow_mod13(
                idle=1, hard=5, flags=1,
                inst=write_metadata(5, 0xff) + apply_actions(
                    set_field(ETH_DST, bytes([2, 0, 0, 0, 0, 9])), out13(2)) +
                goto_table(2)))
            put("flow_mod_add_port", FLOW_MOD, flow_mod13(
                match=M13_PORT, table=1, flags=3,
                inst=apply_actions(out13(0xfffffffb))))
            put("flow_mod_delete", FLOW_MOD, flow_mod13(
                cmd=3, table=0xff, match=match13(IP4), out_port=2))
            put("flow_mod_v6", FLOW_MOD, flow_mod13(match=M13_V6, prio=7))
        else:
            put("flow_mod_add", FLOW_MOD, flow_mod10(idle=1, hard=5, flags=1))
            put("flow_mod_add_port", FLOW_MOD, flow_mod10(
                match=M10_PORT, flags=3, acts=struct.pack(
                    "!HHH2x", 1, 8, 20) + out10(0xfffb)))
            put("flow_mod_delete", FLOW_MOD, flow_mod10(
                cmd=3, match=match10(FW_ALL & ~FW_DL_TYPE, dl_type=0x0800),
                out_port=2))
        if v == V13:
            pm = struct.pack("!I4x6s2xIII4x", 2, bytes([2, 0, 0, 0, 0, 2]),
                             1, 1, 0)
        else:
            pm = struct.pack("!H6sIII4x", 2, bytes([2, 0, 0, 0, 0, 2]),
                             1, 1, 0)
        put("port_mod", PORT_MOD, msg(v, "PORT_MOD", pm))
        if v == V13:
            put("role", ROLE, msg(v, "ROLE_REQUEST",
                                  struct.pack("!I4xQ", 2, 5)))
            put("set_async", ASYNC, msg(v, "SET_ASYNC", struct.pack(
                "!6I", 3, 0, 7, 7, 0xb, 0)))
            put("queue_get_config", QUEUE_GET_CONFIG, msg(
                v, "QUEUE_GET_CONFIG_REQUEST", struct.pack("!I4x", ANY32)))
        else:
            put("queue_get_config", QUEUE_GET_CONFIG, msg(
                v, "QUEUE_GET_CONFIG_REQUEST", struct.pack("!H2x", 1)))
        m = M13_TCP if v == V13 else M10_TCP
        put("mp_flow_request", MP_REQUEST, flow_stats_req(v, m, 0))
        agg = flow_stats_req(v)
        agg = agg[:8] + struct.pack("!H", MP_AGGREGATE) + agg[10:]
        put("mp_aggregate_request", MP_REQUEST, agg)
        ps = struct.pack("!HH4xI4x", MP_PORT_STATS, 0, 2) if v == V13 else \
            struct.pack("!HHH6x", MP_PORT_STATS, 0, 0xffff)
        put("mp_port_stats_request", MP_REQUEST, msg(v, "MP_REQUEST", ps))
        entries = b""
        for prio in (10, 20):
            if v == V13:
                inst = apply_actions(out13(1))
                e = struct.pack("!BxIIHHHH4xQQQ", 0, 3, 500, prio, 0, 0, 1,
                                prio, 0, 0) + M13_TCP + inst
            else:
                e = struct.pack("!Bx", 0) + M10_TCP + struct.pack(
                    "!IIHHH6xQQQ", 3, 500, prio, 0, 0, prio, 0, 0) + out10(1)
            entries += struct.pack("!H", 2 + len(e)) + e
        hdr = struct.pack("!HH4x" if v == V13 else "!HH", MP_FLOW, 0)
        put("mp_flow_reply", MP_REPLY, msg(v, "MP_REPLY", hdr + entries))
        hdr = struct.pack("!HH4x" if v == V13 else "!HH", MP_AGGREGATE, 0)
        put("mp_aggregate_reply", MP_REPLY, msg(
            v, "MP_REPLY", hdr + struct.pack("!QQI4x", 0, 0, 2)))
        if v == V13:
            put("actions", ACTIONS, out13(1) + set_field(
                VLAN_VID, b"\x10\x05") + struct.pack("!HHH2x", 17, 8, 0x8100)
                + struct.pack("!HHI", 22, 8, 1))
            put("instructions", INSTRUCTIONS, write_metadata(1, 1) +
                apply_actions(out13(2)) + goto_table(3))
        else:
            put("actions", ACTIONS, out10(1) + struct.pack(
                "!HHH2x", 1, 8, 5) + struct.pack("!HH6s6x", 5, 16,
                                                 bytes([2, 0, 0, 0, 0, 3])))
        # A small switch session: adds with timeouts, a modify, a
        # strict delete, stats in between.
        if v == V13:
            stream = (flow_mod13(idle=2, flags=1) +
                      flow_mod13(match=M13_PORT, hard=1, flags=1, cookie=2) +
                      flow_mod13(match=M13_V6, table=3, cookie=3) +
                      flow_stats_req(v) +
                      flow_mod13(cmd=1, match=match13(IP4),
                                 inst=apply_actions(out13(3), out13(4))) +
                      flow_mod13(cmd=4, match=M13_PORT) +
                      flow_stats_req(v, match13(IP4)))
        else:
            stream = (flow_mod10(idle=2, flags=1) +
                      flow_mod10(match=M10_PORT, hard=1, flags=1, cookie=2) +
                      flow_stats_req(v) +
                      flow_mod10(cmd=1, match=match10(
                          FW_ALL & ~FW_DL_TYPE, dl_type=0x0800),
                          acts=out10(3) + out10(4)) +
                      flow_mod10(cmd=4, match=M10_PORT) +
                      flow_stats_req(v))
        put("switch_session", SWITCH, stream)
        if v == V13:
            put("switch_groups", SWITCH, group_session())
            put("switch_bundles", SWITCH, bundle_session())
            put("switch_meters", SWITCH, meter_session())
            put("switch_group_flows", SWITCH, group_flows_session())
        # A table filled past its size (20 in the harness), so the hash
        # grows, one ADD is TABLE_FULL, then deletes shrink it again.
        stream = b""
        for i in range(21):
            dst = bytes([10, 2, 0, i])
            if v == V13:
                inst = struct.pack("!HHI", 22, 8, 1) if i == 3 else out13(2)
                stream += flow_mod13(
                    match=match13(IP4, oxm(IPV4_DST, dst)), cookie=i,
                    idle=100 if i == 5 else 0, flags=1,
                    inst=apply_actions(inst))
            else:
                stream += flow_mod10(match=match10(
                    FW_ALL & ~FW_DL_TYPE & ~(0x3f << 14), dl_type=0x0800,
                    nw_dst=struct.unpack("!I", dst)[0]), cookie=i,
                    idle=100 if i == 5 else 0, flags=1,
                    acts=out10(1 + i % 4))
        if v == V13:
            stream += (flow_mod13(match=match13(IP4), flags=2 | 1) +
                       flow_mod13(cmd=1, match=match13(IP4), flags=4,
                                  inst=apply_actions(out13(3))) +
                       flow_mod13(cmd=3, match=match13(), out_group=1) +
                       flow_stats_req(v) +
                       flow_mod13(cmd=3, table=0xff, match=match13()))
        else:
            stream += (flow_mod10(cmd=3, match=match10(), out_port=2) +
                       flow_stats_req(v) +
                       flow_mod10(cmd=1, match=match10(), acts=out10(3)) +
                       flow_mod10(cmd=3, match=match10()))
        stream += flow_stats_req(v)
        put("switch_full_table", SWITCH, stream)
    s["match13_tcp"] = bytes([MATCH13]) + M13_TCP
    s["match13_v6_vlan"] = bytes([MATCH13]) + M13_V6 + M13_PORT
    s["match13_vlan_pcp"] = bytes([MATCH13]) + match13(
        oxm(VLAN_VID, b"\x10\x05"), oxm(7, b"\x03")) + match13(
        oxm(VLAN_VID, b"\x10\x00", b"\x10\x00"), oxm(7, b"\x05"))
    s["match10_tcp"] = bytes([MATCH10]) + M10_TCP + M10_PORT
    s["match10_vlan_pcp"] = bytes([MATCH10]) + match10(
        FW_ALL & ~(FW_DL_VLAN_PCP | FW_DL_TYPE | FW_NW_TOS), pcp=5,
        dl_type=0x0800, nw_tos=0x28)
    s["nxm_fields"] = bytes([NXM]) + NXM_FIELDS
    # 1.3 OXM with Nicira fields (class 0x0001) and ONF's experimenter
    # tcp_flags (class 0xffff, id 0x4f4e4600), as ovs-ofctl -O OpenFlow13.
    s["match13_nx"] = bytes([MATCH13]) + bytes.fromhex(
        "0001002380000a020800800014010600010004000000"
        "01ffff55084f4e460000020002" + "00" * 5)
    # Nicira actions as ovs-ofctl 3.1 sends them (tests/unit/test_of_nx.c).
    s["actions_nx_10"] = bytes([0x80 | ACTIONS]) + NX_ACTIONS
    s["actions_nx_13"] = bytes([ACTIONS]) + NX_ACTIONS
    s["nx_tlv_table_mods"] = bytes([NX_TLV]) + NX_TLV_MODS
    return s


# nx_tlv_table_mod bodies, each after its length in 8-byte units
# (fz_nx_tlv): ADD two mappings, ADD one already mapped (refused), DELETE
# one, ADD past 256 bytes (refused), CLEAR, ADD again.
def tlv_mod(cmd, *maps):
    body = struct.pack("!H6x", cmd) + b"".join(
        struct.pack("!HBBH2x", c, t, l, i) for c, t, l, i in maps)
    return bytes([len(body) // 8]) + body


NX_TLV_MODS = (tlv_mod(0, (0xffff, 0, 4, 0), (0x102, 0x80, 8, 63)) +
               tlv_mod(0, (1, 1, 4, 0)) + tlv_mod(1, (0x102, 0x80, 8, 63)) +
               tlv_mod(0, (1, 1, 124, 1), (1, 2, 124, 2), (1, 3, 8, 3)) +
               tlv_mod(2) + tlv_mod(0, (0xffff, 0, 124, 5)))


# An nx_match (Open vSwitch nicira-ext.h): in_port, ip, nw_dst/8, the
# VLAN TCI, registers, conntrack fields, tun_id, metadata, a cookie.
NXM_FIELDS = bytes.fromhex(
    "00000002 0002 00000602 0800 00001108 0a000000 ff000000"
    " 00000904 7000 f000 00010004 00000001 00010308 00000005 000000ff"
    " 80010008 0000000000000012 00014204 00000009 00014a04 00000007"
    " 0001d308 00000022 00000023 0001d402 0005 0001d708 00000003 0000000f"
    " 0001d810 00000000000000000000000000000001 00012008 0000000000000055"
    " 80000408 0000000000000007 00013d10 0000000000000001 00000000000000ff"
    .replace(" ", ""))
NX_ACTIONS = bytes.fromhex((
    "ffff0010 00002320 000e fff8 02 000000"                    # resubmit
    "ffff0018 00002320 0007 0007 00010204 0000000000000005"    # load
    "ffff0018 00002320 0006 0020 0000 0000 00010004 00010404"  # move
    "ffff0038 00002320 0023 0001 00010004 000f 04 000000 0000"  # ct(
    "ffff0020 00002320 0024 0000 0001 0033 0a000001 0a000009"  # nat)
    "0064 00c8 00000000"
    "ffff0058000023200010001e00008000000000000000000000000a"   # learn
    "0000000000000c000008020000000008020000003000000406000000"
    "000206000008100000000200000001000400001010000000020000000000000000"
    "ffff0010 00002320 0022 00 02 00000007"                    # conjunction
    "ffff0028 00002320 000d 0001 0000 0000 00000002 0002 001f"  # bundle_load
    "00010004 00000000 0001 0002 00000000"
    "ffff0020 00002320 000a 0000 0032 0000 0002 000b 00000000"  # multipath
    "0000 0003 00010004"
    "ffff0018 00002320 000f 000f 00010004 0000 000000000000"   # output_reg
    "ffff0010 00002320 0008 010203000000"                      # note
    "ffff0010 00002320 0012 000000000000"                      # dec_ttl
    ).replace(" ", ""))


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for name, data in sorted(seeds().items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    print("%d seeds written to %s" % (len(seeds()), d))


if __name__ == "__main__":
    main()

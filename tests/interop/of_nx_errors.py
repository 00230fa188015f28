#!/usr/bin/python3
"""Send raw Nicira actions (in a FLOW_MOD) and TLV table messages to an
OpenFlow switch in 1.0 and 1.3 and print what it answers, one line a case:
the error's type and code (and Nicira's vendor, type and code), or "ok".
ovs_nx_errors.sh runs it against ovs-vswitchd and against sbsim and
compares.  Usage: of_nx_errors.py PORT"""
import socket
import struct
import sys
import time

# (name, kind, hex): kind "act" is an action in a FLOW_MOD with an empty
# match, "msg" the body of an EXPERIMENTER (1.0: VENDOR) message, "del" a
# FLOW_MOD deleting every flow.  All of them in 1.0, then all in 1.3 (a
# switch of sbsim starts a new flow table when the version changes; the
# TLV map, as Open vSwitch's, stays).
CASES = [
    ("load_range", "act", "ffff0018 00002320 0007 0787 00010204"
     " 0000000000000005"),
    ("load_value_big", "act", "ffff0018 00002320 0007 0007 00010204"
     " 00000000000001ff"),
    ("load_unknown_field", "act", "ffff0018 00002320 0007 0007 00020004"
     " 0000000000000005"),
    ("move_range", "act", "ffff0018 00002320 0006 0020 0010 0000 00010204"
     " 00010004"),
    ("move_unknown_field", "act", "ffff0018 00002320 0006 0020 0000 0000"
     " 00020004 00010004"),
    ("move_nonzero_pad", "act", "ffff0020 00002320 0006 0020 0000 0000"
     " 00010004 00010204 0000000000000001"),
    ("conjunction_1_of_1", "act", "ffff0010 00002320 0022 00 01 00000007"),
    ("resubmit_pad", "act", "ffff0010 00002320 000e fff8 02 000001"),
    ("exit_pad", "act", "ffff0010 00002320 0011 000000000001"),
    ("ct_clear_pad", "act", "ffff0010 00002320 002b 000000000001"),
    ("output_reg_pad", "act", "ffff0018 00002320 000f 000f 00010004 0000"
     " 000000000001"),
    ("output_reg_range", "act", "ffff0018 00002320 000f 07cf 00010004 0000"
     " 000000000000"),
    ("output_reg_unknown", "act", "ffff0018 00002320 000f 000f 00020004"
     " 0000 000000000000"),
    ("reg_load2_pad", "act", "ffff0018 00002320 0021 00010004 00000005"
     " 000000000001"),
    ("reg_load2_reg0_1byte", "act", "ffff0010 00002320 0021 00010001 0500"),
    ("reg_load2_unknown", "act", "ffff0018 00002320 0021 00020004 00000005"
     " 000000000000"),
    ("reg_load2_tun_unmapped", "act", "ffff0010 00002320 0021 00015001"
     " 0500"),
    ("multipath_links", "act", "ffff0020 00002320 000a 0000 0032 0000 0000"
     " 0010 00000000 0000 0001 00010004"),
    ("multipath_unknown", "act", "ffff0020 00002320 000a 0000 0032 0000"
     " 0000 0010 00000000 0000 0001 00020004"),
    ("bundle_pad", "act", "ffff0028 00002320 000c 0000 0000 0032 ffff0002"
     " 0001 0000 00000000 00000001 0001 0002 00000000"),
    ("tlv_bad_command", "msg", "00002320 00000018 0003 000000000000"),
    ("tlv_bad_opt_len", "msg", "00002320 00000018 0000 000000000000"
     " ffff0006 0000 0000"),
    ("tlv_bad_field_idx", "msg", "00002320 00000018 0000 000000000000"
     " ffff0004 0040 0000"),
    ("tlv_partial", "msg", "00002320 00000018 0000 000000000000 ffff0004"),
    ("tlv_add", "msg", "00002320 00000018 0000 000000000000"
     " ffff0004 0000 0000"),
    ("tlv_already_mapped", "msg", "00002320 00000018 0000 000000000000"
     " ffff0104 0000 0000"),
    ("tlv_dup_entry", "msg", "00002320 00000018 0000 000000000000"
     " ffff0004 0001 0000"),
    ("tlv_table_full", "msg", "00002320 00000018 0000 000000000000"
     " 0001017c 0002 0000 0001027c 0003 0000"),
    ("tlv_request_long", "msg", "00002320 00000019 00000000"),
    ("reg_load2_tun_mapped", "act", "ffff0010 00002320 0021 00015001"
     " 0500"),
    ("tlv_clear_in_use", "msg", "00002320 00000018 0002 000000000000"),
    ("delete_all_flows", "del", ""),
    ("tlv_clear", "msg", "00002320 00000018 0002 000000000000"),
]


def read_msg(s):
    b = b""
    while len(b) < 8:
        b += s.recv(8 - len(b))
    n = struct.unpack("!H", b[2:4])[0]
    while len(b) < n:
        b += s.recv(n - len(b))
    return b


def exchange(port, v, t, body):
    """The messages answering one, up to the BARRIER_REPLY after it."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(struct.pack("!BBHI", v, 0, 8, 1))
    read_msg(s)
    s.sendall(struct.pack("!BBHI", v, t, 8 + len(body), 7) + body)
    s.sendall(struct.pack("!BBHI", v, 18 if v == 1 else 20, 8, 99))
    out = []
    while True:
        m = read_msg(s)
        if m[4:8] == struct.pack("!I", 99):
            s.close()
            return out
        if m[1] == 1 or m[4:8] == struct.pack("!I", 7):
            out.append(m)


def flow_mod(v, acts, cmd=0):
    if v == 1:
        return (struct.pack("!I", 0x3fffff) + b"\0" * 36 +
                struct.pack("!QHHHHIHH", 0, cmd, 0, 0, 100, 0xffffffff,
                            0xffff, 0) + acts)
    inst = struct.pack("!HH4x", 4, 8 + len(acts)) + acts if acts else b""
    return (struct.pack("!QQBBHHHIIIH2x", 0, 0, 0xff if cmd else 0, cmd,
                        0, 0, 100, 0xffffffff, 0xffffffff, 0xffffffff, 0) +
            struct.pack("!HH4x", 1, 4) + inst)


def describe(msgs):
    out = []
    for m in msgs:
        if m[1] != 1:
            out.append("reply type %d" % m[1])
        elif m[8:10] == b"\xb0\xc2":	# NXET_VENDOR: nx_vendor_error
            out.append("error %s" % m[8:20].hex())
        elif m[8:10] == b"\xff\xff":	# EXPERIMENTER: exp_code, id
            out.append("error %s" % m[8:16].hex())
        else:
            out.append("error %s" % m[8:12].hex())
    return ", ".join(out) or "ok"


def main():
    port = int(sys.argv[1])
    for v in (1, 4):
        for name, kind, hexs in CASES:
            body = bytes.fromhex(hexs.replace(" ", ""))
            if kind == "act":
                got = exchange(port, v, 14, flow_mod(v, body))
            elif kind == "del":
                got = exchange(port, v, 14, flow_mod(v, b"", cmd=3))
            else:
                got = exchange(port, v, 4, body)
            # ovs-vswitchd lets go of a deleted flow's TLV mapping only
            # after an RCU grace period, barrier or not: the clear after
            # the delete is asked again for up to 3 s.
            deadline = time.time() + 3
            while (name == "tlv_clear" and got and
                   time.time() < deadline):
                time.sleep(0.05)
                got = exchange(port, v, 4, body)
            print("%-24s %s %s" % (name, "1.0" if v == 1 else "1.3",
                                   describe(got)))


if __name__ == "__main__":
    main()

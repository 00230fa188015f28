"""Two controller connections of one sbsim switch in OpenFlow 1.4 or 1.5
(argv[2]: 5 or 6), for of14_async.sh: the switch connects to this
listener twice (--controller tcp:P,tcp:P).  Steps, each printing one
"ok: ..." line; the script exits 1 at the first failure, 20 s at most:

  A, B: HELLO with only this version in the bitmap -> the switch agrees
  A: GET_ASYNC -> 12 properties (1.4.1 A.3.10; 1.5 adds controller
     status: 14), ROLE_STATUS on for both
     roles, PORT_STATUS all reasons
  A: ROLE_REQUEST master 1, B: master 2 -> A gets ROLE_STATUS (type 30,
     1.4.1 A.4.5) slave, MASTER_REQUEST, generation 2
  A: SET_ASYNC ROLE_STATUS_SLAVE 0 (one property), GET_ASYNC -> that mask
     alone changed; A: master 3, B: master 4 -> A hears nothing (barrier)
  B: PORT_MOD port 2 down (1.4 layout) -> PORT_STATUS MODIFY to B with a
     1.4 ofp_port: length 72, ETHERNET property, 10 Gb/s, PORT_DOWN
  B: SET_ASYNC with property type 12 (1.5: 14) -> ASYNC_CONFIG_FAILED
  B: QUEUE_GET_CONFIG_REQUEST (22) -> BAD_TYPE; BUNDLE_CONTROL (33) OPEN,
     DISCARD -> their replies
  Flow monitors (1.4.1 section 7.3.5.19; the switch runs with
  --max-flow-monitors 2):
  B (master): FLOW_MOD X; A: FLOW_MONITOR ADD 7 (INITIAL, ADD, REMOVED,
     MODIFY, INSTRUCTIONS) -> the reply holds X as INITIAL, instructions in
  B: ADD Y, MODIFY_STRICT X, DELETE_STRICT Y -> A hears ADDED Y, MODIFIED
     X, REMOVED Y (reason DELETE), each an unsolicited reply (xid 0)
  A: ADD 7 again -> MONITOR_EXISTS; MODIFY 9 -> UNKNOWN_MONITOR; DELETE 7
  A: ADD 8 with ONLY_OWN; B: ADD Z -> A hears nothing
  A: ADD 1 -> taken (two held); ADD 2 -> FLOW_MONITOR_FAILED/UNKNOWN
  Vacancy events (1.4.1 7.3.3, 7.4.4; --table-size 10):
  B: TABLE_MOD table 0 VACANCY_EVENTS 20%/80%; 7 flows more (9 held)
     -> TABLE_STATUS VACANCY_DOWN, once; TABLE_DESC shows the thresholds
     and 10% free; 8 deleted (1 held) -> VACANCY_UP, once
  B: GROUP_MOD ADD -> A (the other controller) gets REQUESTFORWARD
     (1.4.1 7.4.6) holding B's message byte for byte; B gets none
"""
import socket
import struct
import sys
import time

from of_conn import HDR, Conn, fail

PORT, V = int(sys.argv[1]), int(sys.argv[2])
DEADLINE = time.time() + 20


def props(body):
    out = {}
    while len(body) >= 8:
        t, ln, v = struct.unpack_from("!HHI", body)
        out[t] = v
        body = body[8:]
    return out


lst = socket.socket()
lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
lst.bind(("127.0.0.1", PORT))
lst.listen(2)
lst.settimeout(15)
conns = []
for _ in range(2):
    s, _ = lst.accept()
    c = Conn(s, V, DEADLINE)
    c.send(0, struct.pack("!HHI", 1, 8, 1 << V))
    t, _, _ = c.recv()
    if t != 0:
        fail("no HELLO first")
    c.send(5)
    got = c.until(6)
    if any(m[0] == 1 for m in got):
        fail("version %d refused" % V)
    conns.append(c)
A, B = conns
print("ok: both connections agreed on version %d" % V)

got = A.until(27, A.send(26))[-1][2]
p = props(got)
if len(p) != (12 if V == 5 else 14) or p[6] != 7 or p[7] != 7 or \
        p[2] != 7 or p[3] != 7:
    fail("GET_ASYNC properties %r" % p)
print("ok: GET_ASYNC: %d properties, ROLE_STATUS on for both roles" % len(p))

A.until(25, A.send(24, struct.pack("!I4xQ", 2, 1)))
B.until(25, B.send(24, struct.pack("!I4xQ", 2, 2)))
rs = [m for m in A.barrier() if m[0] == 30]
if len(rs) != 1:
    fail("A got %d ROLE_STATUS" % len(rs))
role, reason, gen = struct.unpack_from("!IB3xQ", rs[0][2])
if (role, reason, gen, rs[0][1]) != (3, 0, 2, 0):
    fail("ROLE_STATUS %r" % ((role, reason, gen, rs[0][1]),))
print("ok: ROLE_STATUS slave, MASTER_REQUEST, generation 2, xid 0")

A.send(28, struct.pack("!HHI", 6, 8, 0))
p2 = props(A.until(27, A.send(26))[-1][2])
if p2[6] != 0 or {k: v for k, v in p2.items() if k != 6} != \
        {k: v for k, v in p.items() if k != 6}:
    fail("after SET_ASYNC %r" % p2)
A.until(25, A.send(24, struct.pack("!I4xQ", 2, 3)))
B.until(25, B.send(24, struct.pack("!I4xQ", 2, 4)))
if any(m[0] == 30 for m in A.barrier()):
    fail("ROLE_STATUS sent though masked")
print("ok: SET_ASYNC changed ROLE_STATUS_SLAVE alone; masked, none sent")

hw = bytes([2, 0, 0, 0, 1, 2])
B.send(16, struct.pack("!I4x6s2xII", 2, hw, 1, 1))
ps = [m for m in B.barrier() if m[0] in (12, 1)]
if len(ps) != 1 or ps[0][0] != 12:
    fail("PORT_MOD answered %r" % ps)
b = ps[0][2]
reason = b[0]
port_no, plen = struct.unpack_from("!IH", b, 8)
config, state = struct.unpack_from("!II", b, 8 + 32)
ptype, prlen = struct.unpack_from("!HH", b, 8 + 40)
speed = struct.unpack_from("!I", b, 8 + 40 + 24)[0]
if (reason, port_no, plen, config & 1, ptype, prlen, speed) != \
        (2, 2, 72, 1, 0, 32, 10000000) or len(b) != 8 + 72:
    fail("PORT_STATUS %r" % ((reason, port_no, plen, config, ptype, prlen,
                               speed, len(b)),))
print("ok: PORT_STATUS MODIFY with a 1.4 port: length 72, ETHERNET, 10 Gb/s")

x = B.send(28, struct.pack("!HHI", 12 if V == 5 else 14, 8, 3))
e = B.until(1, x)[-1][2]
if struct.unpack_from("!HH", e) != (15, 1):
    fail("SET_ASYNC property 12: error %r" % (struct.unpack_from("!HH", e),))
print("ok: an unknown async property: ASYNC_CONFIG_FAILED/UNSUPPORTED")

e = B.until(1, B.send(22, struct.pack("!I4x", 1)))[-1][2]
if struct.unpack_from("!HH", e) != (1, 1):
    fail("type 22: error %r" % (struct.unpack_from("!HH", e),))
print("ok: QUEUE_GET_CONFIG: BAD_REQUEST/BAD_TYPE")
# BUNDLE_CONTROL OPEN_REQUEST of bundle 9 -> OPEN_REPLY (1.4.1 7.3.9.1),
# then DISCARD_REQUEST -> DISCARD_REPLY.
for req, rep in ((0, 1), (6, 7)):
    r = B.until(33, B.send(33, struct.pack("!IHH", 9, req, 0)))[-1][2]
    if struct.unpack_from("!IHH", r) != (9, rep, 0):
        fail("BUNDLE_CONTROL %d: reply %r" % (req,
             struct.unpack_from("!IHH", r)))
print("ok: BUNDLE_CONTROL: OPEN_REPLY, DISCARD_REPLY")

MATCH_IN1 = bytes.fromhex("0001000c800000040000000100000000")
APPLY_OUT2 = bytes.fromhex("0004001800000000000000100000000" "2ffff000000000000")


def flow_mod(cmd, prio, cookie=0):
    return struct.pack("!QQBBHHHIIIHH", cookie, 0, 0, cmd, 0, 0, prio,
                       0xffffffff, 0xffffffff, 0xffffffff, 0, 0) + \
        MATCH_IN1 + (APPLY_OUT2 if cmd < 3 else b"")


def monitor(mid, flags, cmd):
    return struct.pack("!HH4xIIIHBB", 16, 0, mid, 0xffffffff, 0xffffffff,
                       flags, 0xff, cmd) + bytes.fromhex("0001000400000000")


def updates(msgs):
    out = []
    for t, x, b in msgs:
        if t != 19 or struct.unpack_from("!H", b)[0] != 16:
            continue
        b = b[8:]
        while len(b) >= 4:
            ln, ev = struct.unpack_from("!HH", b)
            reason, prio = b[5], struct.unpack_from("!H", b, 10)[0]
            out.append((x, ev, prio, reason, ln))
            b = b[ln:]
    return out


def error(c, body):
    e = c.until(1, c.send(18, body))[-1][2]
    return struct.unpack_from("!HH", e)


B.send(14, flow_mod(0, 5))
B.barrier()
got = A.until(19, A.send(18, monitor(7, 0x1f, 0)))
u = updates(got)
if len(u) != 1 or u[0][1:3] != (0, 5) or u[0][4] != 24 + 16 + 24:
    fail("initial %r" % u)
print("ok: FLOW_MONITOR: X in the reply as INITIAL with its instructions")

B.send(14, flow_mod(0, 6))
B.send(14, flow_mod(2, 5))
B.send(14, flow_mod(4, 6))
B.barrier()
u = updates(A.barrier())
if [(x, ev, p) for x, ev, p, _, _ in u] != [(0, 1, 6), (0, 3, 5), (0, 2, 6)] \
        or u[2][3] != 2:
    fail("updates %r" % u)
print("ok: ADDED, MODIFIED and REMOVED (reason DELETE) as they happened")

if error(A, monitor(7, 0x1f, 0)) != (16, 1):
    fail("ADD 7 twice")
if error(A, monitor(9, 0x1f, 1)) != (16, 3):
    fail("MODIFY 9")
A.until(19, A.send(18, monitor(7, 0, 2)))
A.until(19, A.send(18, monitor(8, 0x42, 0)))
B.send(14, flow_mod(0, 9))
B.barrier()
if updates(A.barrier()):
    fail("a deleted or ONLY_OWN monitor heard another's change")
print("ok: MONITOR_EXISTS, UNKNOWN_MONITOR; deleted and ONLY_OWN: silent")

A.until(19, A.send(18, monitor(1, 2, 0)))
if error(A, monitor(2, 2, 0)) != (16, 0):
    fail("a third monitor was taken")
print("ok: --max-flow-monitors 2: the third refused")


def table_status(msgs):
    out = []
    for t, x, b in msgs:
        if t == 31:
            out.append((x, b[0], b[8 + 2]) + struct.unpack_from("!I", b, 12))
    return out


B.send(17, struct.pack("!B3xI", 0, 8) + struct.pack("!HHBBBx", 3, 8, 20, 80, 0))
for prio in range(10, 17):
    B.send(14, flow_mod(0, prio))
ts = table_status(B.barrier())
if ts != [(0, 3, 0, 8)]:
    fail("after filling: TABLE_STATUS %r" % ts)
got = B.until(19, B.send(18, struct.pack("!HH4x", 14, 0)))[-1][2]
desc = got[8:8 + 16]
if struct.unpack("!HBxIHHBBBx", desc) != (16, 0, 8, 3, 8, 20, 80, 10, ):
    fail("TABLE_DESC %r" % (struct.unpack("!HBxIHHBBBx", desc),))
print("ok: VACANCY_DOWN once at 10% free; TABLE_DESC reads 20/80, 10%")

for prio in list(range(10, 17)) + [9]:
    B.send(14, flow_mod(4, prio))
ts = table_status(B.barrier())
if ts != [(0, 4, 0, 8)]:
    fail("after emptying: TABLE_STATUS %r" % ts)
print("ok: VACANCY_UP once at 90% free")

OUT1 = bytes.fromhex("00000010000000010000000000000000")
if V == 5:
    gm_body = struct.pack("!HBxI", 0, 0, 1) + \
        struct.pack("!HHII4x", 32, 0, 0xffffffff, 0xffffffff) + OUT1
else:
    gm_body = struct.pack("!HBxIH2xI", 0, 0, 1, 24, 0xffffffff) + \
        struct.pack("!HHI", 24, 16, 0) + OUT1
x = B.send(15, gm_body)
gm = HDR.pack(V, 15, 8 + len(gm_body), x) + gm_body
if any(m[0] in (1, 32) for m in B.barrier()):
    fail("B: an ERROR or a REQUESTFORWARD of its own GROUP_MOD")
rf = [m for m in A.barrier() if m[0] == 32]
if len(rf) != 1 or rf[0][2] != gm:
    fail("A: REQUESTFORWARD %r" % rf)
print("ok: REQUESTFORWARD to the other controller, the GROUP_MOD as sent")

"""Two controller connections of one sbsim switch in OpenFlow 1.5, for
of15_cont_status.sh: the switch connects to this listener twice
(--controller tcp:P,tcp:P).  CONTROLLER_STATUS (1.5.1 section 7.4.7),
each step printing one "ok: ..." line; exit 1 at the first failure:

  A: MULTIPART CONTROLLER_STATUS (18) -> both connections, reason
     REQUEST, channel UP, role EQUAL, URI tcp:127.0.0.1:P
  A: ROLE_REQUEST master -> B hears CONTROLLER_STATUS (type 35) reason
     ROLE, role MASTER, A's URI; A hears none of its own
  B closes -> A hears CHANNEL_STATUS DOWN; the switch connects again ->
     A hears CHANNEL_STATUS UP
  A: SET_ASYNC CONT_STATUS (12 and 13) 0; B: master -> A hears
     ROLE_STATUS only, B hears A's ROLE change (A now SLAVE)
"""
import socket
import struct
import sys
import time

from of_conn import Conn, fail

PORT = int(sys.argv[1])
V = 6
URI = ("tcp:127.0.0.1:%d" % PORT).encode()
DEADLINE = time.time() + 25


def status(b):
    """An ofp_controller_status: (short_id, role, reason, channel, uri)."""
    ln, sid, role, reason, chan = struct.unpack_from("!HHIBB", b)
    pt, pl = struct.unpack_from("!HH", b, 16)
    if pt != 0 or ln != 16 + pl + (8 - pl % 8) % 8:
        fail("controller status layout %r" % b)
    return sid, role, reason, chan, b[20:16 + pl].rstrip(b"\0"), b[ln:]


def accept(lst):
    s, _ = lst.accept()
    c = Conn(s, V, DEADLINE)
    c.send(0, struct.pack("!HHI", 1, 8, 1 << V))
    if c.recv()[0] != 0:
        fail("no HELLO first")
    got = c.until(6, c.send(5))
    if any(m[0] == 1 for m in got):
        fail("version refused")
    return c


lst = socket.socket()
lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
lst.bind(("127.0.0.1", PORT))
lst.listen(2)
lst.settimeout(15)
A, B = accept(lst), accept(lst)
A.barrier()
B.barrier()
print("ok: both connections up in 1.5")

x = A.send(18, struct.pack("!HH4x", 18, 0))
body = A.until(19, x)[-1][2]
if struct.unpack_from("!HH", body) != (18, 0):
    fail("multipart reply %r" % body)
rest, seen = body[8:], []
while rest:
    sid, role, reason, chan, uri, rest = status(rest)
    seen.append((sid, role, reason, chan, uri))
if seen != [(0, 1, 0, 0, URI)] * 2:
    fail("CONTROLLER_STATUS multipart %r" % seen)
print("ok: multipart: two connections, REQUEST, UP, EQUAL, %s" % URI.decode())

A.until(25, A.send(24, struct.pack("!I4xQ", 2, 1)))
cs = [m for m in B.barrier() if m[0] == 35]
if len(cs) != 1 or cs[0][1] != 0 or status(cs[0][2])[:5] != \
        (0, 2, 2, 0, URI):
    fail("B heard %r" % cs)
if any(m[0] == 35 for m in A.barrier()):
    fail("A heard its own change")
print("ok: A master -> B hears ROLE, MASTER, UP; A hears nothing")

B.s.close()
cs = [m for m in A.until(35)]
if status(cs[-1][2])[:5] != (0, 1, 1, 1, URI):
    fail("after B closed A heard %r" % (status(cs[-1][2]),))
print("ok: B closed -> A hears CHANNEL_STATUS DOWN")
B = accept(lst)
cs = A.until(35)
if status(cs[-1][2])[:5] != (0, 1, 1, 0, URI):
    fail("after B came back A heard %r" % (status(cs[-1][2]),))
print("ok: B back -> A hears CHANNEL_STATUS UP")

A.send(28, struct.pack("!HHIHHI", 12, 8, 0, 13, 8, 0))
got = A.until(27, A.send(26))[-1][2]
while got:
    t, ln, v = struct.unpack_from("!HHI", got)
    if t in (12, 13) and v != 0:
        fail("GET_ASYNC after SET_ASYNC: type %d mask %d" % (t, v))
    got = got[8:]
got = B.until(25, B.send(24, struct.pack("!I4xQ", 2, 2))) + B.barrier()
heard = [m[0] for m in A.barrier() if m[0] in (30, 35)]
if heard != [30]:
    fail("masked A heard %r" % heard)
cs = [status(m[2])[:5] for m in got if m[0] == 35]
if cs != [(0, 3, 2, 0, URI)]:
    fail("B heard %r" % cs)
print("ok: masked A hears ROLE_STATUS only; B hears A become SLAVE")

#!/usr/bin/python3
"""Malformed and unexpected PCEP input, and the answers a real peer gives.

  pcep_malformed.py pce PORT   a fake PCE on 127.0.0.1:PORT for one sbsim
                               PCC (--lsps 3 --delegate --pce-initiated)
  pcep_malformed.py pcc PORT   fake PCCs against the embedded PCE there

Each case sends one bad or unexpected message and checks the PCErr
(type, value, SRP-ID) of RFC 5440 7.15 / RFC 8231 / RFC 8281, and the
CLOSE where the session must end.  Exit 0 when every case passed.
"""
import socket
import struct
import sys

T_OPEN, T_KA, T_PCERR, T_CLOSE, T_RPT, T_UPD, T_INIT = 1, 2, 6, 7, 10, 11, 12
NAMES = {1: "Open", 2: "Keepalive", 3: "PCReq", 5: "PCNtf", 6: "PCErr",
         7: "Close", 10: "PCRpt", 11: "PCUpd", 12: "PCInitiate"}


def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)


# ---- encoding ----

def msg(mtype, body, version=1):
    return struct.pack("!BBH", version << 5, mtype, 4 + len(body)) + body


def obj(cls, otype, body, flags=0, length=None):
    pad = body + b"\0" * (-len(body) % 4)
    return struct.pack("!BBH", cls, otype << 4 | flags,
                       length if length is not None else 4 + len(pad)) + pad


def tlv(t, v):
    return struct.pack("!HH", t, len(v)) + v + b"\0" * (-len(v) % 4)


def open_obj(ka=30, dead=120, stateful=0x05):
    tl = tlv(16, struct.pack("!I", stateful)) if stateful is not None else b""
    return obj(1, 1, bytes([0x20, ka, dead, 1]) + tl)


def srp(srp_id, flags=0):
    return obj(33, 1, struct.pack("!II", flags, srp_id))


def lsp(plsp, flags, name=None, ids=None):
    tl = b""
    if ids is not None:
        sender, tun = ids
        tl += tlv(18, struct.pack("!IHHII", sender, 1, tun, sender,
                                  0xc0000201))
    if name is not None:
        tl += tlv(17, name.encode())
    return obj(32, 1, struct.pack("!I", plsp << 12 | flags) + tl)


def ero(*hops):
    return obj(7, 1, b"".join(struct.pack("!BBIBB", 1, 8, h, 32, 0)
                              for h in hops), flags=2)


def endpoints(src, dst):
    return obj(4, 1, struct.pack("!II", src, dst))


# ---- decoding ----

def recv_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            return None
        b += c
    return b


def read_msg(s):
    h = recv_exact(s, 4)
    if h is None:
        return None, None
    _, t, ln = struct.unpack("!BBH", h)
    body = recv_exact(s, ln - 4) if ln > 4 else b""
    if body is None:
        die("short message")
    return t, body


def objects(body):
    out = []
    while len(body) >= 4:
        cls, tf, ln = struct.unpack("!BBH", body[:4])
        out.append((cls, tf >> 4, body[4:ln]))
        body = body[ln:]
    return out


def expect(s, want, what):
    while True:
        t, body = read_msg(s)
        if t is None:
            die("%s: connection closed, expected %s" % (what, NAMES[want]))
        if t == T_KA and want != T_KA:
            continue
        if t != want:
            die("%s: got %s, expected %s" % (what, NAMES.get(t, t),
                                             NAMES[want]))
        return body


def expect_pcerr(s, etype, evalue, what, srp_id=None):
    body = expect(s, T_PCERR, what)
    got_srp = None
    errs = []
    for cls, _, b in objects(body):
        if cls == 33:
            got_srp = struct.unpack("!I", b[4:8])[0]
        if cls == 13:
            errs.append((b[2], b[3]))
    if (etype, evalue) not in errs:
        die("%s: PCErr %r, expected %d/%d" % (what, errs, etype, evalue))
    if srp_id is not None and got_srp != srp_id:
        die("%s: PCErr SRP-ID %r, expected %d" % (what, got_srp, srp_id))
    return body


def expect_close(s, what, reason=None):
    body = expect(s, T_CLOSE, what)
    if reason is not None:
        got = [b[3] for cls, _, b in objects(body) if cls == 15]
        if got != [reason]:
            die("%s: CLOSE reason %r, expected %d" % (what, got, reason))
    s.settimeout(3)
    try:
        while read_msg(s)[0] is not None:
            pass
    except (socket.timeout, ConnectionResetError):
        die("%s: the connection stayed open after CLOSE" % what)


def report_lsps(body):
    """(srp_id, plsp, flags) of each LSP of a PCRpt."""
    out, srp_id = [], 0
    for cls, _, b in objects(body):
        if cls == 33:
            srp_id = struct.unpack("!I", b[4:8])[0]
        if cls == 32:
            w = struct.unpack("!I", b[:4])[0]
            out.append((srp_id, w >> 12, w & 0xfff))
            srp_id = 0
    return out


# ---- a fake PCE for one sbsim PCC ----

def pce_accept(ls):
    c, addr = ls.accept()
    c.settimeout(10)
    body = expect(c, T_OPEN, "OPEN from the PCC")
    return c, addr, body


def pce_session(ls, nlsps):
    c, addr, body = pce_accept(ls)
    c.sendall(msg(T_OPEN, open_obj()) + msg(T_KA, b""))
    expect(c, T_KA, "KEEPALIVE from the PCC")
    seen = 0
    while True:
        for _, plsp, flags in report_lsps(expect(c, T_RPT, "sync")):
            if plsp == 0:
                if seen != nlsps:
                    die("end-of-sync after %d LSPs" % seen)
                return c, addr
            if not flags & 0x2 or not flags & 0x1:
                die("sync report without S or D: %#x" % flags)
            seen += 1


def pce_negotiation(ls):
    c, _, body = pce_accept(ls)
    flags = [struct.unpack("!I", b[8:12])[0] for cls, _, b in objects(body)
             if cls == 1 and len(b) >= 12]
    if not flags or not flags[0] & 0x1 or not flags[0] & 0x4:
        die("the PCC's OPEN lacks the U or I flag: %r" % flags)
    # RFC 5440 6.2: a dead timer shorter than the PCC's keepalive.
    c.sendall(msg(T_OPEN, open_obj(ka=1, dead=2)))
    b = expect_pcerr(c, 1, 4, "negotiable Open")
    prop = [o for o in objects(b) if o[0] == 1]
    if not prop or prop[0][2][2] <= 30:
        die("PCErr 1/4 without an acceptable Open: %r" % prop)
    c.sendall(msg(T_OPEN, open_obj(ka=1, dead=2)))
    expect_pcerr(c, 1, 5, "second unacceptable Open")
    expect_close(c, "second unacceptable Open")
    c.close()


def pce_cases(c, addr):
    ip = struct.unpack("!I", socket.inet_aton(addr[0]))[0]
    own = "pcc_%s_tunnel_1" % addr[0]
    cases = [
        ("PCUpd for an unknown PLSP-ID", msg(T_UPD, srp(7) + lsp(99, 0x9) +
         ero(0x0a000001)), (19, 3, 7)),
        ("PCUpd without ERO", msg(T_UPD, srp(9) + lsp(1, 0x9)), (6, 9, 9)),
        ("remove of a PCC-initiated LSP", msg(T_INIT, srp(10, 1) +
         lsp(2, 0x1)), (19, 9, 10)),
        ("PCInitiate with a name in use", msg(T_INIT, srp(11) +
         lsp(0, 0x9, name=own) + endpoints(ip, 0xc0000202) +
         ero(0xc0000202)), (23, 1, 11)),
        ("PCInitiate without a name", msg(T_INIT, srp(12) + lsp(0, 0x9) +
         endpoints(ip, 0xc0000202) + ero(0xc0000202)), (10, 8, 12)),
        ("PCInitiate with a PLSP-ID", msg(T_INIT, srp(15) +
         lsp(5, 0x9, name="nz") + ero(0xc0000202)), (19, 8, 15)),
        ("unknown object with P", msg(T_UPD, srp(16) + lsp(1, 0x9) +
         obj(99, 1, b"\0\0\0\0", flags=2) + ero(1)), (3, 1, 16)),
        ("unknown message type", msg(99, b""), (2, 0, None)),
    ]
    for what, m, (t, v, sid) in cases:
        c.sendall(m)
        expect_pcerr(c, t, v, what, sid)
    # Good ones: an update, a creation, its removal.
    c.sendall(msg(T_UPD, srp(8) + lsp(1, 0x9) + ero(0x0a0a0a0a)))
    r = report_lsps(expect(c, T_RPT, "PCUpd answer"))
    if r[0][:2] != (8, 1):
        die("PCUpd answer %r" % r)
    c.sendall(msg(T_INIT, srp(13) + lsp(0, 0x9, name="x1") +
                  endpoints(ip, 0xc0000202) + ero(0xc0000202)))
    r = report_lsps(expect(c, T_RPT, "PCInitiate answer"))
    if r[0][0] != 13 or r[0][1] == 0 or not r[0][2] & 0x80:
        die("PCInitiate answer without SRP-ID, PLSP-ID or C: %r" % r)
    c.sendall(msg(T_INIT, srp(14, 1) + lsp(r[0][1], 0x1)))
    r2 = report_lsps(expect(c, T_RPT, "removal answer"))
    if r2[0][:2] != (14, r[0][1]) or not r2[0][2] & 0x4:
        die("removal answer without SRP-ID or R: %r" % r2)
    # A header of another version: PCErr 1/8, then CLOSE (malformed).
    c.sendall(msg(T_KA, b"", version=2))
    expect_pcerr(c, 1, 8, "version 2")
    expect_close(c, "version 2", reason=3)
    c.close()


def run_pce(port):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(4)
    ls.settimeout(20)
    print("READY", flush=True)
    pce_negotiation(ls)
    c, addr = pce_session(ls, 3)
    pce_cases(c, addr)
    # It reconnects and synchronizes again; then our CLOSE ends it.
    c, addr = pce_session(ls, 3)
    c.sendall(msg(T_CLOSE, obj(15, 1, b"\0\0\0\1")))
    c.close()
    pce_accept(ls)[0].close()
    print("pce cases passed")


# ---- fake PCCs against the embedded PCE ----

def pcc_connect(port, src, stateful=0x05, ka=30, dead=120, handshake=True):
    c = socket.socket()
    c.settimeout(10)
    c.bind((src, 0))
    c.connect(("127.0.0.1", port))
    if handshake:
        expect(c, T_OPEN, "OPEN from the PCE")
        c.sendall(msg(T_OPEN, open_obj(ka, dead, stateful)) + msg(T_KA, b""))
        expect(c, T_KA, "KEEPALIVE from the PCE")
    return c


def run_pcc(port):
    src = "127.3.0.1"
    ip = struct.unpack("!I", socket.inet_aton(src))[0]
    c = pcc_connect(port, src)
    cases = [
        ("PCRpt without LSP-IDENTIFIERS", msg(T_RPT, lsp(5, 0x9, name="a")
         + ero(1)), (6, 11)),
        ("first PCRpt without a name", msg(T_RPT, lsp(6, 0x9,
         ids=(ip, 6)) + ero(1)), (10, 8)),
        ("PCRpt without ERO", msg(T_RPT, lsp(7, 0x9, name="b",
         ids=(ip, 7))), (6, 9)),
        ("PCRpt without LSP", msg(T_RPT, ero(1)), (6, 8)),
        ("PCUpd sent to a PCE", msg(T_UPD, srp(1) + lsp(1, 0x9) + ero(1)),
         (2, 0)),
    ]
    for what, m, (t, v) in cases:
        c.sendall(m)
        expect_pcerr(c, t, v, what)
    # A good report and the end of sync are taken without a word.
    c.sendall(msg(T_RPT, lsp(1, 0x9, name="ok", ids=(ip, 1)) + ero(1)) +
              msg(T_RPT, lsp(0, 0) + ero()))
    # RFC 5440 7.15: a second session from the same PCC.
    c2 = pcc_connect(port, src, handshake=False)
    expect_pcerr(c2, 9, 0, "second session")
    expect_close(c2, "second session")
    c2.close()
    # An object whose length is not a multiple of 4: framing is lost.
    c.sendall(msg(T_RPT, obj(32, 1, b"\0\0\0\0\0\0", length=10)))
    expect_pcerr(c, 10, 11, "object length 10")
    expect_close(c, "object length 10", reason=3)
    c.close()
    # RFC 5440 6.2: negotiation, then a second unacceptable Open.
    c = pcc_connect(port, "127.3.0.2", handshake=False)
    expect(c, T_OPEN, "OPEN from the PCE")
    c.sendall(msg(T_OPEN, open_obj(ka=1, dead=1)))
    expect_pcerr(c, 1, 4, "negotiable Open")
    c.sendall(msg(T_OPEN, open_obj(ka=1, dead=1)))
    expect_pcerr(c, 1, 5, "second unacceptable Open")
    expect_close(c, "second unacceptable Open")
    c.close()
    # RFC 8231 5.4: a report from a PCC that is not stateful.
    c = pcc_connect(port, "127.3.0.3", stateful=None)
    c.sendall(msg(T_RPT, lsp(1, 0x9, name="s", ids=(ip, 1)) + ero(1)))
    expect_pcerr(c, 19, 5, "PCRpt without the capability")
    c.close()
    # Section 6.2: not an Open first.
    c = pcc_connect(port, "127.3.0.4", handshake=False)
    expect(c, T_OPEN, "OPEN from the PCE")
    c.sendall(msg(T_RPT, lsp(1, 0x9, name="s", ids=(ip, 1)) + ero(1)))
    expect_pcerr(c, 1, 1, "PCRpt before Open")
    expect_close(c, "PCRpt before Open")
    c.close()
    # And the PCE still serves a good PCC.
    c = pcc_connect(port, "127.3.0.5")
    c.sendall(msg(T_CLOSE, obj(15, 1, b"\0\0\0\1")))
    c.close()
    print("pcc cases passed")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("pce", "pcc"):
        die("usage: pcep_malformed.py pce|pcc PORT")
    (run_pce if sys.argv[1] == "pce" else run_pcc)(int(sys.argv[2]))

#!/usr/bin/python3
"""Ingest of table-changing messages by one passive sbsim switch.

For each row of KINDS (FLOW_MOD, GROUP_MOD, METER_MOD; a new message
kind is one row), a fresh `sbsim openflow --controller ptcp:PORT` switch is started,
this script connects as its OpenFlow 1.3 controller and, phase by phase
(add N entries, modify them, delete them), writes N messages and one
BARRIER_REQUEST, waits for the BARRIER_REPLY and reads the switch's CPU
time (utime + stime, /proc/PID/stat) and RSS (/proc/PID/status) before
and after.  It prints messages per CPU-second of the switch for each
phase, the ratio of each kind's add rate to the first row's, and the RSS
the added entries hold, per entry.  Any ERROR from the switch fails the
run: every message must have been taken.

Usage: of_mod_ingest.py SBSIM [N]  (N entries per kind, default 200000)
With PERF=DIR in the environment, each phase is also perf-recorded.
Last, the CPU a GROUP_MOD DELETE costs when it takes its one flow with
it from a table of N other flows (ROUNDS=5000 such deletes, timed
against as many deletes of a missing group).
"""
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

OFP13 = 4
T_HELLO, T_ERROR, T_ECHO_REQ, T_ECHO_REP = 0, 1, 2, 3
T_FEATURES_REQ, T_FEATURES_REP = 5, 6
T_FLOW_MOD, T_GROUP_MOD, T_BARRIER_REQ, T_BARRIER_REP = 14, 15, 20, 21
T_METER_MOD = 29
PORT_ANY = GROUP_ANY = 0xffffffff
BARRIER_XID = 0x7fffffff


def hdr(mtype, length, xid=0):
    return struct.pack("!BBHI", OFP13, mtype, length, xid)


def output(port):
    """ofp_action_output (1.3.5 section 7.2.5), max_len NO_BUFFER."""
    return struct.pack("!HHIH6x", 0, 16, port, 0xffe5)


# ---- FLOW_MOD (7.3.4.1): ip, ipv4_dst=10.x.y.z/32, apply output ----
def flow_match(i):
    oxm = struct.pack("!IH", 0x80000a02, 0x0800)        # eth_type
    oxm += struct.pack("!II", 0x80001804, 0x0a000000 + i)  # ipv4_dst
    m = struct.pack("!HH", 1, 4 + len(oxm)) + oxm
    return m + b"\0" * (-len(m) % 8)


def flow_mod(i, command, port):
    match = flow_match(i)
    inst = b""
    if port:
        acts = output(port)
        inst = struct.pack("!HH4x", 4, 8 + len(acts)) + acts
    body = struct.pack("!QQBBHHHIIIH2x", 0, 0, 0, command, 0, 0, 100,
                       0xffffffff, PORT_ANY, GROUP_ANY, 0)
    n = 8 + len(body) + len(match) + len(inst)
    return hdr(T_FLOW_MOD, n) + body + match + inst


# ---- GROUP_MOD (7.3.4.2): an ALL group of one bucket ----
def group_mod(i, command, port):
    buckets = b""
    if port:
        acts = output(port)
        buckets = struct.pack("!HHII4x", 16 + len(acts), 0, PORT_ANY,
                              GROUP_ANY) + acts
    body = struct.pack("!HBxI", command, 0, i + 1)
    return hdr(T_GROUP_MOD, 8 + len(body) + len(buckets)) + body + buckets


# ---- METER_MOD (7.3.4.4): a KBPS meter of one DROP band ----
def meter_mod(i, command, port):
    """port 1 (add) and 2 (modify) set the band's rate; 0: DELETE."""
    band = b""
    if port:
        band = struct.pack("!HHII4x", 1, 16, 1000 * port, 0)
    body = struct.pack("!HHI", command, 0x0001, i + 1)
    return hdr(T_METER_MOD, 8 + len(body) + len(band)) + body + band


def flow_mod_naming_group(i, command, port):
    """A FLOW_MOD whose actions are GROUP 1 then OUTPUT port."""
    match = flow_match(i)
    inst = b""
    if port:
        acts = struct.pack("!HHI", 22, 8, 1) + output(port)
        inst = struct.pack("!HH4x", 4, 8 + len(acts)) + acts
    body = struct.pack("!QQBBHHHIIIH2x", 0, 0, 0, command, 0, 0, 100,
                       0xffffffff, PORT_ANY, GROUP_ANY, 0)
    n = 8 + len(body) + len(match) + len(inst)
    return hdr(T_FLOW_MOD, n) + body + match + inst


def flow_opts(n):
    return ["--table-size", str(n), "--tables", "1"]


# One row per message kind: its name, the encoder of entry i for a
# command and an output port (0: none, for deletes), the three commands
# (add, modify, delete), the options that let the switch hold N, and
# what is sent first.  The FLOW_MOD rows
# after the first run on a switch holding one group: flows that name no
# group (what the group table's flow hooks cost them), then flows that
# name it (each one reference on the group's list).
KINDS = [
    {"name": "FLOW_MOD", "enc": flow_mod, "cmds": (0, 2, 4),
     "opts": flow_opts},
    {"name": "GROUP_MOD", "enc": group_mod, "cmds": (0, 1, 2),
     "opts": lambda n: ["--max-groups", str(n)]},
    {"name": "METER_MOD", "enc": meter_mod, "cmds": (0, 1, 2),
     "opts": lambda n: ["--max-meters", str(n)]},
    {"name": "FLOW+group", "enc": flow_mod, "cmds": (0, 2, 4),
     "opts": flow_opts, "first": [group_mod(0, 0, 1)]},
    {"name": "FLOW->group", "enc": flow_mod_naming_group, "cmds": (0, 2, 4),
     "opts": flow_opts, "first": [group_mod(0, 0, 1)]},
]


class Conn:
    """The controller's end: a reader thread answers ECHOs, counts
    ERRORs and signals each BARRIER_REPLY."""

    def __init__(self, port):
        for _ in range(200):
            try:
                self.s = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.05)
        else:
            sys.exit("of_mod_ingest: the switch did not listen")
        self.errors = 0
        self.first_error = None
        self.barrier = threading.Event()
        self.features = threading.Event()
        threading.Thread(target=self.read, daemon=True).start()
        self.s.sendall(hdr(T_HELLO, 8) + hdr(T_FEATURES_REQ, 8, 1))
        if not self.features.wait(30):
            sys.exit("of_mod_ingest: no FEATURES_REPLY")

    def recv_exact(self, n):
        b = b""
        while len(b) < n:
            c = self.s.recv(n - len(b))
            if not c:
                return None
            b += c
        return b

    def read(self):
        while True:
            h = self.recv_exact(8)
            if h is None:
                return
            _, t, length, xid = struct.unpack("!BBHI", h)
            body = self.recv_exact(length - 8) if length > 8 else b""
            if t == T_ECHO_REQ:
                self.s.sendall(hdr(T_ECHO_REP, length, xid) + body)
            elif t == T_ERROR:
                self.errors += 1
                if self.first_error is None:
                    self.first_error = struct.unpack("!HH", body[:4])
            elif t == T_FEATURES_REP:
                self.features.set()
            elif t == T_BARRIER_REP and xid == BARRIER_XID:
                self.barrier.set()

    def send_and_wait(self, buf):
        self.barrier.clear()
        self.s.sendall(buf + hdr(T_BARRIER_REQ, 8, BARRIER_XID))
        if not self.barrier.wait(600):
            sys.exit("of_mod_ingest: no BARRIER_REPLY")


def cpu_s(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def profile(pid, name, phase):
    """With PERF=DIR, perf record the switch during each phase into
    DIR/KIND-PHASE.data (perf report -i FILE reads it)."""
    if not os.environ.get("PERF"):
        return None
    out = os.path.join(os.environ["PERF"], "%s-%s.data" % (name, phase))
    prof = subprocess.Popen(["perf", "record", "-q", "-g", "-p", str(pid),
                             "-o", out], stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return prof


def run_kind(sbsim, kind, n):
    """{phase: messages per CPU-second}, RSS bytes per added entry."""
    port = free_port()
    log = tempfile.TemporaryFile()
    p = subprocess.Popen([sbsim, "openflow", "--switches", "1",
                          "--controller", "ptcp:%d:127.0.0.1" % port,
                          "--duration", "3600", "-q"] + kind["opts"](n),
                         stdout=log, stderr=log)
    try:
        c = Conn(port)
        if kind.get("first"):
            c.send_and_wait(b"".join(kind["first"]))
        rates, per_entry = {}, 0.0
        for phase, cmd in zip(("add", "modify", "delete"), kind["cmds"]):
            outp = 0 if phase == "delete" else (1 if phase == "add" else 2)
            buf = b"".join(kind["enc"](i, cmd, outp) for i in range(n))
            prof = profile(p.pid, kind["name"], phase)
            rss0, cpu0 = rss_kib(p.pid), cpu_s(p.pid)
            c.send_and_wait(buf)
            cpu = cpu_s(p.pid) - cpu0
            if prof:
                prof.send_signal(2)
                prof.wait()
            if phase == "add":
                per_entry = (rss_kib(p.pid) - rss0) * 1024.0 / n
            if c.errors:
                sys.exit("of_mod_ingest: %s %s: %d errors, first %s" %
                         (kind["name"], phase, c.errors, c.first_error))
            rates[phase] = n / cpu if cpu > 0 else float("inf")
        return rates, per_entry
    finally:
        p.terminate()
        p.wait()


def flow_to_group(i, group):
    """A FLOW_MOD ADD whose apply action is GROUP group (7.2.5)."""
    match = flow_match(i)
    acts = struct.pack("!HHI", 22, 8, group)
    inst = struct.pack("!HH4x", 4, 8 + len(acts)) + acts
    body = struct.pack("!QQBBHHHIIIH2x", 0, 0, 0, 0, 0, 0, 100,
                       0xffffffff, PORT_ANY, GROUP_ANY, 0)
    n = 8 + len(body) + len(match) + len(inst)
    return hdr(T_FLOW_MOD, n) + body + match + inst


def group_delete_in_big_table(sbsim, n, k):
    """Microseconds of switch CPU per group DELETE that takes its one
    flow with it, with n other flows in the table: K rounds of ADD a
    group, ADD a flow naming it, DELETE the group, timed as a whole,
    less K rounds of the same ADDs with a DELETE of a missing group."""
    port = free_port()
    log = tempfile.TemporaryFile()
    p = subprocess.Popen([sbsim, "openflow", "--switches", "1",
                          "--controller", "ptcp:%d:127.0.0.1" % port,
                          "--duration", "3600", "-q", "--tables", "1",
                          "--table-size", str(n + 2 * k),
                          "--max-groups", str(2 * k + 1)],
                         stdout=log, stderr=log)
    try:
        c = Conn(port)
        c.send_and_wait(b"".join(flow_mod(i, 0, 1) for i in range(n)))
        cpu = []
        for gone in (0, 1):
            buf = b""
            for j in range(k):
                g = gone * k + j
                buf += group_mod(g, 0, 1) + flow_to_group(n + g, g + 1)
                buf += group_mod(g if gone else 0xfffff0 + 0, 2, 0)
            cpu0 = cpu_s(p.pid)
            c.send_and_wait(buf)
            cpu.append(cpu_s(p.pid) - cpu0)
        if c.errors:
            sys.exit("of_mod_ingest: group delete: %d errors, first %s" %
                     (c.errors, c.first_error))
        return max(cpu[1] - cpu[0], 0) / k * 1e6
    finally:
        p.terminate()
        p.wait()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sbsim = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
    print("%-11s %8s %14s %14s %14s %9s %12s" % (
        "kind", "N", "add/cpu-s", "modify/cpu-s", "delete/cpu-s",
        "add-ratio", "rss-B/entry"))
    base = None
    for kind in KINDS:
        r, per = run_kind(sbsim, kind, n)
        base = base or r["add"]
        print("%-11s %8d %14.0f %14.0f %14.0f %9.2f %12.0f" % (
            kind["name"], n, r["add"], r["modify"], r["delete"],
            r["add"] / base, per))
    k = int(os.environ.get("ROUNDS", "5000"))
    tick = 1e6 / os.sysconf("SC_CLK_TCK")
    print("GROUP_MOD DELETE taking its flow, %d other flows in the table: "
          "%.1f us of switch CPU each (%d rounds, +-%.1f us)" %
          (n, group_delete_in_big_table(sbsim, n, k), k, 2 * tick / k))


if __name__ == "__main__":
    main()

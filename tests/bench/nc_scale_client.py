#!/usr/bin/python3
"""Bench client for netconf_scale.sh: open one NETCONF session to each of
N devices (ports BASE..BASE+N-1 of 127.0.0.1, or with BASE IP:PORT the
N addresses from IP up, all at PORT), exchange hellos and one <get> on each,
keep every session open, and print the setup figures as one JSON line;
then wait for a line on stdin (or EOF) before closing them all, so that
the caller can read sbsim's memory with all sessions up.

usage: nc_scale_client.py tcp|ssh BASE|IP:PORT N [CONCURRENCY [USER PASSWORD]]"""

import asyncio
import ipaddress
import json
import resource
import sys
import time
from concurrent.futures import ThreadPoolExecutor

BASE_NS = "urn:ietf:params:xml:ns:netconf:base:1.0"
HELLO = ('<?xml version="1.0" encoding="UTF-8"?><hello xmlns="%s">'
         '<capabilities><capability>urn:ietf:params:netconf:base:1.1'
         '</capability></capabilities></hello>]]>]]>' % BASE_NS).encode()
GET = ('<rpc xmlns="%s" message-id="1"><get/></rpc>' % BASE_NS).encode()
GET_CHUNKED = b"\n#%d\n" % len(GET) + GET + b"\n##\n"


def device(base, i):
    """Device i's (host, port)."""
    if ":" not in base:
        return "127.0.0.1", int(base) + i
    ip, port = base.rsplit(":", 1)
    return str(ipaddress.ip_address(ip) + i), int(port)


async def tcp_one(where, sem, held):
    async with sem:
        r, w = await asyncio.open_connection(*where)
        await r.readuntil(b"]]>]]>")
        w.write(HELLO + GET_CHUNKED)
        await r.readuntil(b"\n##\n")
        held.append(w)


async def tcp_all(base, n, conc):
    sem = asyncio.Semaphore(conc)
    held = []
    t0 = time.monotonic()
    res = await asyncio.gather(*(tcp_one(device(base, i), sem, held)
                                 for i in range(n)), return_exceptions=True)
    t1 = time.monotonic()
    errors = [r for r in res if isinstance(r, Exception)]
    report(n, len(held), len(errors), t1 - t0, errors)
    await asyncio.get_running_loop().run_in_executor(None,
                                                     sys.stdin.readline)
    for w in held:
        w.close()


def ssh_one(where, user, password, held):
    import paramiko
    t = paramiko.Transport(where)
    t.start_client(timeout=60)
    t.auth_password(user, password)
    ch = t.open_session(timeout=60)
    ch.invoke_subsystem("netconf")
    buf = b""
    while b"]]>]]>" not in buf:
        buf += ch.recv(65536)
    ch.sendall(HELLO + GET_CHUNKED)
    buf = b""
    while b"\n##\n" not in buf:
        buf += ch.recv(65536)
    held.append(t)


def ssh_all(base, n, conc, user, password):
    held = []
    errors = []
    t0 = time.monotonic()
    with ThreadPoolExecutor(conc) as ex:
        futs = [ex.submit(ssh_one, device(base, i), user, password, held)
                for i in range(n)]
        for f in futs:
            if f.exception() is not None:
                errors.append(f.exception())
    t1 = time.monotonic()
    report(n, len(held), len(errors), t1 - t0, errors)
    sys.stdin.readline()
    for t in held:
        t.close()


def report(n, up, nerr, secs, errors):
    print(json.dumps({"devices": n, "sessions": up, "errors": nerr,
                      "seconds": round(secs, 3),
                      "sessions_per_s": round(up / secs, 1) if secs else 0,
                      "first_error": repr(errors[0]) if errors else None}),
          flush=True)


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    mode, base, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    conc = int(sys.argv[4]) if len(sys.argv) > 4 else 256
    if mode == "tcp":
        asyncio.run(tcp_all(base, n, conc))
    else:
        ssh_all(base, n, conc, sys.argv[5], sys.argv[6])


if __name__ == "__main__":
    main()

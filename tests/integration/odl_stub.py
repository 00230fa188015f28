#!/usr/bin/python3
"""A tiny stand-in for OpenDaylight's RESTCONF flow writes, for
northbound_stub.sh: accepts flows (PUT of one .../flow=ID, POST of a list
to the table), deletes them (one flow, or the table), and answers the
operational table GET with active-flows equal to what it holds, in both
URL styles and both body formats.  Bodies of the wrong shape get 400, bad
credentials 401 (--deny: every request).  Each request is logged as one
JSON line to --log.

usage: odl_stub.py PORT LOGFILE [--user U --password P] [--deny]
"""
import argparse
import base64
import json
import re
import threading
import xml.etree.ElementTree as ET
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

FNI = "{urn:opendaylight:flow:inventory}"
NODES = "opendaylight-inventory:nodes"
STATS = r"(?:/opendaylight-flow-table-statistics:flow-table-statistics)?"
RFC = re.compile(r"^/rests/data/" + NODES +
                 r"/node=([^/?]+)/flow-node-inventory:table=(\d+)"
                 r"(?:/flow=([^/?]+))?" + STATS + r"(\?content=nonconfig)?$")
DRAFT = re.compile(r"^/restconf/(config|operational)/" + NODES +
                   r"/node/([^/?]+)/table/(\d+)(?:/flow/([^/?]+))?" + STATS +
                   r"$")

lock = threading.Lock()
tables = {}     # (node, table) -> set of flow ids


def parse(path):
    """(style, datastore, node, table, flow id or None) or None."""
    m = RFC.match(path)
    if m:
        return ("rfc8040", "nonconfig" if m.group(4) else "config",
                unquote(m.group(1)), int(m.group(2)),
                unquote(m.group(3)) if m.group(3) else None)
    m = DRAFT.match(path)
    if m:
        return ("draft", "nonconfig" if m.group(1) == "operational"
                else "config", m.group(2), int(m.group(3)), m.group(4))
    return None


def flows_of(body, ctype, style, table):
    """The flow ids of a body, or None when it has the wrong shape."""
    try:
        if "xml" in ctype:
            root = ET.fromstring(body)
            if root.tag != FNI + "flow":
                return None
            flows = [{"id": root.findtext(FNI + "id"),
                      "table_id": int(root.findtext(FNI + "table_id")),
                      "dst": root.findtext(FNI + "match/" + FNI +
                                           "ipv4-destination")}]
        else:
            j = json.loads(body)
            key = "flow-node-inventory:flow" if style == "rfc8040" else "flow"
            if list(j) != [key]:
                return None
            flows = [{"id": f["id"], "table_id": f["table_id"],
                      "dst": f["match"]["ipv4-destination"]} for f in j[key]]
        for f in flows:
            if f["table_id"] != table or not f["dst"].endswith("/32"):
                return None
        return flows
    except (ValueError, KeyError, TypeError, AttributeError, ET.ParseError):
        return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", ctype=None, nflows=0):
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        if status == 401:
            self.send_header("WWW-Authenticate", 'Basic realm="opendaylight"')
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        rec = {"method": self.command, "path": self.path, "status": status,
               "auth": self.headers.get("Authorization"),
               "ctype": self.headers.get("Content-Type"),
               "accept": self.headers.get("Accept"), "flows": nflows}
        with lock:
            with open(self.server.logfile, "a") as f:
                f.write(json.dumps(rec) + "\n")

    def handle_any(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        if self.server.deny or self.headers.get("Authorization") != \
                self.server.auth:
            return self.reply(401)
        p = parse(self.path)
        if p is None:
            return self.reply(404)
        style, ds, node, table, fid = p
        key = (node, table)
        if self.command == "GET":
            if ds != "nonconfig" or fid is not None:
                return self.reply(400)
            with lock:
                count = len(tables.get(key, ()))
            if "xml" in (self.headers.get("Accept") or ""):
                out = ('<table xmlns="urn:opendaylight:flow:inventory">'
                       '<id>%d</id><flow-table-statistics xmlns="urn:'
                       'opendaylight:flow:table:statistics"><active-flows>'
                       '%d</active-flows></flow-table-statistics></table>'
                       % (table, count)).encode()
                return self.reply(200, out, "application/xml")
            out = json.dumps({"flow-node-inventory:table": [{
                "id": table,
                "opendaylight-flow-table-statistics:flow-table-statistics":
                {"active-flows": count}}]}).encode()
            return self.reply(200, out, "application/json")
        if ds != "config":
            return self.reply(405)
        if self.command == "DELETE":
            with lock:
                t = tables.setdefault(key, set())
                if fid is None:
                    t.clear()
                elif fid in t:
                    t.discard(fid)
                else:
                    return self.reply(404)
            return self.reply(204)
        flows = flows_of(body, self.headers.get("Content-Type") or "",
                         style, table)
        if flows is None:
            return self.reply(400)
        if self.command == "PUT" and (fid is None or len(flows) != 1 or
                                      flows[0]["id"] != fid):
            return self.reply(400)
        if self.command == "POST" and fid is not None:
            return self.reply(400)
        with lock:
            t = tables.setdefault(key, set())
            new = not any(f["id"] in t for f in flows)
            t.update(f["id"] for f in flows)
        return self.reply(201 if new else 204, nflows=len(flows))

    do_GET = do_PUT = do_POST = do_DELETE = handle_any


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("log")
    ap.add_argument("--user", default="admin")
    ap.add_argument("--password", default="admin")
    ap.add_argument("--deny", action="store_true")
    a = ap.parse_args()
    # Room for every parallel connection in the listen backlog.
    ThreadingHTTPServer.request_queue_size = 128
    srv = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    srv.daemon_threads = True
    srv.logfile = a.log
    srv.deny = a.deny
    srv.auth = "Basic " + base64.b64encode(
        ("%s:%s" % (a.user, a.password)).encode()).decode()
    open(a.log, "w").close()
    srv.serve_forever()


if __name__ == "__main__":
    main()

"""A JSON-RPC 1.0 connection to an OVSDB server (RFC 7047 section 4), for
the OVSDB tests: messages are JSON values one after another on the TCP
stream, with no length before them."""
import json

DEC = json.JSONDecoder()


class Conn:
    def __init__(self, sock, timeout=10):
        self.s = sock
        self.s.settimeout(timeout)
        self.buf = ""
        self.pending = []       # what came while call() waited

    def send(self, obj):
        """A message (a dict), or raw bytes or text as they are."""
        raw = obj if isinstance(obj, (bytes, str)) else json.dumps(obj)
        self.s.sendall(raw.encode() if isinstance(raw, str) else raw)

    def recv(self):
        """The next JSON message, or None once the server closed."""
        while True:
            text = self.buf.lstrip()
            if text:
                try:
                    obj, end = DEC.raw_decode(text)
                    self.buf = text[end:]
                    return obj
                except ValueError:
                    pass
            data = self.s.recv(65536)
            if not data:
                return None
            self.buf += data.decode()

    def reply(self, want_id):
        """The reply to want_id (None once closed), answering the server's
        echo requests and keeping its other messages in pending."""
        while True:
            m = self.recv()
            if m is None or m.get("id") == want_id and "method" not in m:
                return m
            if m.get("method") == "echo" and m.get("id") is not None:
                self.send({"id": m["id"], "result": m["params"],
                           "error": None})
            else:
                self.pending.append(m)

    def call(self, i, method, params):
        self.send({"id": i, "method": method, "params": params})
        return self.reply(i)

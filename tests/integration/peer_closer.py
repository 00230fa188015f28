# Accepts every connection on 127.0.0.1:PORT and closes it at once, for
# SECONDS: a controller that takes no more devices (verdicts.sh).
import signal, socket, sys, time

signal.signal(signal.SIGINT, lambda *a: sys.exit(0))
signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(64)
s.settimeout(0.2)
end = time.time() + float(sys.argv[2])
while time.time() < end:
    try:
        c, _ = s.accept()
        c.close()
    except socket.timeout:
        pass

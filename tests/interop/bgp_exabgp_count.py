#!/usr/bin/python3
"""ExaBGP API process for tests/interop/bgp_exabgp.sh: reads the JSON
messages ExaBGP sends it (api { receive { parsed; update; } }) and keeps
in the file given as argument "ANNOUNCED WITHDRAWN UPDATES": the NLRIs
received in all UPDATEs (announced and withdrawn) and the UPDATEs."""
import json
import os
import sys

out = sys.argv[1]
ann = wd = upd = 0


def nlris(fams):
    # {"ipv4 unicast": {NEXT_HOP: [nlri, ...]}} or {"ipv4 unicast": [nlri, ...]}
    n = 0
    for v in fams.values():
        if isinstance(v, dict):
            for lst in v.values():
                n += len(lst)
        elif isinstance(v, list):
            n += len(v)
    return n


def save():
    with open(out + ".tmp", "w") as f:
        f.write("%d %d %d\n" % (ann, wd, upd))
    os.replace(out + ".tmp", out)


save()
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("type") != "update":
        continue
    u = m.get("neighbor", {}).get("message", {}).get("update", {})
    upd += 1
    ann += nlris(u.get("announce", {}))
    wd += nlris(u.get("withdraw", {}))
    save()

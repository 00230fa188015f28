#!/usr/bin/python3
"""ncclient (Debian's python3-ncclient, over paramiko) against
`sbsim netconf` over SSH: password and public-key authentication, a wrong
password refused, the hello, get-schema, get-config, edit-config good
and bad, lock/unlock, commit/discard-changes on the candidate, and
create-subscription with its notifications.

usage: ncclient_ssh.py PORT USER PASSWORD KEYFILE NOTIFICATIONS PREFIXES
(KEYFILE -: only the wrong password, then a password login and get-config)
Prints one line per check; exits 1 at the first failure."""

import sys

from ncclient import manager
from ncclient.operations import RPCError
from ncclient.transport.errors import AuthenticationError

ROUTES = "urn:sbsim:routes"
NOTIF = "urn:ietf:params:xml:ns:netconf:notification:1.0"
CONFIG = ('<config xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">'
          '<routes xmlns="%s"><route><prefix>%%s</prefix>'
          '<next-hop>%%s</next-hop></route></routes></config>' % ROUTES)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def ok(msg):
    print("ok: " + msg)


def connect(port, user, password=None, key=None):
    return manager.connect(host="127.0.0.1", port=port, username=user,
                           password=password, key_filename=key,
                           hostkey_verify=False, look_for_keys=False,
                           allow_agent=False, timeout=20)


def expect_rpc_error(fn, tag, what):
    try:
        fn()
    except RPCError as e:
        if e.tag != tag:
            fail("%s: error-tag %s, expected %s" % (what, e.tag, tag))
        ok("%s -> %s" % (what, tag))
        return
    fail("%s: no rpc-error" % what)


def main():
    port, user, password, key = (int(sys.argv[1]), sys.argv[2], sys.argv[3],
                                 sys.argv[4])
    nnotif, nprefix = int(sys.argv[5]), int(sys.argv[6])

    try:
        connect(port, user, password + "-wrong")
        fail("a wrong password was accepted")
    except AuthenticationError:
        ok("wrong password refused")

    m = connect(port, user, password)
    if key == "-":
        m.get_config(source="running")
        m.close_session()
        ok("password login, get-config")
        return
    caps = list(m.server_capabilities)
    for c in (":base:1.1", ":candidate", ":notification"):
        if not any(x.endswith(c) or (c + ":") in x for x in caps):
            fail("capability %s missing from %s" % (c, caps))
    if not any("module=sbsim-routes" in x for x in caps):
        fail("sbsim-routes not advertised")
    ok("password login, session-id %s, %d capabilities" %
       (m.session_id, len(caps)))

    text = m.get_schema("sbsim-routes").data
    if "module sbsim-routes" not in text:
        fail("get-schema: %r" % text[:200])
    ok("get-schema sbsim-routes")

    m.get_config(source="running")
    ok("get-config running")
    m.edit_config(target="running",
                  config=CONFIG % ("10.2.0.0/24", "192.0.2.1"))
    got = m.get_config(source="running",
                       filter=("subtree", '<routes xmlns="%s"/>' % ROUTES))
    if "10.2.0.0/24" not in got.data_xml:
        fail("edit-config not applied: %s" % got.data_xml)
    ok("edit-config running, read back")
    expect_rpc_error(lambda: m.edit_config(
        target="running", config=CONFIG % ("10.2.1.0/24", "bad-address")),
        "invalid-value", "edit-config bad next-hop")

    with m.locked("running"):
        ok("lock running")
    ok("unlock running")

    m.edit_config(target="candidate",
                  config=CONFIG % ("10.2.2.0/24", "192.0.2.2"))
    m.discard_changes()
    got = m.get_config(source="candidate").data_xml
    if "10.2.2.0/24" in got:
        fail("discard-changes left the edit in candidate")
    ok("candidate edit, discard-changes")
    m.edit_config(target="candidate",
                  config=CONFIG % ("10.2.3.0/24", "192.0.2.3"))
    m.commit()
    if "10.2.3.0/24" not in m.get_config(source="running").data_xml:
        fail("commit did not reach running")
    ok("candidate edit, commit")

    m.create_subscription()
    prefixes = set()
    for i in range(nnotif):
        n = m.take_notification(timeout=20)
        if n is None:
            fail("notification %d of %d did not come" % (i + 1, nnotif))
        if n.notification_ele.find("{%s}eventTime" % NOTIF) is None:
            fail("notification without eventTime")
        for p in n.notification_ele.iter("{%s}prefix" % ROUTES):
            if p.text and p.text.strip():
                prefixes.add(p.text.strip())
    if len(prefixes) != nnotif * nprefix:
        fail("%d distinct prefixes, expected %d" %
             (len(prefixes), nnotif * nprefix))
    ok("%d notifications, %d prefixes" % (nnotif, len(prefixes)))
    m.close_session()
    ok("close-session")

    k = connect(port, user, key=key)
    k.get(filter=("subtree", '<routes xmlns="%s"/>' % ROUTES))
    k.close_session()
    ok("public-key login, get")
    print("all checks passed")


if __name__ == "__main__":
    main()

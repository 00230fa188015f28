#!/bin/bash
# sbsim netconf command-line errors: each gets one line on stderr that
# names the problem, nothing on stdout, exit status 2, never a hang.
. "$(dirname "$0")/../lib.sh"
L="--devices 2 --listen ptcp:9"

bad() {
	local re=$1
	shift
	bad_usage netconf "$re" "$@"
}

bad "--devices N is required" --listen ptcp:9
bad "--listen ptcp:PORT" --devices 1
bad "--devices: 'x' is not a whole number" --devices x --listen ptcp:9
bad "--devices: '0' is not a whole number" --devices 0 --listen ptcp:9
bad "same thing" $L --controller ptcp:9
bad "devices listen" --devices 1 --listen tcp:127.0.0.1:9
bad "devices listen: ptcp:PORT\[:IP\], not .pssl:9." --devices 1 --listen pssl:9
bad "--listen" --devices 1 --listen ptcp:notaport
bad "past 65535" --devices 10 --listen ptcp:65530
bad "--transport: 'udp' is not ssh or tcp" $L --transport udp
bad "need --transport ssh" $L --transport tcp --password x
bad "--user needs --password" $L --user bob
bad "--authorized-keys /nonexistent" $L --authorized-keys /nonexistent
bad "--yang-dir /nonexistent" $L --yang-dir /nonexistent
bad "need --notifications" $L --notification-rate 5
bad "need --notifications" $L --prefixes-per-notification 5
bad "--prefixes-per-notification: '0'" $L --notifications 1 \
    --prefixes-per-notification 0
bad "--notification-rate: '-1'" $L --notifications 1 \
    --notification-rate -1
bad "--expect-edits: 'many'" $L --expect-edits many
bad "--max-sessions: '0'" $L --max-sessions 0
bad "different address families" $L --source 2001:db8::/64
bad "do not apply" $L --ssl-key k
bad "unknown option '--frobnicate'" $L --frobnicate
bad "--devices needs an argument" --listen ptcp:9 --devices
bad "unknown phase 'nosuch'" $L --transport tcp --expect 'nosuch.items>=1'
mkdir -p "$TMPD/empty"
bad "cannot load the YANG modules" $L --transport tcp --yang-dir "$TMPD/empty"
bad "--yang-dir /dev/null: not a readable directory" $L --yang-dir /dev/null
printf 'not a key\n' >"$TMPD/badkeys"
bad "badkeys line 1: not a public key" $L --authorized-keys \
    "$TMPD/badkeys" --host-key "$TMPD/hk"
printf 'junk\n' >"$TMPD/badhost"
bad "--host-key .*badhost: not a private key" $L --host-key "$TMPD/badhost"

run_cli netconf --help
if [ $RC -ne 0 ] || ! echo "$OUT" | grep -q "usage: sbsim netconf"; then
	echo "FAIL: sbsim netconf --help (exit $RC)" >&2
	FAILS=$((FAILS + 1))
fi
[ $FAILS -eq 0 ] || fail "$FAILS command lines not refused as expected"
exit 0

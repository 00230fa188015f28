#!/bin/bash
# Wire validation of association groups (RFC 8697): sbsim PCCs with
# --association path-protection, disjoint and --sr-policy against the
# embedded PCE, captured on the loopback and decoded by Wireshark's PCEP
# dissector: the PCE's and the PCCs' ASSOC-Type-List in their Opens, and
# every PCRpt's ASSOCIATION object with its TLVs (RFC 8745's, RFC 8800's,
# the SR policy's EXTENDED-ASSOCIATION-ID color and endpoint, names,
# candidate path id and preference), and binding SIDs (RFC 9604
# TE-PATH-BINDING, MPLS and SRv6; Wireshark 4.0 names the TLV only), and
# SRv6 paths (RFC 9603: PST 3, SRv6-PCE-CAPABILITY, SRv6-ERO subobjects,
# which Wireshark 4.0 shows as subobjects it does not know).  Not one
# malformed packet or expert error may appear.
. "$(dirname "$0")/../lib.sh"
need tshark
need dumpcap
need ss
[ "$(id -u)" -eq 0 ] || skip "capturing on lo needs root"
N=2
M=4
PP=$(free_ports 1)
cap="$TMPD/assoc.pcapng"
start_capture "$TMPD/dumpcap.log" "tcp port $PP" "$cap"
dc=$LAST_PID
start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1
ctl=$LAST_PID
wait_listen "$PP" || fail "no controller"
for kind in "--association path-protection" \
    "--association disjoint --binding-sid srv6 --srv6" \
    "--sr-policy --binding-sid mpls"; do
	timeout 60 "$SBSIM" pcep --pccs $N --lsps $M --association-size 2 \
	    --controller tcp:127.0.0.1:$PP --timeout 20 -q $kind ||
	    fail "sbsim pcep $kind exited $?"
done
stop_pid "$ctl"
sleep 0.5
stop_pid "$dc"

dec="-d tcp.port==$PP,pcep"
tshark_clean "$cap" $dec
# types: the Association Type of every ASSOCIATION object decoded.
tshark -r "$cap" $dec -T fields -e pcep.association.type \
    -Y pcep.obj.association 2>/dev/null | tr ',' '\n' | sort | uniq -c \
    >"$TMPD/types"
for t in 1 2 6; do
	n=$(awk -v t=$t '$2 == t { print $1 }' "$TMPD/types")
	[ "${n:-0}" -eq $((N * M)) ] ||
	    fail "type $t: ${n:-0} ASSOCIATION objects decoded, want $((N * M)): $(cat "$TMPD/types")"
done
colors=$(tshark -r "$cap" $dec -T fields \
    -e pcep.tlv.extended_association_id.color -Y pcep.obj.association \
    2>/dev/null | tr ',' '\n' | grep -c .)
[ "$colors" -eq $((N * M)) ] || fail "SR policy colors decoded: $colors"
bsids=$(tshark -r "$cap" $dec -T fields -e pcep.tlv.type -Y pcep.obj.lsp \
    2>/dev/null | tr ',' '\n' | grep -c '^55$')
[ "$bsids" -eq $((2 * N * M)) ] || fail "TE-PATH-BINDING TLVs decoded: $bsids"
# PST 3 in the SRv6 run's SRPs.
n=$(tshark -r "$cap" $dec -T fields -e pcep.pst \
    -Y pcep.obj.srp 2>/dev/null | tr ',' '\n' | grep -c '^3$')
[ "$n" -ge $((N * M)) ] || fail "PATH-SETUP-TYPE 3 decoded $n times"
exit 0

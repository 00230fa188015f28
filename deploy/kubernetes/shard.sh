#!/bin/sh
# One shard of a larger sbsim run, from its environment: the container
# command of sbsim-job.yaml, and what `sbsim-k8s local` runs as a local
# process.  Its report goes to standard output between two marker lines,
# so that it is collected from the pod's log (sbsim-k8s collect) with no
# shared volume.
#
#   JOB_COMPLETION_INDEX  this shard's index (Kubernetes sets it in an
#                         Indexed Job's pods)
#   SHARDS                how many shards the run has
#   PROTOCOL              openflow, bgp, pcep or netconf
#   COUNT                 the whole run's devices (not this shard's)
#   CONTROLLER            the --controller endpoint (netconf: --listen)
#   START_AT              UNIX time every shard starts at (0: at once)
#   SBSIM_ARGS            more options, word-split
#   SBSIM                 the binary (default sbsim on PATH)
set -u
: "${JOB_COMPLETION_INDEX:?the shard index (an Indexed Job sets it)}"
: "${SHARDS:?how many shards}" "${COUNT:?the whole run's device count}"
: "${CONTROLLER:?the controller endpoint}"
PROTOCOL=${PROTOCOL:-openflow} START_AT=${START_AT:-0}
SBSIM=${SBSIM:-sbsim} SBSIM_ARGS=${SBSIM_ARGS:-}
REPORT=${TMPDIR:-/tmp}/sbsim-shard-$JOB_COMPLETION_INDEX.$$.json

case $PROTOCOL in
openflow)	count=--switches where=--controller ;;
bgp)		count=--peers where=--controller ;;
pcep)		count=--pccs where=--controller ;;
netconf)	count=--devices where=--listen ;;
*)		echo "shard.sh: PROTOCOL $PROTOCOL is not openflow, bgp," \
		    "pcep or netconf" >&2; exit 2 ;;
esac
set -- "$PROTOCOL" "$count" "$COUNT" "$where" "$CONTROLLER" \
    --shard "$JOB_COMPLETION_INDEX/$SHARDS" --report "$REPORT" -q
[ "$START_AT" = 0 ] || set -- "$@" --start-at "$START_AT"
# shellcheck disable=SC2086
"$SBSIM" "$@" $SBSIM_ARGS
rc=$?
if [ -s "$REPORT" ]; then
	echo "--- sbsim report $JOB_COMPLETION_INDEX/$SHARDS"
	cat "$REPORT"
	echo
	echo "--- sbsim report end"
	rm -f "$REPORT"
fi
exit $rc

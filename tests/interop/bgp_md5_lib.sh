# shellcheck shell=bash
# Helpers for the TCP-MD5 interop tests (sourced after tests/lib.sh and
# bgp_lib.sh; not a test by itself).

# md5_run NAME ARGS...: sbsim bgp ARGS -q with its report in
# $TMPD/NAME.json and stderr in $TMPD/NAME.err; RC its exit status, SECS
# how long it took (60 s at most).
md5_run() {
	local name=$1 t0
	shift
	t0=$(date +%s)
	timeout 60 "$SBSIM" bgp -q --report "$TMPD/$name.json" "$@" \
	    >"$TMPD/$name.out" 2>"$TMPD/$name.err"
	RC=$?
	SECS=$(($(date +%s) - t0))
}

# md5_refused NAME KIND ARGS...: a run whose key the other end does not
# take: it ends within its --timeout (2 s; 30 s allowed for a loaded
# host) with exit status 1, its connect phase TIMEOUT, the kernel's
# kernel_md5_KIND counter grown (failure: another key; not_found: a
# missing one) and the drops said on stderr.
md5_refused() {
	local name=$1 kind=$2 got
	shift 2
	md5_run "$name" --timeout 2 --settle 0 "$@"
	[ "$RC" = 1 ] || fail "$name: exit $RC, want 1: $(cat "$TMPD/$name.err")"
	[ "$SECS" -le 30 ] || fail "$name: the run took $SECS s (--timeout 2)"
	got=$(json_get "$TMPD/$name.json" "[p['state'] for p in r['phases'] if p['name'] == 'connect']")
	[ "$got" = "['TIMEOUT']" ] || fail "$name: connect is $got, want TIMEOUT"
	got=$(counter "$TMPD/$name.json" "kernel_md5_$kind")
	[ "$got" -ge 1 ] || fail "$name: kernel_md5_$kind is $got"
	grep -q "TCP-MD5: the kernel dropped segments during the run" \
	    "$TMPD/$name.err" || fail "$name: the drops not said: $(cat "$TMPD/$name.err")"
	echo "$name: refused in $SECS s, kernel_md5_$kind $got"
}

# md5_right_report FILE PEERS ROUTES: the right key's report: connect
# DONE with PEERS, learn DONE with ROUTES, every session (the peers' and
# the monitor's) connected with the key and answered.
md5_right_report() {
	report_check "$1" connect "$2"
	report_check "$1" learn "$3"
	[ "$(counter "$1" md5_connects)" -ge $(($2 + 1)) ] ||
	    fail "right key: md5_connects $(counter "$1" md5_connects)"
	[ "$(counter "$1" md5_unanswered)" = 0 ] ||
	    fail "right key: md5_unanswered $(counter "$1" md5_unanswered)"
}

# md5_wrong ARGS...: md5_refused's run "wrong" (another key, the kernel's
# kernel_md5_failure), whose connects went unanswered.
md5_wrong() {
	md5_refused wrong failure "$@"
	[ "$(counter "$TMPD/wrong.json" md5_unanswered)" -ge 1 ] ||
	    fail "wrong key: md5_unanswered $(counter "$TMPD/wrong.json" md5_unanswered)"
}

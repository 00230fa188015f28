# Shared helpers for the scripted tests (sourced).  Every test cleans up
# the processes it started, by PID, and stops by itself.
set -u

SBSIM=${SBSIM:-$(pwd)/src/sbsim}
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/sbsim-test.XXXXXX")
PIDS=""

cleanup() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $PIDS; do
		wait "$p" 2>/dev/null
	done
	# A sanitizer report from any process the test ran fails the test
	# (configure --enable-sanitizers builds).
	if grep -lE 'ERROR: (Address|Leak)Sanitizer|runtime error:' \
	    "$TMPD"/*.log 2>/dev/null; then
		grep -hE -A20 'ERROR: (Address|Leak)Sanitizer|runtime error:' \
		    "$TMPD"/*.log >&2
		rm -rf "$TMPD"
		exit 1
	fi
	rm -rf "$TMPD"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	for f in "$TMPD"/*.log; do
		[ -f "$f" ] || continue
		echo "--- $f" >&2
		tail -n 30 "$f" >&2
	done
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

need() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"
}

# A free TCP port range of n ports starting at a pseudo-random base in
# [10000, 32000), so parallel tests do not collide, and below the kernel's
# ephemeral range (32768 up), where a client socket could hold the port.
free_ports() {
	local n=$1 base tries=0
	while [ $tries -lt 50 ]; do
		base=$(( 10000 + (RANDOM * 32768 + RANDOM) % (22000 - n) ))
		# Every port of the range free, not only its ends.
		if ! ss -Htan 2>/dev/null | awk -v lo="$base" -v hi=$((base + n - 1)) '
		    { p = $4; sub(/.*:/, "", p); if (p + 0 >= lo && p + 0 <= hi) f = 1 }
		    END { exit !f }'; then
			echo "$base"
			return 0
		fi
		tries=$((tries + 1))
	done
	echo 29999
}

# Wait until something listens on port $1 (20 s by the clock at most).
wait_listen() {
	local end=$((SECONDS + 20))
	while [ $SECONDS -lt $end ]; do
		ss -Hltn 2>/dev/null | awk '{print $4}' | grep -qE ":$1\$" &&
		    return 0
		sleep 0.05
	done
	return 1
}

# Start a background command, remember its PID.
start_bg() {
	local log=$1
	shift
	"$@" >"$log" 2>&1 &
	PIDS="$PIDS $!"
	LAST_PID=$!
}

# Stop a PID with SIGINT and wait for it (10 s at most); its exit status
# is left in STOP_RC.
stop_pid() {
	local pid=$1 i=0 sig=INT
	# A background job of a script ignores SIGINT (a Python helper, say):
	# SIGTERM then, or the wait below ends in SIGKILL.
	[ $(( 0x$(sed -n 's/^SigIgn:\t*//p' /proc/"$pid"/status 2>/dev/null ||
	    echo 0) & 2 )) -eq 0 ] || sig=TERM
	kill -"$sig" "$pid" 2>/dev/null
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	STOP_RC=$?
}

PY=/usr/bin/python3

# json_get FILE EXPR: evaluate a Python expression on the parsed report r.
json_get() {
	"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# wait_children PID N: the N children of PID (a --workers parent) once it
# has forked them all, on stdout; 1 (with those it had) after 5 s.
wait_children() {
	local kids="" i
	for i in $(seq 50); do
		kids=$(cat /proc/$1/task/*/children 2>/dev/null)
		if [ "$(echo $kids | wc -w)" -eq "$2" ]; then
			echo $kids
			return 0
		fi
		sleep 0.1
	done
	echo $kids
	return 1
}

# Wait (at most $2 seconds, default 30) for a PID started by start_bg to
# exit by itself; its exit status is left in EXIT_RC (124: still running,
# then killed).
wait_exit() {
	local pid=$1 max=$(( ${2:-30} * 10 )) i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt "$max" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		EXIT_RC=124
		return 1
	fi
	wait "$pid"
	EXIT_RC=$?
	return 0
}

# start_capture LOG FILTER FILE: dumpcap on loopback into FILE, waiting
# (10 s at most) until it really captures; skips the test when it cannot.
# Its PID is left in LAST_PID.
start_capture() {
	start_bg "$1" dumpcap -q -i lo -B 16 -f "$2" -w "$3"
	capture_ready "$1" || skip "dumpcap cannot capture on lo: $(cat "$1")"
}

# capture_ready LOG: wait (10 s at most) until the dumpcap started last
# (LAST_PID) says it captures; 1 when it does not.
capture_ready() {
	local i=0
	while ! grep -q '^File:' "$1" && [ $i -lt 100 ]; do
		kill -0 "$LAST_PID" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	grep -q '^File:' "$1" || return 1
	sleep 0.5
}

# run_case NAME CMD...: one named part of a test.  With CASES set (names
# separated by spaces) only the parts it names run, the others are said
# to be skipped; CMD's status is returned.
run_case() {
	local name=$1
	shift
	case " ${CASES:-$name} " in
	*" $name "*)
		echo "# $name"
		"$@"
		;;
	*)
		echo "# $name: skipped (CASES=$CASES)"
		;;
	esac
}

# run_cli ARGS...: run sbsim ARGS (10 s at most); RC, OUT and ERR hold its
# exit status, standard output and standard error.
run_cli() {
	timeout 10 "$SBSIM" "$@" >"$TMPD/out" 2>"$TMPD/err"
	RC=$?
	OUT=$(cat "$TMPD/out")
	ERR=$(cat "$TMPD/err")
}

# is_usage_error REGEX: did the last run_cli end as a usage error does:
# exit status 2, nothing on stdout, one stderr line "sbsim ...: ...REGEX"?
is_usage_error() {
	[ "$RC" -eq 2 ] && [ -z "$OUT" ] &&
	    [ "$(wc -l <"$TMPD/err")" -eq 1 ] &&
	    head -n 1 "$TMPD/err" | grep -qE "^sbsim[a-z ]*: .*$1"
}

# bad_usage CMD REGEX ARGS...: sbsim CMD ARGS must be such a usage error;
# when not, it is said on stderr and FAILS counts it.
FAILS=0
bad_usage() {
	local cmd=$1 re=$2
	shift 2
	run_cli "$cmd" "$@"
	is_usage_error "$re" && return 0
	echo "FAIL: sbsim $cmd $*" >&2
	echo "  exit $RC; stderr: $ERR; stdout: $OUT" >&2
	FAILS=$((FAILS + 1))
}

# run_fuzz_corpus HARNESS CORPUS: a fuzz harness built as a plain driver
# (tests/fuzz/HARNESS) over every seed of tests/fuzz/CORPUS; under
# configure --enable-sanitizers the fuzzer's regression test.
run_fuzz_corpus() {
	local corpus driver rc
	corpus=$(cd "$(dirname "$0")" && pwd)/$2
	driver=$(dirname "$SBSIM")/../tests/fuzz/$1
	[ -x "$driver" ] || fail "no harness driver at $driver"
	set -- "$corpus"/*
	[ -f "$1" ] || fail "no seeds in $corpus"
	"$driver" "$@" >"$TMPD/driver.log" 2>&1
	rc=$?
	cat "$TMPD/driver.log"
	[ $rc -eq 0 ] || fail "harness driver exited $rc"
	grep -q "^$# inputs run, 0 unreadable\$" "$TMPD/driver.log" ||
	    fail "not every seed ran"
	echo "$# seeds decoded without a fault"
}

# tshark_clean CAPTURE DECODE-AS...: fail, showing the first of them, when
# any frame of the capture is malformed or has an expert error.
tshark_clean() {
	local cap=$1 bad
	shift
	bad=$(tshark -r "$cap" "$@" \
	    -Y '_ws.malformed || _ws.expert.severity >= error' 2>/dev/null |
	    wc -l)
	[ "$bad" -eq 0 ] && return 0
	tshark -r "$cap" "$@" -Y '_ws.malformed || _ws.expert.severity >= error' \
	    -V 2>/dev/null | head -80 >&2
	fail "$bad malformed or erroneous frames"
}

# The CSIT replays decode their sessions (the issue's "nothing
# malformed"): csit_capture FILTER captures lo when it can (root and
# dumpcap; otherwise it says so and the test goes on without);
# csit_decoded PROTO DECODE-ARGS... stops it and requires frames of PROTO
# and none malformed.
CSIT_CAP=""
csit_capture() {
	if [ "$(id -u)" -ne 0 ] || ! command -v dumpcap >/dev/null 2>&1 ||
	    ! command -v tshark >/dev/null 2>&1; then
		echo "note: no capture (it needs root, dumpcap and tshark)"
		return 0
	fi
	start_bg "$TMPD/csit-dumpcap.log" dumpcap -q -i lo -B 16 \
	    -a duration:120 -f "$1" -w "$TMPD/csit.pcapng"
	CSIT_DC=$LAST_PID
	capture_ready "$TMPD/csit-dumpcap.log" ||
	    fail "dumpcap cannot capture on lo: $(cat "$TMPD/csit-dumpcap.log")"
	CSIT_CAP=$TMPD/csit.pcapng
}

csit_decoded() {
	local proto=$1 n
	shift
	[ -n "$CSIT_CAP" ] || return 0
	sleep 0.3
	stop_pid "$CSIT_DC"
	n=$(tshark -r "$CSIT_CAP" "$@" -Y "$proto" 2>/dev/null | wc -l)
	[ "$n" -gt 0 ] || fail "the capture holds no $proto frame"
	tshark_clean "$CSIT_CAP" "$@"
	echo "$n $proto frames decoded, none malformed"
}

# The wire tests (docs/report.md, "Phase windows"): a run captured with
# dumpcap and its report checked against the capture by scripts/wirecheck.
# Skipped only when dumpcap is missing (scripts/bootstrap installs it).
WIRECHECK=${WIRECHECK:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/scripts/wirecheck}

# wire_capture FILTER DIR: make DIR and capture lo into DIR/wire.pcapng,
# 50 s at most, the PID in WIRE_PID; fails (not skips) when dumpcap
# cannot capture.
wire_capture() {
	mkdir -p "$2"
	start_bg "$2/dumpcap.log" dumpcap -q -i lo -B 64 -a duration:50 \
	    -f "$1" -w "$2/wire.pcapng"
	WIRE_PID=$LAST_PID
	capture_ready "$2/dumpcap.log" ||
	    fail "dumpcap cannot capture on lo: $(cat "$2/dumpcap.log")"
}

# wire_check DIR PHASE:WITNESS...: stop the capture, run wirecheck on
# DIR/r.json and DIR/wire.pcapng and require each PHASE judged ok (items
# exactly, rate within 2%, over a wire window of 0.1 s at least) and
# reported with that witness.  Returns 1 when a window was shorter (the
# test then runs a larger scenario); any other disagreement fails.
wire_check() {
	local d=$1 spec ph out="$1/wirecheck.out" short=0
	shift
	sleep 0.3
	stop_pid "$WIRE_PID"
	"$PY" "$WIRECHECK" -t 2 --min-window 0.1 "$d/r.json" \
	    "$d/wire.pcapng" >"$out" 2>&1
	local rc=$?
	cat "$out"
	[ $rc -ne 2 ] || fail "wirecheck could not read the run"
	for spec in "$@"; do
		ph=${spec%%:*}
		grep -qE "^$ph +${spec#*:} " "$out" ||
		    fail "wirecheck: phase $ph is not witnessed by ${spec#*:}"
		if grep -qE "^$ph .* short window, not judged\$" "$out"; then
			short=1
			continue
		fi
		grep -qE "^$ph .* ok\$" "$out" ||
		    fail "wirecheck: phase $ph not ok: $(grep "^$ph " "$out")"
	done
	return $short
}

# wire_scaled FN SIZE MAX: run FN SIZE, doubling SIZE while a window was
# too short to judge, up to MAX.
wire_scaled() {
	local fn=$1 size=$2 max=$3
	while ! "$fn" "$size"; do
		size=$((size * 2))
		[ "$size" -le "$max" ] ||
		    fail "$fn: windows under 0.1 s up to size $max"
		echo "# a window under 0.1 s: again with $size"
	done
}

# A throwaway PKI in $PKI ($TMPD/pki): pki_ca NAME makes a CA
# ($PKI/NAME.pem, .key); pki_cert NAME CA a certificate CA signs.
PKI=$TMPD/pki
pki_ca() {
	mkdir -p "$PKI"
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$PKI/$1.key" \
	    -out "$PKI/$1.pem" -days 2 -subj "/CN=sbsim test $1" \
	    >>"$TMPD/openssl.log" 2>&1 || fail "openssl: CA $1"
}
pki_cert() {
	mkdir -p "$PKI"
	openssl req -newkey rsa:2048 -nodes -keyout "$PKI/$1.key" \
	    -out "$PKI/$1.csr" -subj "/CN=sbsim test $1" \
	    >>"$TMPD/openssl.log" 2>&1 &&
	openssl x509 -req -in "$PKI/$1.csr" -CA "$PKI/$2.pem" \
	    -CAkey "$PKI/$2.key" -CAcreateserial -out "$PKI/$1.pem" -days 2 \
	    >>"$TMPD/openssl.log" 2>&1 || fail "openssl: certificate $1"
}

# exclusive NAME: hold the host-wide lock NAME (flock on a file in
# ${TMPDIR:-/tmp}) until the test ends.  Tests that use up a resource of
# the whole host (tens of thousands of loopback connections: ephemeral
# ports, the accept queues, the kernel's socket memory) take it, so that
# `make -j check` runs them one at a time; the others run beside them.
# Waits 300 s at most; the wait is said in the log.
exclusive() {
	local t0
	t0=$(date +%s)
	exec {EXCLUSIVE_FD}>"${TMPDIR:-/tmp}/sbsim-exclusive-$1.lock"
	flock -w 300 "$EXCLUSIVE_FD" || fail "waited 300 s for the lock $1"
	echo "# exclusive $1: waited $(( $(date +%s) - t0 )) s"
}

# stop_early PID WHAT [REPORT]: stop a run before its --duration (there
# only as a bound) with SIGINT: it must end interrupted, exit 1, and with
# "interrupted": true in REPORT when one is named (report.md, "Verdicts").
stop_early() {
	stop_pid "$1"
	[ "$STOP_RC" -eq 1 ] ||
	    fail "$2: exited $STOP_RC after SIGINT, not 1 (interrupted)"
	[ -z "${3:-}" ] ||
	    [ "$(json_get "$3" 'r.get("interrupted")')" = True ] ||
	    fail "$2: the report does not say interrupted"
}

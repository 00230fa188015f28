#!/bin/bash
# make install (README, "Two commands"): the binary, the man page and the
# YANG modules under DESTDIR; the installed sbsim runs and man reads its
# page.  And the build's archiver flags make no warning (Debian's ar is
# deterministic by default and warned "`u' modifier ignored" for each
# library under automake's ARFLAGS cru).  The build tree is the one
# $SBSIM was built in.
. "$(dirname "$0")/../lib.sh"
need make
top=$(cd "$(dirname "$SBSIM")/.." && pwd)
[ -f "$top/Makefile" ] || skip "no Makefile beside $SBSIM"
# A make of its own, not a job of the make check that runs this test.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top" install \
    DESTDIR="$TMPD/inst" >"$TMPD/install.log" 2>&1 ||
    fail "make install exited $?: $(tail -5 "$TMPD/install.log")"
bin=$(find "$TMPD/inst" -path '*/bin/sbsim' -type f)
man=$(find "$TMPD/inst" -path '*/share/man/man1/sbsim.1' -type f)
yang=$(find "$TMPD/inst" -path '*/share/sbsim/yang/sbsim-scenario@*.yang')
[ -n "$bin" ] && [ -x "$bin" ] || fail "no bin/sbsim installed"
[ -n "$man" ] || fail "no share/man/man1/sbsim.1 installed"
[ -n "$yang" ] || fail "no share/sbsim/yang/sbsim-scenario installed"
"$bin" version | grep -qE '^sbsim [0-9]' || fail "the installed sbsim does not run"
"$bin" run --help | grep -q "^usage: sbsim run" || fail "installed run --help"
if command -v man >/dev/null; then
	MANPAGER=cat man -l "$man" 2>/dev/null | grep -q "controller" ||
	    fail "man cannot read the installed page"
fi
# The archiver as the build runs it, on a member of its own.
flags=$(printf 'print-ar:\n\t@echo "$(AR) $(ARFLAGS)"\n' |
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
    -C "$top" -f Makefile -f - print-ar) || fail "no AR and ARFLAGS from the Makefile"
echo 'a member' >"$TMPD/x.o"
$flags "$TMPD/x.a" "$TMPD/x.o" 2>"$TMPD/ar.err" || fail "$flags exited $?"
[ ! -s "$TMPD/ar.err" ] || fail "'$flags' warns: $(cat "$TMPD/ar.err")"
echo "make install: $bin, $man and the YANG modules"

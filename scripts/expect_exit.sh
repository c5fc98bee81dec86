#!/bin/sh
# expect_exit.sh CODE [--one-line-error] CMD...: runs CMD, passes when it exits
# with CODE (and, with --one-line-error, printed exactly one line on stderr).
# Used by ctest for the CLI's exit-code contract (0 ok, 1 regression, 2 bad input).
want=$1; shift
one_line=0
if [ "$1" = "--one-line-error" ]; then one_line=1; shift; fi
err=$(mktemp)
"$@" 2>"$err"
got=$?
lines=$(grep -c '' "$err")
echo "exit code $got (want $want); stderr:"; cat "$err"; rm -f "$err"
[ "$got" -eq "$want" ] || { echo "FAIL: wrong exit code"; exit 1; }
if [ $one_line -eq 1 ] && [ "$lines" -ne 1 ]; then echo "FAIL: expected one stderr line, got $lines"; exit 1; fi
exit 0

#!/bin/sh
# expect_error.sh CODE FRAGMENT [--any-lines] CMD...: passes when CMD exits
# with CODE and its stderr contains FRAGMENT (a fixed string). A failing run
# (CODE != 0) must print exactly one stderr line (unless --any-lines) and must
# not claim on stdout that it wrote anything. Used by the bad-input corpus.
want=$1; fragment=$2; shift 2
one_line=1
if [ "$1" = "--any-lines" ]; then one_line=0; shift; fi
err=$(mktemp); out=$(mktemp)
"$@" >"$out" 2>"$err"
got=$?
lines=$(grep -c '' "$err")
echo "exit code $got (want $want); stderr:"; cat "$err"; echo "stdout (head):"; head -5 "$out"
ok=1
[ "$got" -eq "$want" ] || { echo "FAIL: wrong exit code"; ok=0; }
grep -qF -- "$fragment" "$err" || { echo "FAIL: stderr lacks '$fragment'"; ok=0; }
if [ "$want" -ne 0 ]; then
  [ $one_line -eq 0 ] || [ "$lines" -eq 1 ] || { echo "FAIL: expected one stderr line, got $lines"; ok=0; }
  grep -qi 'wrote' "$out" && { echo "FAIL: says 'wrote' although it failed"; ok=0; }
fi
rm -f "$err" "$out"
[ $ok -eq 1 ]

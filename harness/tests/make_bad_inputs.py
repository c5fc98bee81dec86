#!/usr/bin/python3
"""Writes the bad-input corpus (issue 15) into OUTDIR: small glTF/GLB, BVH,
scenario and golden files, each with one defect a user's file or a fuzzer
found. bad_input_tests.cmake says what `harness` must answer to each (exit
code and a fragment of its one-line message).

usage: make_bad_inputs.py OUTDIR
"""
import copy
import json
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from glb_container import glb_bytes  # noqa: E402

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)


# --- A tiny valid skinned glTF: Hips > Spine, a quad, one clip --------------

class Doc:
    def __init__(self):
        self.bin = bytearray()
        self.gltf = {
            "asset": {"version": "2.0", "generator": "make_bad_inputs.py"},
            "buffers": [], "bufferViews": [], "accessors": [],
        }

    def view(self, data, stride=None):
        while len(self.bin) % 8:
            self.bin.append(0)
        v = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if stride:
            v["byteStride"] = stride
        self.bin += data
        self.gltf["bufferViews"].append(v)
        return len(self.gltf["bufferViews"]) - 1

    def accessor(self, fmt, ctype, atype, rows, minmax=False, stride=None):
        per = {"SCALAR": 1, "VEC3": 3, "VEC4": 4, "MAT4": 16}[atype]
        size = struct.calcsize("<" + fmt)
        data = bytearray()
        for r in rows:
            packed = struct.pack("<" + fmt * per, *r)
            data += packed
            if stride:
                data += bytes(stride - len(packed))
        a = {"bufferView": self.view(bytes(data), stride), "componentType": ctype, "count": len(rows),
             "type": atype}
        if minmax:
            a["min"] = [min(r[i] for r in rows) for i in range(per)]
            a["max"] = [max(r[i] for r in rows) for i in range(per)]
        del size
        self.gltf["accessors"].append(a)
        return len(self.gltf["accessors"]) - 1

    def glb(self):
        return glb_bytes(self.gltf, self.bin)


FLOAT, UBYTE = 5126, 5121


def translate(x, y, z):
    # column-major 4x4
    return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]


def base(times=(0.0, 0.5, 1.0), weights=None, anim_stride=None, ibm_hips=None, pos=None):
    d = Doc()
    pos = pos or [(-0.1, 1.0, 0), (0.1, 1.0, 0), (-0.1, 1.8, 0), (0.1, 1.8, 0)]
    p = d.accessor("f", FLOAT, "VEC3", pos, minmax=True)
    idx = d.accessor("H", 5123, "SCALAR", [(0,), (1,), (2,), (2,), (1,), (3,)])
    j = d.accessor("B", UBYTE, "VEC4", [(0, 1, 0, 0)] * 4)
    w = d.accessor("f", FLOAT, "VEC4", weights or [(1, 0, 0, 0), (1, 0, 0, 0), (0.5, 0.5, 0, 0), (0, 1, 0, 0)])
    ibm = d.accessor("f", FLOAT, "MAT4", [ibm_hips or translate(0, -1, 0), translate(0, -1.5, 0)])
    t = d.accessor("f", FLOAT, "SCALAR", [(x,) for x in times], minmax=True, stride=anim_stride)
    rot = []
    for k in range(len(times)):
        a = 0.3 * math.sin(k)
        rot.append((0, math.sin(a / 2), 0, math.cos(a / 2)))
    r = d.accessor("f", FLOAT, "VEC4", rot, stride=anim_stride and 20)
    d.gltf["idx"] = idx
    d.gltf.update({
        "scene": 0, "scenes": [{"nodes": [0, 2]}],
        "nodes": [
            {"name": "Hips", "translation": [0, 1, 0], "children": [1]},
            {"name": "Spine", "translation": [0, 0.5, 0]},
            {"name": "body", "mesh": 0, "skin": 0},
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": p, "JOINTS_0": j, "WEIGHTS_0": w},
                                    "indices": idx}]}],
        "skins": [{"joints": [0, 1], "inverseBindMatrices": ibm}],
        "animations": [{"name": "wag", "samplers": [{"input": t, "output": r}],
                        "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}],
    })
    del d.gltf["idx"]
    return d


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


write("good.glb", base().glb())

# Image whose bufferView lies far past the buffer (tinygltf hands out the
# pointer unchecked; the image copy read it: SIGSEGV).
d = base()
d.gltf["bufferViews"].append({"buffer": 0, "byteOffset": 1 << 40, "byteLength": 64})
d.gltf["images"] = [{"bufferView": len(d.gltf["bufferViews"]) - 1, "mimeType": "image/png"}]
write("image_view_out_of_range.glb", d.glb())

# Accessor byte offset near 2^64: the bounds sum wrapped into range.
d = base()
d.gltf["accessors"][0]["byteOffset"] = (1 << 64) - 8
write("accessor_offset_wraps.glb", d.glb())

# bufferView offset near 2^64 (same wrap in the view check).
d = base()
d.gltf["bufferViews"][0]["byteOffset"] = (1 << 64) - 16
write("view_offset_wraps.glb", d.glb())

# Inverse bind matrix holding -1e38: written, then rejected on read.
write("ibm_huge.glb", base(ibm_hips=translate(0, -1e38, 0)).glb())

# Node rotation that is all zeros and a vertex whose weights are all zero:
# repaired (identity, nearest joint) and said so.
d = base(weights=[(0, 0, 0, 0), (1, 0, 0, 0), (0.5, 0.5, 0, 0), (0, 1, 0, 0)])
d.gltf["nodes"][1]["rotation"] = [0, 0, 0, 0]
write("zero_quat_zero_weights.glb", d.glb())

# Repeated key times (a real Mixamo FBX repeats 509 of 1,139): the validator
# rejects them (ACCESSOR_ANIMATION_INPUT_NON_INCREASING) unless repaired.
write("repeated_key_times.glb", base(times=(0.0, 0.5, 0.5, 1.0)).glb())

# A rotation output one key longer than its key times: the validator rejects
# it (ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT), so it stays refused;
# valid samplers no channel sizes are read (make_valid_animation_inputs.py).
d = base()
d.gltf["animations"][0]["samplers"][0]["output"] = d.accessor(
    "f", FLOAT, "VEC4", [(0, 0, 0, 1)] * 4)
write("output_longer_than_input.glb", d.glb())

# Animation accessors in a strided bufferView (validator error) and a skin
# whose skeleton node is not a common root of its joints.
d = base(anim_stride=8)
d.gltf["skins"][0]["skeleton"] = 2
write("strided_anim_bad_skeleton.glb", d.glb())

# Draco / meshopt: name the extension instead of "invalid bufferView".
for ext in ("KHR_draco_mesh_compression", "EXT_meshopt_compression"):
    d = base()
    d.gltf["extensionsUsed"] = [ext]
    d.gltf["extensionsRequired"] = [ext]
    d.gltf["accessors"][0]["bufferView"] = 99
    write("requires_%s.glb" % ext, d.glb())

# Nodes nested 100,000 deep (our recursive world-matrix walk overflowed).
d = base()
n0 = len(d.gltf["nodes"])
chain = [{"name": "n%d" % i, "children": [n0 + i + 1]} for i in range(100000)]
chain[-1] = {"name": "leaf"}
d.gltf["nodes"] += chain
d.gltf["nodes"][1]["children"] = [n0]
write("nodes_100000_deep.glb", d.glb())

# A cycle and a shared child.
d = base()
d.gltf["nodes"][1]["children"] = [0]
write("node_cycle.glb", d.glb())

# Joint index past the skin's joints, index past the vertices.
d = base()
d.gltf["accessors"][2] = dict(d.gltf["accessors"][2])
d.gltf["accessors"][1]["count"] = 6
bad_idx = d.accessor("H", 5123, "SCALAR", [(0,), (1,), (9,), (2,), (1,), (3,)])
d.gltf["meshes"][0]["primitives"][0]["indices"] = bad_idx
write("index_out_of_range.glb", d.glb())

# A vertex at 1e38: `fix` stepped its region-splitting loop 0.0025 H at a
# time up to the region's reach (hours); refused at the reader now.
write("vertex_1e38.glb", base(pos=[(-0.1, 1.0, 0), (0.1, 1.0, 0), (-0.1, 1.8, 0), (1e38, 1.8, 0)]).glb())
# A vertex far out but under the coordinate limit: read, so the splitting
# loop itself must stay bounded.
write("vertex_far_1e8.glb", base(pos=[(-0.1, 1.0, 0), (0.1, 1.0, 0), (-0.1, 1.8, 0), (1e8, 1.8, 0)]).glb())
# Coordinates of 1e9 on a model 1e-20 high: the weld cell index (coordinate
# over a tolerance proportional to the height) overflowed its int64 cast
# (undefined behaviour, reported by UBSan).
write("flat_huge_ratio.glb", base(pos=[(-1e9, 0.0, 0), (1e9, 0.0, 0), (-1e9, 1e-20, 0), (1e9, 1e-20, 0)]).glb())

# Huge counts: an accessor claiming 2^40 elements (no bufferView: zeros).
d = base()
d.gltf["accessors"][0] = {"componentType": FLOAT, "count": 1 << 40, "type": "VEC3"}
write("huge_count.glb", d.glb())


# --- BVH --------------------------------------------------------------------

def bvh(depth=3, frames=2, frame_time="0.033333", motion=None, offset="0 1 0"):
    lines = ["HIERARCHY", "ROOT Hips", "{", "  OFFSET %s" % offset,
             "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"]
    for i in range(depth):
        lines += ["JOINT J%d" % i, "{", "  OFFSET 0 0.1 0", "  CHANNELS 3 Zrotation Xrotation Yrotation"]
    lines += ["End Site", "{", "  OFFSET 0 0.1 0", "}"]
    lines += ["}"] * (depth + 1)
    channels = 6 + 3 * depth
    lines += ["MOTION", "Frames: %s" % frames, "Frame Time: %s" % frame_time]
    rows = motion or [" ".join(["0"] * channels)] * (frames if isinstance(frames, int) else 2)
    lines += rows
    return "\n".join(lines) + "\n"


write("good.bvh", bvh())
write("bvh_100000_deep.bvh", bvh(depth=100000))
write("bvh_frames_2pow32.bvh", bvh(frames="4294967296"))
write("bvh_nan_motion.bvh", bvh(motion=[" ".join(["0"] * 15), " ".join(["0"] * 7 + ["nan"] + ["0"] * 7)]))
write("bvh_inf_motion.bvh", bvh(motion=[" ".join(["0"] * 15), " ".join(["inf"] + ["0"] * 14)]))
write("bvh_inf_offset.bvh", bvh(offset="0 inf 0"))
write("bvh_nan_frame_time.bvh", bvh(frame_time="nan"))
# Joints 35 deep whose braces do not balance before a stray CHANNELS line
# and the end of the file: Assimp 5.2 crashed in a memcpy (SIGSEGV; BVH
# mutant 634 of mutate_check.py seed 15, minimised). The whole grammar is
# checked before Assimp parses now.
write("bvh_unbalanced_braces.bvh", "HIERARCHY\nROOT A\n{\n" + "".join("JOINT D%d {\n" % k for k in range(35)) +
      "}\n" * 12 + "CHANNELS 3 Zrotation Xrotation Yrotation\n")
write("bvh_too_few_frames.bvh", bvh(frames=1000, motion=[" ".join(["0"] * 15)]))


# --- Scenarios and goldens ---------------------------------------------------

scen = os.path.join(OUT, "scenarios")
gold = os.path.join(OUT, "golden")
os.makedirs(scen, exist_ok=True)
os.makedirs(gold, exist_ok=True)


def scenario(name, **extra):
    s = {"schema_version": 1, "kind": "solver_teleport", "description": "bad input", "chains": [2],
         "fps": 30, "model_height_m": 1.9, "tail_length_m": 0.8, "hips_height_m": 1.0, "jump_time_s": 0.2,
         "jump_m": 10.0, "jump_turn_deg": 0.0, "settle_s": 0.2, "hold_s": 0.3}
    s.update(extra)
    with open(os.path.join(scen, name + ".json"), "w") as f:
        json.dump(s, f)


scenario("ok_teleport")
scenario("chains_1e9", chains=[1000000000])
scenario("hold_1e7", hold_s=1e7)
scenario("fps_string", fps="sixty")
scenario("solver_step_tiny", solver={"internal_step": 1e-12})
# Integers past int64 parse as doubles; read as int they were undefined
# behaviour (fuzz_json found "schema_version": 555...5).
scenario("schema_huge", schema_version=10**40)
scenario("samples_huge", samples=10**40)
scenario("samples_fraction", samples=2.5)
# A field only a runner reads with a type it cannot take: the exception used
# to escape the --jobs worker thread (SIGABRT).
s = {"schema_version": 1, "kind": "retarget_walk_stretch", "description": "wrong type in a runner",
     "character": {"fixture": "fox", "params": {"density": 0.3}}, "clips": [{"key": "a", "file": "a.bvh"}],
     "count_tail": "yes"}
with open(os.path.join(scen, "runner_type_error.json"), "w") as f:
    json.dump(s, f)

# Goldens for ok_teleport: malformed in the ways users and merges make them.
for name, g in {
    "metric_is_array": {"metrics": {"x": [1, 2]}},
    "value_is_string": {"metrics": {"x": {"value": "1.0"}}},
    "tolerance_is_number": {"metrics": {"x": {"value": 1.0, "tolerance": 0.1}}},
    "metrics_is_list": {"metrics": [1]},
}.items():
    d = os.path.join(gold, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "ok_teleport.json"), "w") as f:
        json.dump(g, f)

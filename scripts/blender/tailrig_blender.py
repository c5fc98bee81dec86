# Shared helpers of the headless Blender checks (Blender 3.4, its own glTF
# importer and armature skinning; nothing of tailrig's code is used here).
# Coordinates are returned in glTF space (Y up): Blender's importer maps glTF
# (x, y, z) to Blender (x, -z, y), so glTF = (bx, bz, -by).
import math
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from stretch_thresholds import TORN_HIGH, TORN_LOW  # noqa: E402  (scripts/, one definition)

np.bool = bool  # the Blender 3.4 glTF importer still uses np.bool (removed in numpy 1.24)

import bpy  # noqa: E402


def script_args():
    return sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []


def import_glb(path):
    """Empty scene, then the file through Blender's glTF importer."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    res = bpy.ops.import_scene.gltf(filepath=path)
    if "FINISHED" not in res:
        raise RuntimeError("glTF import failed: " + path)


def armature():
    arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    if not arms:
        raise RuntimeError("no armature imported")
    return max(arms, key=lambda o: len(o.data.bones))


def skinned_meshes():
    """Mesh objects deformed by an armature modifier, sorted by name."""
    out = [o for o in bpy.data.objects
           if o.type == "MESH" and any(m.type == "ARMATURE" for m in o.modifiers)]
    return sorted(out, key=lambda o: o.name)


def tokens(name):
    """Name tokens as rig::name_has_token splits them (non-alphanumerics,
    lower->upper case changes, letter/digit changes), lower case."""
    out, cur, prev = [], "", ""
    for ch in name:
        if not ch.isalnum():
            if cur:
                out.append(cur)
            cur, prev = "", ""
            continue
        if cur and ((prev.islower() and ch.isupper()) or (prev.isdigit() != ch.isdigit())):
            out.append(cur)
            cur = ""
        cur += ch.lower()
        prev = ch
    if cur:
        out.append(cur)
    return out


def tail_bones(arm):
    """Bones with a 'tail' name token, or below one."""
    out = set()
    for b in arm.data.bones:  # parents come before children
        if "tail" in tokens(b.name) or (b.parent is not None and b.parent.name in out):
            out.add(b.name)
    return out


def action_for(clip, arm):
    """The action the importer made for glTF animation `clip` on `arm`."""
    want = [clip + "_" + arm.name, arm.name + "|" + clip + "_" + arm.name]
    for a in bpy.data.actions:
        if a.name in want:
            return a
    for a in bpy.data.actions:
        if a.name.startswith(clip + "_") or a.name.split("|")[-1].startswith(clip + "_"):
            return a
    names = ", ".join(a.name for a in bpy.data.actions)
    raise RuntimeError("no action for clip '%s' (actions: %s)" % (clip, names))


def use_action(arm, action):
    """Rest pose first (a bone the action does not key must not keep the
    previous clip's pose), then the action."""
    for pb in arm.pose.bones:
        pb.location = (0, 0, 0)
        pb.rotation_mode = "QUATERNION"
        pb.rotation_quaternion = (1, 0, 0, 0)
        pb.scale = (1, 1, 1)
    if arm.animation_data is None:
        arm.animation_data_create()
    arm.animation_data.action = action


def set_time(t):
    sc = bpy.context.scene
    f = t * sc.render.fps / sc.render.fps_base
    i = int(math.floor(f + 1e-9))
    sc.frame_set(i, subframe=max(0.0, f - i))


def to_gltf(p):
    """(N, 3) Blender world -> glTF world."""
    return np.stack([p[:, 0], p[:, 2], -p[:, 1]], axis=1)


def rest_positions(obj, space="object"):
    n = len(obj.data.vertices)
    co = np.empty(n * 3)
    obj.data.vertices.foreach_get("co", co)
    co = co.reshape(n, 3)
    return world(obj, co) if space == "world" else co


def posed_positions(obj, space="object"):
    dg = bpy.context.evaluated_depsgraph_get()
    ev = obj.evaluated_get(dg)
    me = ev.to_mesh()
    n = len(me.vertices)
    co = np.empty(n * 3)
    me.vertices.foreach_get("co", co)
    ev.to_mesh_clear()
    co = co.reshape(n, 3)
    return world(obj, co) if space == "world" else co


def world(obj, co):
    m = np.array(obj.matrix_world)
    return co @ m[:3, :3].T + m[:3, 3]


def dominant_group(obj):
    """Per vertex: name of the vertex group with the largest weight (ties: the
    lower group index), or None."""
    names = {g.index: g.name for g in obj.vertex_groups}
    out = []
    for v in obj.data.vertices:
        best, bw = None, 0.0
        for g in sorted(v.groups, key=lambda g: g.group):
            if g.weight > bw:
                best, bw = names.get(g.group), g.weight
        out.append(best)
    return out


def edges(obj):
    n = len(obj.data.edges)
    e = np.empty(n * 2, dtype=np.int64)
    obj.data.edges.foreach_get("vertices", e)
    return e.reshape(n, 2)


def bone_world(arm, name):
    """4x4 world matrix of pose bone `name` (Blender space)."""
    return np.array(arm.matrix_world) @ np.array(arm.pose.bones[name].matrix)


def percentile(v, q):
    return float(np.percentile(v, q)) if len(v) else 0.0


def stretch_stats(r):
    r = np.asarray(r)
    if len(r) == 0:
        return {"samples": 0, "p50": 0, "p95": 0, "p99": 0, "max": 0, "min": 0, "torn_fraction": 0}
    return {"samples": int(len(r)), "p50": percentile(r, 50), "p95": percentile(r, 95), "p99": percentile(r, 99),
            "max": float(r.max()), "min": float(r.min()),
            "torn_fraction": float(np.mean((r > TORN_HIGH) | (r < TORN_LOW)))}


def name_re(pattern):
    return re.compile(pattern)

# Tail into the legs measured with Blender's own skinning (issue 46):
#   blender -b --factory-startup --python-exit-code 1 --python measure_tail_in_legs.py -- \
#       --items ITEMS.json --json OUT.json
# ITEMS.json: [{"name", "file", "tail_from", "capsules_from", "clips": [...],
#               "samples": 48}, ...]
# - capsules: the leg capsules `harness fix` stored as node extras
#   ("tailrig_collider", version 1, a/b and radii in the joint's frame and
#   units) in `capsules_from`, read straight from that GLB and taken to the
#   skin's bind space by the joint's inverse bind matrix; that space is
#   placed in Blender's rest world by the similarity that fits every skin
#   joint's bind origin to its bone's rest head (bind_to_rest; its residual
#   must stay under 0.5 % of H); a capsule then follows its joint by name in
#   `file`, moved as Blender deforms a vertex weighted 1 to that bone (pose
#   matrix x inverse rest matrix);
# - tail: vertices whose dominant bone in `tail_from` (same vertex order) is a
#   tail bone (a "tail" name token, or below one); a tail vertex already inside
#   a capsule in the rest pose is seam skin, not counted (as
#   measure/tail_penetration.h);
# - depth of a vertex in a tapered capsule: the radius at its place along the
#   axis minus its distance from the axis segment (rig::capsule_depth);
#   per sample the deepest counted tail vertex in any capsule (negative: the
#   tail's clearance from the nearest capsule, no vertex inside); samples
#   t_i = D i / S, i = 0..S-1; H = the rest mesh's height (glTF Y extent).
# Writes per item and clip: samples over 1 % of H (fraction) and the deepest
# depth / H. The capsules check themselves: the skin weighted (95 %+) to each
# one's bone that it holds at rest must stay within 0.5 % of H of it in every
# sample (at least 90 % of it), else the placement is wrong: exit 2. Exit 0,
# or 2 on an error (no bar here: tail_in_legs_bar.py holds the bars).
import argparse
import json
import struct
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

import tailrig_blender as tb  # noqa: E402

COLLIDER_KEY = "tailrig_collider"
GLTF_TO_BLENDER = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], dtype=float)


def stored_capsules(path):
    """({joint name: (a, b, radius_a, radius_b)}, {joint name: origin}) in the
    skin's bind space, from the GLB's node extras and the skin's inverse bind
    matrices: every skin joint's origin, for placing that space in Blender."""
    data = open(path, "rb").read()
    json_len = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + json_len])
    binary = data[20 + json_len + 8:]
    out, origins = {}, {}
    for skin in doc.get("skins", []):
        acc = doc["accessors"][skin["inverseBindMatrices"]]
        view = doc["bufferViews"][acc["bufferView"]]
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        ibm = np.frombuffer(binary, dtype="<f4", count=16 * acc["count"], offset=start).reshape(-1, 4, 4)
        for i, node_index in enumerate(skin["joints"]):
            node = doc["nodes"][node_index]
            bind = np.linalg.inv(ibm[i].T.astype(float))  # glTF stores column-major
            origins.setdefault(node.get("name", ""), bind[:3, 3])
            c = (node.get("extras") or {}).get(COLLIDER_KEY)
            if not c or c.get("version") != 1 or c.get("shape") != "capsule" or node["name"] in out:
                continue
            a = (bind @ np.append(np.asarray(c["a"], dtype=float), 1.0))[:3]
            b = (bind @ np.append(np.asarray(c["b"], dtype=float), 1.0))[:3]
            # Radii are in the joint's own units, as a and b: scaled with them.
            unit = abs(np.linalg.det(bind[:3, :3])) ** (1.0 / 3.0)
            out[node["name"]] = (a, b, unit * float(c["radius_a"]), unit * float(c["radius_b"]))
    return out, origins


def tail_set(path):
    """Per skinned mesh (by name): bool per vertex, dominated by a tail bone."""
    tb.import_glb(path)
    arm = tb.armature()
    tail = tb.tail_bones(arm)
    return {o.name: np.array([g in tail for g in tb.dominant_group(o)]) for o in tb.skinned_meshes()}


def rigid_on(obj, bone):
    """Per vertex: weighted at least 0.95 to `bone` (skin that moves with it rigidly)."""
    group = obj.vertex_groups.get(bone)
    out = np.zeros(len(obj.data.vertices), dtype=bool)
    if group is None:
        return out
    for v in obj.data.vertices:
        total = sum(g.weight for g in v.groups)
        w = next((g.weight for g in v.groups if g.group == group.index), 0.0)
        out[v.index] = total > 0 and w >= 0.95 * total
    return out


def depths(q, a, b, ra, rb):
    """rig::capsule_depth of every row of q against the segment a-b."""
    ab = b - a
    den = float(ab @ ab)
    t = np.clip(((q - a) @ ab) / den, 0.0, 1.0) if den > 0 else np.zeros(len(q))
    d = np.linalg.norm(q - (a + t[:, None] * ab), axis=1)
    return ra + t * (rb - ra) - d


def bind_to_rest(origins, arm):
    """The similarity (scale, rotation, translation; Umeyama's least squares)
    taking the skin's bind space to Blender's rest world in glTF axes, fitted
    from every joint's bind origin to its bone's rest head, and the largest
    residual. Blender's bone axes differ from the file's joints', but a
    bone's head is its joint's origin; the bind space may differ from the
    world by the file's own scale (a re-export's armature scale baked into
    the inverse binds)."""
    names = [n for n in origins if n in arm.data.bones]
    if len(names) < 3:
        raise RuntimeError("fewer than 3 skin joints are bones: cannot place the capsules")
    mw = np.array(arm.matrix_world)
    src = np.array([origins[n] for n in names])
    dst = tb.to_gltf(np.array([(mw @ np.append(np.array(arm.data.bones[n].head_local), 1.0))[:3] for n in names]))
    ms, md = src.mean(axis=0), dst.mean(axis=0)
    xs, xd = src - ms, dst - md
    u, sv, vt = np.linalg.svd(xd.T @ xs / len(names))
    d = np.diag([1.0, 1.0, np.sign(np.linalg.det(u @ vt))])
    rot = u @ d @ vt
    scale = float(np.trace(np.diag(sv) @ d) / (xs ** 2).sum(axis=1).mean())
    t = md - scale * rot @ ms
    residual = float(np.linalg.norm(src @ (scale * rot).T + t - dst, axis=1).max())
    return scale, rot, t, residual


def rest_capsule(cap, fit):
    """The capsule in Blender's rest world (Blender axes, for the deform)."""
    scale, rot, t, _ = fit
    a, b = (np.append(GLTF_TO_BLENDER @ (scale * rot @ p + t), 1.0) for p in cap[:2])
    return a, b, cap[2] * scale, cap[3] * scale


def posed_capsule(arm, name, rest):
    """The capsule's ends where Blender's deform of bone `name` (pose x
    inverse rest) puts them, glTF world."""
    pb = arm.pose.bones[name]
    mw = np.array(arm.matrix_world)
    deform = mw @ np.array(pb.matrix) @ np.linalg.inv(np.array(pb.bone.matrix_local)) @ np.linalg.inv(mw)
    a, b = (tb.to_gltf((deform @ p)[None, :3])[0] for p in rest[:2])
    return a, b, rest[2], rest[3]


def as_gltf(rest):
    a, b = (tb.to_gltf(p[None, :3])[0] for p in rest[:2])
    return a, b, rest[2], rest[3]


def measure_item(item):
    bind_caps, origins = stored_capsules(item["capsules_from"])
    sets = tail_set(item["tail_from"])
    tb.import_glb(item["file"])
    arm = tb.armature()
    missing = [n for n in bind_caps if n not in arm.pose.bones]
    if missing:
        raise RuntimeError("%s: no bone for the capsules of %s" % (item["file"], ", ".join(missing)))
    meshes = tb.skinned_meshes()
    for o in meshes:
        if o.name not in sets or len(sets[o.name]) != len(o.data.vertices):
            raise RuntimeError("%s: mesh '%s' does not match %s" % (item["file"], o.name, item["tail_from"]))
    rest = [tb.to_gltf(tb.rest_positions(o, "world")) for o in meshes]
    all_rest = np.concatenate(rest)
    height = float(all_rest[:, 1].max() - all_rest[:, 1].min())
    fit = bind_to_rest(origins, arm)
    if fit[3] > 0.005 * height:
        raise RuntimeError("%s: the skin's joints do not sit on Blender's bones (%.2f %% of H off)" %
                           (item["file"], 100 * fit[3] / height))
    caps = {n: rest_capsule(cap, fit) for n, cap in bind_caps.items()}
    # Seam skin: a tail vertex inside a capsule at rest is not counted.
    counted = []
    for o, r in zip(meshes, rest):
        c = sets[o.name].copy()
        for cap in caps.values():
            c &= depths(r, *as_gltf(cap)) <= 0.0
        counted.append(c)
    # The capsules' own check: the skin weighted (95 %+) to a capsule's bone
    # that the capsule holds at rest moves rigidly with it, so it must stay
    # inside as Blender poses both; a capsule misplaced or moved by the
    # wrong matrix would lose it.
    own = [(o.name, n, rigid_on(o, n)) for o in meshes for n in caps]
    held = {(m, n): sel & (depths(r, *as_gltf(caps[n])) > 0.0)
            for (m, n, sel), r in zip(own, [r for r in rest for _ in caps])}
    n_tail = int(sum(s.sum() for s in sets.values()))
    n_counted = int(sum(c.sum() for c in counted))
    out = {"name": item["name"], "file": os.path.basename(item["file"]), "height": height,
           "bind_to_rest_scale": fit[0], "bind_to_rest_residual_rel_H": fit[3] / height,
           "capsules": len(caps), "tail_vertices": n_tail, "counted": n_counted, "clips": {}}
    samples = int(item.get("samples", 48))
    for clip in item["clips"]:
        action = tb.action_for(clip, arm)
        tb.use_action(arm, action)
        fps = tb.bpy.context.scene.render.fps / tb.bpy.context.scene.render.fps_base
        duration = (action.frame_range[1] - action.frame_range[0]) / fps
        per_sample, kept = [], []
        for i in range(samples):
            tb.set_time(action.frame_range[0] / fps + duration * i / samples)
            posed_caps = [posed_capsule(arm, n, cap) for n, cap in caps.items()]
            deepest, inside, total = -np.inf, 0, 0
            for o, c in zip(meshes, counted):
                posed = tb.to_gltf(tb.posed_positions(o, "world"))
                for n, cap in zip(caps, posed_caps):
                    h = held[(o.name, n)]
                    if h.any():
                        inside += int((depths(posed[h], *cap) > -0.005 * height).sum())
                        total += int(h.sum())
                if c.any():
                    q = posed[c]
                    for cap in posed_caps:
                        deepest = max(deepest, float(depths(q, *cap).max()))
            kept.append(inside / total if total else 1.0)
            per_sample.append(deepest / height)
        per_sample = np.array(per_sample)
        if min(kept) < 0.9 or not any(h.any() for h in held.values()):
            raise RuntimeError("%s %s: the capsules lost their own skin (%.0f %% kept at worst): misplaced" %
                               (item["file"], clip, 100 * min(kept)))
        out["clips"][clip] = {"samples": samples, "over_1pct_fraction": float(np.mean(per_sample > 0.01)),
                              "own_skin_kept_min": float(min(kept)),
                              "max_depth_rel_H": float(per_sample.max()), "per_sample_rel_H": per_sample.tolist()}
        print("  %-14s %-36s over 1%% H %5.1f %% of %d samples, deepest %.2f %% of H (capsules keep %.1f %% of "
              "their own skin)" % (item["name"], clip, 100 * out["clips"][clip]["over_1pct_fraction"], samples,
                                   100 * out["clips"][clip]["max_depth_rel_H"], 100 * min(kept)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--items", required=True)
    ap.add_argument("--json", required=True)
    a = ap.parse_args(tb.script_args())
    with open(a.items) as f:
        items = json.load(f)
    results = [measure_item(item) for item in items]
    with open(a.json, "w") as f:
        json.dump(results, f, indent=1)
    return 0


try:
    code = main()
except Exception as e:  # one line, exit 2: the driver reports it
    print("measure_tail_in_legs: error: %s" % e, file=sys.stderr)
    code = 2
sys.exit(code)

# Edge stretch of a file's clip measured with Blender's own skinning (issue 11,
# 12; SPEC §7, §12). Headless:
#   blender -b --factory-startup --python-exit-code 1 --python measure_stretch.py -- \
#       FILE.glb CLIP [--ref REFERENCE.glb] [--samples 24] [--json OUT.json]
#       [--also FILE JSON]... [--item FILE CLIP REF JSON]...
# Tail vertex set: vertices whose dominant bone (largest weight) in REFERENCE
# (the artist's original, same vertex order; default: each file itself) is a
# tail bone (a "tail" name token, or below one). No such vertex (a tailless
# character): every edge is body, no tip is followed, the printout says so
# (exit 0). Edges: Blender mesh edges; tail edges have both ends in the set,
# body edges neither. Samples t_i = D i / S, i = 0..S-1; ratio =
# skinned / rest length; torn = ratio > 1.5 or < 0.67. Tip: mean of the
# reference vertices dominated by its deepest tail bone, in the frame of the
# reference tail root's parent bone; tip range = largest distance between two
# samples. Same definitions as `harness stretch` (measure/file_stretch.h).
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

import tailrig_blender as tb  # noqa: E402


def reference_sets(path):
    tb.import_glb(path)
    arm = tb.armature()
    tail = tb.tail_bones(arm)
    depth = {}
    for b in arm.data.bones:
        depth[b.name] = depth[b.parent.name] + 1 if b.parent else 0
    sets, dominants = {}, {}
    for obj in tb.skinned_meshes():
        dominants[obj.name] = tb.dominant_group(obj)
    deepest = None
    for dom in dominants.values():
        for g in dom:
            if g in tail and (deepest is None or depth[g] > depth[deepest]):
                deepest = g
    for name, dom in dominants.items():
        sets[name] = (np.array([g in tail for g in dom]), np.array([g == deepest for g in dom]))
    if deepest is None:
        return sets, None, None  # no tail: every edge is body, no tip (as `harness stretch`)
    roots = [b for b in arm.data.bones if b.name in tail and (b.parent is None or b.parent.name not in tail)]
    if not roots or roots[0].parent is None:
        raise RuntimeError(path + ": the tail root has no parent bone")
    return sets, roots[0].parent.name, deepest


def measure(path, clip, samples, ref, sets, frame_bone, tip_bone):
    tb.import_glb(path)
    arm = tb.armature()
    if frame_bone is not None and frame_bone not in arm.pose.bones:
        raise RuntimeError("%s has no bone '%s' (the reference tail's parent)" % (path, frame_bone))
    meshes = []
    for obj in tb.skinned_meshes():
        if obj.name not in sets:
            raise RuntimeError("%s: mesh '%s' is not in the reference" % (path, obj.name))
        tail, tip = sets[obj.name]
        if len(tail) != len(obj.data.vertices):
            raise RuntimeError("%s: mesh '%s' has %d vertices, the reference %d" %
                               (path, obj.name, len(obj.data.vertices), len(tail)))
        e = tb.edges(obj)
        rest = tb.rest_positions(obj)
        in_t = tail[e[:, 0]] & tail[e[:, 1]]
        in_b = ~tail[e[:, 0]] & ~tail[e[:, 1]]
        l0 = np.linalg.norm(rest[e[:, 0]] - rest[e[:, 1]], axis=1)
        # An edge between two coincident vertices has no rest length to
        # stretch (`harness stretch` skips exact zeros): after the importer's
        # float32 axis and unit conversion such an edge may keep ~1e-8 of
        # the mesh's size and read as torn 1e5-fold (the Apatosaurus's
        # body, 3 edges: p99 1.595 vs the harness's 1.534).
        extent = float(np.ptp(rest, axis=0).max()) if len(rest) else 0.0
        ok = l0 > 1e-7 * extent
        meshes.append((obj, e, l0, in_t & ok, in_b & ok, tip))
    if not meshes:
        raise RuntimeError(path + ": no skinned mesh")
    rest_world = np.concatenate([tb.rest_positions(m[0], "world") for m in meshes])
    height = float(rest_world[:, 2].max() - rest_world[:, 2].min())  # Blender Z up

    action = tb.action_for(clip, arm)
    tb.use_action(arm, action)
    sc = tb.bpy.context.scene
    duration = (action.frame_range[1] - action.frame_range[0]) * sc.render.fps_base / sc.render.fps
    tail_r, body_r, tips, times = [], [], [], []
    for i in range(samples):
        t = duration * i / samples
        times.append(t)
        tb.set_time(t)
        tip_pts = []
        for obj, e, l0, mt, mb, tip in meshes:
            p = tb.posed_positions(obj)
            r = np.linalg.norm(p[e[:, 0]] - p[e[:, 1]], axis=1) / np.where(l0 > 0, l0, 1)
            tail_r.append(r[mt])
            body_r.append(r[mb])
            if tip.any():
                tip_pts.append(tb.world(obj, p[tip]))
        if not tip_pts:
            continue
        c = np.concatenate(tip_pts).mean(axis=0)
        m = tb.bone_world(arm, frame_bone)
        rot = m[:3, :3] / np.linalg.norm(m[:3, :3], axis=0)
        tips.append(rot.T @ (c - m[:3, 3]))
    tips = np.array(tips)
    pairs = (np.linalg.norm(tips[i] - tips[j]) for i in range(len(tips)) for j in range(len(tips)))
    rng = float(max(pairs, default=0.0))  # no tail: no tip, range 0 (as `harness stretch`)
    tail_r = np.concatenate(tail_r)
    body_r = np.concatenate(body_r)
    return {"file": path, "clip": clip, "action": action.name, "reference": ref,
            "samples": samples, "duration": duration, "frame_bone": frame_bone or "", "tip_bone": tip_bone or "",
            "tail": dict(tb.stretch_stats(tail_r), edges=int(sum(m[3].sum() for m in meshes))),
            "body": dict(tb.stretch_stats(body_r), edges=int(sum(m[4].sum() for m in meshes))),
            "tail_vertices": int(sum(sets[m[0].name][0].sum() for m in meshes)),
            "tip_vertices": int(sum(m[5].sum() for m in meshes)),
            "height": height, "tip_range": rng, "tip_range_rel_H": rng / height if height > 0 else 0.0,
            "times": times, "tip": tips.tolist()}


def report(out):
    print("blender measure_stretch: %s, clip '%s' (%s), %d samples, tail set from %s" %
          (out["file"], out["clip"], out["action"], out["samples"], out["reference"]))
    for k in ("tail", "body"):
        s = out[k]
        print("  %-5s %6d edges  p95 %6.2f  p99 %6.2f  max %6.2f  torn %6.2f %%" %
              (k, s["edges"], s["p95"], s["p99"], s["max"], 100 * s["torn_fraction"]))
    if out["tip_vertices"] > 0:
        print("  tip range in the '%s' frame: %.4g (%.2f %% of H = %.4g)" %
              (out["frame_bone"], out["tip_range"], 100 * out["tip_range_rel_H"], out["height"]))
    else:
        print("  no tail in %s: every edge is body" % out["reference"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("clip", nargs="?")
    ap.add_argument("--ref")  # default: each file is its own reference
    ap.add_argument("--samples", type=int, default=24)
    ap.add_argument("--json")
    # More files in this one Blender session (a start-up costs ~1.6 s):
    # FILE JSON per --also (the reference, or itself without --ref, and clip
    # above), FILE CLIP REF JSON per --item (their own).
    ap.add_argument("--also", nargs=2, action="append", default=[], metavar=("FILE", "JSON"))
    ap.add_argument("--item", nargs=4, action="append", default=[], metavar=("FILE", "CLIP", "REF", "JSON"))
    a = ap.parse_args(tb.script_args())
    if (a.file is None) != (a.clip is None) or (a.also and a.file is None):
        raise ValueError("FILE and CLIP go together (and --also needs them)")
    main_files = ([(a.file, a.json)] if a.file else []) + [tuple(x) for x in a.also]
    items = [(f, a.clip, a.ref or f, js) for f, js in main_files]
    items += [tuple(x) for x in a.item]
    if not items:
        raise ValueError("nothing to measure: give FILE CLIP [--ref REF] or --item")
    references = {}  # the reference's tail sets, read once per file
    for path, clip, ref, js in items:
        if ref not in references:
            references[ref] = reference_sets(ref)
        sets, frame_bone, tip_bone = references[ref]
        out = measure(path, clip, a.samples, ref, sets, frame_bone, tip_bone)
        if js:
            with open(js, "w") as f:
                json.dump(out, f, indent=1)
        report(out)


try:
    main()
except Exception as e:  # one line, non-zero exit
    print("measure_stretch: error: %s" % e, file=sys.stderr)
    sys.exit(2)

# Tail tip motion relative to the bone the tail hangs from, measured with
# Blender's own skinning (issue 45 class 9). Headless, one session for many
# pairs:
#   blender -b --factory-startup --python-exit-code 1 --python tail_motion.py -- \
#       --item ARTIST.glb OTHER.glb CLIP OUT.json [--item ...] [--samples 48]
# Per item, on clip CLIP of both files (the same vertex order: OTHER is the
# artist's file after strip-tail and fix --bake):
# - tip = the mean of the vertices whose dominant bone in ARTIST is its
#   deepest tail bone (a "tail" name token, or below one), the same vertices
#   in both files;
# - frame = the bone the artist's tail root hangs from (its pelvis, "Back",
#   ...), present in both files (strip-tail keeps it); the tip is expressed
#   in that bone's posed frame (rotation only, translation removed);
# - samples t_i = D i / S, i = 0..S-1 over the clip's duration D;
# - motion: RMS distance of the tip from its mean over the samples, and its
#   range (largest distance between two samples), each / H (H = the artist's
#   mesh height) and / the artist's tail length (tail root head to the tip
#   at rest);
# - the driver: the frame bone's own world position over the same samples,
#   RMS distance from its mean / H (what a passive spring is shaken by; the
#   walks here are in place).
# Writes OUT.json {artist: {...}, other: {...}, H, tail_length}; prints one
# line per file. Exit 2 on an error.
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

import tailrig_blender as tb  # noqa: E402


def reference(path):
    """The artist's tip vertex sets (per mesh name), frame bone, H and tail length."""
    tb.import_glb(path)
    arm = tb.armature()
    tail = tb.tail_bones(arm)
    depth = {}
    for b in arm.data.bones:  # parents first
        depth[b.name] = depth[b.parent.name] + 1 if b.parent else 0
    doms = {o.name: tb.dominant_group(o) for o in tb.skinned_meshes()}
    deepest = None
    for dom in doms.values():
        for g in dom:
            if g in tail and (deepest is None or depth[g] > depth[deepest]):
                deepest = g
    if deepest is None:
        raise RuntimeError(path + ": no vertex dominated by a tail bone")
    roots = [b for b in arm.data.bones if b.name in tail and (b.parent is None or b.parent.name not in tail)]
    if not roots or roots[0].parent is None:
        raise RuntimeError(path + ": the tail root has no parent bone")
    tips = {name: np.array([g == deepest for g in dom]) for name, dom in doms.items()}
    rest = np.concatenate([tb.rest_positions(o, "world") for o in tb.skinned_meshes()])
    tip_rest = np.concatenate([tb.rest_positions(o, "world")[tips[o.name]] for o in tb.skinned_meshes()]).mean(axis=0)
    root_head = (np.array(arm.matrix_world) @ np.append(np.array(roots[0].head_local), 1.0))[:3]
    return {"tips": tips, "frame": roots[0].parent.name, "tip_bone": deepest,
            "H": float(rest[:, 2].max() - rest[:, 2].min()),  # Blender Z up
            "tail_length": float(np.linalg.norm(tip_rest - root_head))}


def tip_path(path, clip, ref, samples):
    """The tip in the frame bone's posed frame at S samples over the clip."""
    tb.import_glb(path)
    arm = tb.armature()
    if ref["frame"] not in arm.pose.bones:
        raise RuntimeError("%s has no bone '%s' (the artist tail's parent)" % (path, ref["frame"]))
    meshes = tb.skinned_meshes()
    for o in meshes:
        if o.name not in ref["tips"] or len(ref["tips"][o.name]) != len(o.data.vertices):
            raise RuntimeError("%s: mesh '%s' does not match the artist's" % (path, o.name))
    action = tb.action_for(clip, arm)
    tb.use_action(arm, action)
    sc = tb.bpy.context.scene
    duration = (action.frame_range[1] - action.frame_range[0]) * sc.render.fps_base / sc.render.fps
    out, bone_at = [], []
    for i in range(samples):
        tb.set_time(duration * i / samples)
        pts = [tb.world(o, tb.posed_positions(o)[ref["tips"][o.name]]) for o in meshes if ref["tips"][o.name].any()]
        c = np.concatenate(pts).mean(axis=0)
        m = tb.bone_world(arm, ref["frame"])
        rot = m[:3, :3] / np.linalg.norm(m[:3, :3], axis=0)
        out.append(rot.T @ (c - m[:3, 3]))
        bone_at.append(m[:3, 3])
    return np.array(out), np.array(bone_at), duration


def motion(tips, ref):
    d = tips - tips.mean(axis=0)
    rms = float(np.sqrt((d * d).sum(axis=1).mean()))
    rng = float(max(np.linalg.norm(a - b) for a in tips for b in tips))
    return {"rms": rms, "range": rng, "rms_rel_H": rms / ref["H"], "range_rel_H": rng / ref["H"],
            "rms_rel_tail": rms / ref["tail_length"], "range_rel_tail": rng / ref["tail_length"],
            "tip": tips.tolist()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--item", nargs=4, action="append", required=True, metavar=("ARTIST", "OTHER", "CLIP", "JSON"))
    ap.add_argument("--samples", type=int, default=48)
    a = ap.parse_args(tb.script_args())
    for artist, other, clip, js in a.item:
        ref = reference(artist)
        doc = {"clip": clip, "frame_bone": ref["frame"], "tip_bone": ref["tip_bone"], "H": ref["H"],
               "tail_length": ref["tail_length"], "samples": a.samples}
        for key, path in (("artist", artist), ("other", other)):
            tips, bone_at, duration = tip_path(path, clip, ref, a.samples)
            d = bone_at - bone_at.mean(axis=0)
            doc[key] = dict(motion(tips, ref), file=path, duration=duration,
                            frame_bone_rms_rel_H=float(np.sqrt((d * d).sum(axis=1).mean())) / ref["H"])
            print("tail_motion %s %s: tip RMS %.2f %% of H, range %.2f %% of H ('%s' frame, tail %.2f H)" %
                  (os.path.basename(path), clip, 100 * doc[key]["rms_rel_H"], 100 * doc[key]["range_rel_H"],
                   ref["frame"], ref["tail_length"] / ref["H"]))
        with open(js, "w") as f:
            json.dump(doc, f, indent=1)


try:
    main()
except Exception as e:  # one line, non-zero exit
    print("tail_motion: error: %s" % e, file=sys.stderr)
    sys.exit(2)

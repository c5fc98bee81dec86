# Headless Blender check of a baked file (issue 12):
#   blender -b --factory-startup --python-exit-code 1 --python check_bake.py -- \
#       FILE.glb [--bones K] [--clips N] [--positions POSE.json ...] [--tolerance 1e-3]
# - Tail_1..Tail_K and Tail_End are bones, parented in a chain (Tail_1 under a
#   non-tail bone, Tail_End under Tail_K);
# - every action (one per glTF animation) has rotation fcurves (w, x, y, z) on
#   every Tail_i bone;
# - for each POSE.json written by `harness pose` (our clip sampling and
#   skinning), Blender's own skinning of the same clip at the same times
#   matches ours within tolerance * H at every vertex (vertices matched by
#   bind position; H = our model height).
# Prints one line per check; exits 1 when any fails, 2 on an error.
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

import tailrig_blender as tb  # noqa: E402

TAIL = re.compile(r"^(?:.*[:_|.\-])?Tail_(\d+|End)$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--bones", type=int, default=0)
    ap.add_argument("--clips", type=int, default=0)
    ap.add_argument("--positions", nargs="*", default=[])
    ap.add_argument("--tolerance", type=float, default=1e-3)
    a = ap.parse_args(tb.script_args())
    tb.import_glb(a.file)
    arm = tb.armature()
    fails = []

    def check(ok, line):
        print(("  ok   " if ok else "  FAIL ") + line)
        if not ok:
            fails.append(line)

    bones = {}
    for b in arm.data.bones:
        m = TAIL.match(b.name)
        if m:
            bones[m.group(1)] = b
    k = max([int(i) for i in bones if i != "End"] or [0])
    check(k >= 1, "tail bones: Tail_1..Tail_%d%s" % (k, " + Tail_End" if "End" in bones else ""))
    if a.bones:
        check(k == a.bones, "expected %d tail bones, found %d" % (a.bones, k))
    for i in range(1, k + 1):
        b = bones.get(str(i))
        if b is None:
            check(False, "Tail_%d missing" % i)
            continue
        if i == 1:
            check(b.parent is not None and not TAIL.match(b.parent.name),
                  "Tail_1 parent: %s" % (b.parent.name if b.parent else None))
        else:
            check(b.parent is not None and b.parent == bones.get(str(i - 1)),
                  "Tail_%d parent: %s" % (i, b.parent.name if b.parent else None))
    end = bones.get("End")
    check(end is not None and end.parent == bones.get(str(k)),
          "Tail_End parent: %s" % (end.parent.name if end is not None and end.parent else None))

    actions = list(tb.bpy.data.actions)
    if a.clips:
        check(len(actions) == a.clips, "%d actions (clips), expected %d" % (len(actions), a.clips))
    for act in actions:
        missing, keys = [], []
        for i in range(1, k + 1):
            name = bones[str(i)].name if str(i) in bones else "Tail_%d" % i
            path = 'pose.bones["%s"].rotation_quaternion' % name
            fcs = [fc for fc in act.fcurves if fc.data_path == path]
            if sorted(fc.array_index for fc in fcs) != [0, 1, 2, 3]:
                missing.append(name)
            else:
                keys.append(len(fcs[0].keyframe_points))
        check(not missing and keys and min(keys) >= 2,
              "action %s: rotation fcurves on %d/%d tail bones, keys %s" %
              (act.name, k - len(missing), k, "%d..%d" % (min(keys), max(keys)) if keys else "-"))

    meshes = tb.skinned_meshes()
    rest = tb.to_gltf(np.concatenate([tb.rest_positions(o, "world") for o in meshes]))
    for path in a.positions:
        with open(path) as f:
            ours = json.load(f)
        bind = np.array(ours["bind"]).reshape(-1, 3)
        height = ours["height"]
        # Blender's undeformed mesh sits at the mesh node's transform, which a
        # skinned glTF mesh ignores: it may be offset from the bind pose. Same
        # count and a constant offset: match by order; else by bind position
        # after removing the mean offset.
        cand, unmatched, how = [], 0, ""
        if len(rest) == len(bind):
            d = rest - bind
            if np.abs(d - d.mean(axis=0)).max() <= 1e-5 * height:
                cand = [[i] for i in range(len(bind))]
                how = "by order (undeformed offset %s)" % np.round(d.mean(axis=0), 4).tolist()
        if not cand:
            from mathutils import kdtree
            tree = kdtree.KDTree(len(bind))
            for i, p in enumerate(bind):
                tree.insert(p, i)
            tree.balance()
            shift = np.median(rest, axis=0) - np.median(bind, axis=0)
            for p in rest:
                c = [i for (_, i, _) in tree.find_range(p - shift, 1e-5 * height)]
                unmatched += 0 if c else 1
                cand.append(c)
            how = "by bind position"
        check(unmatched == 0 and len(rest) == len(bind),
              "%s: %d Blender vertices, %d ours, matched %s, %d unmatched" %
              (os.path.basename(path), len(rest), len(bind), how, unmatched))
        tb.use_action(arm, tb.action_for(ours["clip"], arm))
        for t, posed in zip(ours["times"], ours["posed"]):
            tb.set_time(t)
            pb = tb.to_gltf(np.concatenate([tb.posed_positions(o, "world") for o in meshes]))
            po = np.array(posed).reshape(-1, 3)
            worst = 0.0 if cand and not unmatched else float("inf")  # nothing compared is a failure
            for v, c in enumerate(cand):
                if c:
                    worst = max(worst, min(np.linalg.norm(pb[v] - po[i]) for i in c))
            check(worst <= a.tolerance * height,
                  "clip %s t=%.4f s: max vertex distance Blender vs ours %.2e of H (tolerance %.0e)" %
                  (ours["clip"], t, worst / height, a.tolerance))
    print("check_bake: %s: %s" % (a.file, "%d failed" % len(fails) if fails else "all passed"))
    return 1 if fails else 0


try:
    code = main()
except Exception as e:
    print("check_bake: error: %s" % e, file=sys.stderr)
    code = 2
sys.exit(code)

"""Headless test of the leg-collider helpers (ctest blender_addon_colliders).

blender -b --factory-startup --python test_colliders.py -- --zip Z --harness H --work DIR

Writes the fox fixture, `harness fix`es it (4 leg capsules stored as node
extras), imports the result with the add-on's "Import fixed glTF" (and, in
centimetres under a 0.01-scaled armature node or metres, with the importer's
FORTUNE / BLENDER bone directions and the add-on's colliders.build) and checks:
one helper per stored capsule, parented to its bone, never rendered; in the
bind pose its axis ends (vertices 0 and 1) and end radii match the capsule
taken from the file independently (a, b by the joint's bind world matrix =
inverse of its inverse bind matrix, then glTF Y-up -> Blender Z-up) within
1e-3 * H; with the thigh rotated 30 deg the thigh and shin helpers follow
their posed bones within the same tolerance; the panel toggle hides them.
Exit 0 pass, 1 fail (an exception with --python-exit-code 1).
"""
import argparse
import json
import math
import os
import struct
import subprocess
import sys

import numpy as np

np.bool = bool  # Blender 3.4's glTF importer uses np.bool (gone in numpy 1.24)
import bpy  # noqa: E402
from mathutils import Matrix, Quaternion, Vector  # noqa: E402

argv = sys.argv[sys.argv.index("--") + 1:]
parser = argparse.ArgumentParser()
parser.add_argument("--zip", required=True)
parser.add_argument("--harness", required=True)
parser.add_argument("--work", required=True)
args = parser.parse_args(argv)
failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
        print("FAIL: " + message)


def stored_capsules(path):
    """{joint name: (capsule extras, bind world 4x4 numpy, glTF axes)} read
    straight from the GLB (not through the add-on's reader)."""
    data = open(path, "rb").read()
    json_len = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + json_len])
    binary = data[20 + json_len + 8:]
    out = {}
    for skin in doc["skins"]:
        acc = doc["accessors"][skin["inverseBindMatrices"]]
        view = doc["bufferViews"][acc["bufferView"]]
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        ibm = np.frombuffer(binary, dtype="<f4", count=16 * acc["count"], offset=start).reshape(-1, 4, 4)
        for i, node_index in enumerate(skin["joints"]):
            node = doc["nodes"][node_index]
            capsule = (node.get("extras") or {}).get("tailrig_collider")
            if capsule:
                # glTF matrices are column-major: the stored 4x4 is transposed.
                out[node["name"]] = (capsule, np.linalg.inv(ibm[i].T.astype(float)))
    return out


Y_UP_TO_Z_UP = np.array([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], dtype=float)


def apply(m, p):
    return (np.asarray(m, dtype=float) @ np.append(np.asarray(p, dtype=float), 1.0))[:3]


def run(variant):

    os.makedirs(args.work, exist_ok=True)
    label, fixture_args, bone_dir = variant
    fox = os.path.join(args.work, label + ".glb")
    fixed = os.path.join(args.work, label + "_fixed.glb")
    subprocess.run([args.harness, "fixture", "fox", "-o", fox] + fixture_args, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([args.harness, "fix", fox, "--out", fixed], check=True, stdout=subprocess.DEVNULL)
    capsules = stored_capsules(fixed)
    check(len(capsules) == 4, "%s: harness fix stored %d capsules, expected 4" % (label, len(capsules)))

    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    if bone_dir is None:
        # The add-on's own import.
        check('FINISHED' in bpy.ops.tailrig.import_fixed(filepath=fixed), "Import fixed glTF did not finish")
    else:
        # Another importer Bone Dir re-orients the bones: the capsules must not move.
        bpy.ops.import_scene.gltf(filepath=fixed, bone_heuristic=bone_dir)
        arm = next(o for o in bpy.data.objects if o.type == 'ARMATURE')
        sys.modules["tailrig.colliders"].build(bpy.context, arm, fixed)
    armature = next(o for o in bpy.data.objects if o.type == 'ARMATURE')
    body = next(o for o in bpy.data.objects if o.type == 'MESH' and o.modifiers)
    zs = [(body.matrix_world @ v.co).z for v in body.data.vertices]
    H = max(zs) - min(zs)
    tolerance = 1e-3 * H
    print("%s: H %.4f, tolerance %.2e" % (label, H, tolerance))

    coll = bpy.data.collections.get("tailrig colliders")
    check(coll is not None, "no collection 'tailrig colliders'")
    helpers = {o.parent_bone: o for o in (coll.objects if coll else [])}
    check(len(helpers) == len(capsules) == len(coll.objects), "helpers %s for capsules %s"
          % (sorted(helpers), sorted(capsules)))
    for o in helpers.values():
        check(o.hide_render and o.parent == armature and o.parent_type == 'BONE' and o.display_type == 'WIRE'
              and not o.data.polygons, "%s: renders, or is not a wire child of its bone" % o.name)

    # --- bind pose ----------------------------------------------------------------
    # The capsule's ends and radii in Blender world at bind, from the file alone.
    expected = {}
    for joint, (c, bind) in capsules.items():
        to_world = Y_UP_TO_Z_UP @ bind
        scale = np.cbrt(abs(np.linalg.det(to_world[:3, :3])))
        expected[joint] = (apply(to_world, c["a"]), apply(to_world, c["b"]), c["radius_a"] * scale,
                           c["radius_b"] * scale)


    def helper_ends(obj):
        mw = obj.matrix_world
        a, b = mw @ obj.data.vertices[0].co, mw @ obj.data.vertices[1].co
        # Vertex 2 starts the ring at a, vertex 2 + 16 the ring at b.
        ra = (mw @ obj.data.vertices[2].co - a).length
        rb = (mw @ obj.data.vertices[18].co - b).length
        return np.array(a), np.array(b), ra, rb


    def compare(label, joint, want):
        got = helper_ends(helpers[joint])
        err = max(np.linalg.norm(got[0] - want[0]), np.linalg.norm(got[1] - want[1]),
                  abs(got[2] - want[2]), abs(got[3] - want[3]))
        check(err <= tolerance, "%s %s: helper off by %.3g (> %.3g): got %s want %s"
              % (label, joint, err, tolerance, got, want))
        return err


    # The importer leaves the first clip on the armature: show the rest (bind) pose.
    armature.data.pose_position = 'REST'
    bpy.context.view_layer.update()
    worst_bind = max(compare("bind", j, expected[j]) for j in capsules if j in helpers)
    print("  bind: %d helpers, worst end/radius error %.3g (%.2g H)" % (len(helpers), worst_bind, worst_bind / H))

    # --- posed: the thigh rotated 30 deg; its helper and the shin's follow ---------
    thigh = "mixamorig:LeftUpLeg"
    armature.data.pose_position = 'POSE'
    if armature.animation_data:
        armature.animation_data.action = None
    for bone in armature.pose.bones:
        bone.matrix_basis = Matrix.Identity(4)
    pb = armature.pose.bones[thigh]
    pb.rotation_mode = 'QUATERNION'
    pb.rotation_quaternion = Quaternion((1, 0, 0), math.radians(30))
    bpy.context.view_layer.update()
    arm_world = np.array(armature.matrix_world)
    worst_pose, moved = 0.0, 0.0
    for joint in capsules:
        if joint not in helpers:
            continue
        bone = armature.data.bones[joint]
        # Rest world -> posed world of this bone (what rigidly following means).
        motion = arm_world @ np.array(armature.pose.bones[joint].matrix) @ np.linalg.inv(
            np.array(bone.matrix_local)) @ np.linalg.inv(arm_world)
        a, b, ra, rb = expected[joint]
        want = (apply(motion, a), apply(motion, b), ra, rb)
        worst_pose = max(worst_pose, compare("posed", joint, want))
        if joint == thigh:
            moved = np.linalg.norm(want[1] - b)
    check(moved > 0.1 * H, "posing the thigh moved its knee end only %.3g" % moved)
    print("  posed (%s 30 deg): knee end moved %.3f, worst error %.3g (%.2g H)"
          % (thigh, moved, worst_pose, worst_pose / H))
    return coll


bpy.ops.preferences.addon_install(filepath=args.zip, overwrite=True)
bpy.ops.preferences.addon_enable(module="tailrig")
# Metres through the add-on; centimetres under a 0.01-scaled armature node
# with bones re-oriented by the importer's other heuristics.
for variant in (("fox", [], None),
                ("fox_cm_fortune", ["--unit-scale", "100", "--armature-scale", "0.01"], 'FORTUNE'),
                ("fox_blender_dir", [], 'BLENDER')):
    coll = run(variant)

# --- the panel toggle -----------------------------------------------------------
bpy.context.scene.tailrig.show_colliders = False
check(coll.hide_viewport, "unticking Show leg colliders did not hide them")
bpy.context.scene.tailrig.show_colliders = True
check(not coll.hide_viewport, "ticking Show leg colliders did not show them")

if failures:
    raise RuntimeError("blender_addon_colliders: %d failure(s)" % len(failures))
print("blender_addon_colliders: all checks passed")

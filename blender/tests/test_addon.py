"""Headless test of the tailrig add-on (ctest blender_addon_trex).

blender -b --factory-startup --python test_addon.py -- --zip Z --harness H
        --input STRIPPED.glb --work DIR

Installs the add-on from its zip, imports the stripped T-Rex, runs Detect
(card: one tail with K bones), then Fix with bake, and checks: Tail_1..Tail_K
and Tail_End bones, rotation fcurves on every tail bone in every new action,
names, collections and transforms kept; one undo restores the original objects
with identical vertex weights; Fix draws one wire collider per stored leg
capsule, starting at its joint, gone again after the undo. Also: a missing
harness is one report line.
Exit 0 pass, 1 fail (Blender's --python-exit-code 1 on an exception).
"""
import argparse
import json
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
parser = argparse.ArgumentParser()
parser.add_argument("--zip", required=True)
parser.add_argument("--harness", required=True)
parser.add_argument("--input", required=True)
parser.add_argument("--work", required=True)
args = parser.parse_args(argv)

failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
        print("FAIL: " + message)


def skinned_meshes(armature_name):
    arm = bpy.data.objects[armature_name]
    return sorted((o for o in bpy.data.objects if o.type == 'MESH' and
                   any(m.type == 'ARMATURE' and m.object == arm for m in o.modifiers)), key=lambda o: o.name)


def weights_of(mesh):
    names = {g.index: g.name for g in mesh.vertex_groups}
    return [sorted((names[g.group], g.weight) for g in v.groups) for v in mesh.data.vertices]


def snapshot(armature_name):
    arm = bpy.data.objects[armature_name]
    meshes = skinned_meshes(armature_name)
    return {
        "bones": sorted(b.name for b in arm.data.bones),
        "meshes": {m.name: weights_of(m) for m in meshes},
        "collections": {o.name: sorted(c.name for c in o.users_collection) for o in [arm] + meshes},
        "world": {o.name: [list(r) for r in o.matrix_world] for o in [arm] + meshes},
    }


# --- set up: add-on from its zip, the stripped T-Rex --------------------------
for obj in list(bpy.data.objects):
    bpy.data.objects.remove(obj, do_unlink=True)
bpy.ops.preferences.addon_install(filepath=args.zip, overwrite=True)
bpy.ops.preferences.addon_enable(module="tailrig")
prefs = bpy.context.preferences.addons["tailrig"].preferences

prefs.harness_path = args.work + "/no/such/harness"
armature_name = None
try:
    bpy.ops.tailrig.detect()
    check(False, "Detect with a missing harness did not fail")
except RuntimeError as e:
    message = str(e).strip()
    print("expected error: " + message)
    check("harness not found at" in message and "Traceback" not in message and len(message.splitlines()) == 1,
          "missing harness: not one clear line: %r" % message)
prefs.harness_path = args.harness

bpy.ops.import_scene.gltf(filepath=args.input)
armature = next(o for o in bpy.data.objects if o.type == 'ARMATURE')
armature_name = armature.name
for obj in bpy.context.selected_objects:
    obj.select_set(False)
armature.select_set(True)
bpy.context.view_layer.objects.active = armature
original = snapshot(armature_name)
check(not any(b.startswith("Tail_") for b in original["bones"]), "the stripped T-Rex already has Tail_ bones")
actions_before = set(bpy.data.actions)

# --- Detect -------------------------------------------------------------------
check('FINISHED' in bpy.ops.tailrig.detect(), "Detect did not finish")
report = json.loads(bpy.context.window_manager.tailrig_report)
tails = [r for r in report["appendages"] if r["class"] == "tail"]
check(len(tails) == 1, "Detect: expected one tail, got %d" % len(tails))
k = tails[0]["bones"] if tails else 0
check(k >= 2, "Detect: tail has K = %d bones" % k)

# --- Fix with bake, one undo step -------------------------------------------
settings = bpy.context.scene.tailrig
settings.tail = True
settings.rigid_worn = True
settings.bake_clips = True
settings.fps = 30
bpy.ops.ed.undo_push(message="before tailrig fix")
# undo=True: push the operator's undo step as a click in the UI does (a
# script's operator call pushes none by default).
check('FINISHED' in bpy.ops.tailrig.fix('EXEC_DEFAULT', True), "Fix did not finish")
fixed = snapshot(armature_name)
expected_tail = ["Tail_%d" % i for i in range(1, k + 1)] + ["Tail_End"]
for bone in expected_tail:
    check(bone in fixed["bones"], "fixed armature lacks bone %s" % bone)
check(not any(b.startswith("Tail_") and b not in expected_tail for b in fixed["bones"]),
      "unexpected Tail_ bones: %s" % [b for b in fixed["bones"] if b.startswith("Tail_")])
check(sorted(fixed["meshes"]) == sorted(original["meshes"]), "mesh names changed: %s" % sorted(fixed["meshes"]))
check(fixed["collections"] == original["collections"], "collections changed")
for name, world in original["world"].items():
    got = fixed["world"].get(name)
    # Blender keeps transforms in float32 (loc/rot/scale): equal up to its
    # round-off relative to the largest element (the T-Rex is scaled 300x).
    tolerance = 1e-6 * max(1.0, max(abs(x) for row in world for x in row))
    check(got is not None and all(abs(a - b) <= tolerance for ra, rb in zip(world, got) for a, b in zip(ra, rb)),
          "world transform of %s changed: %s -> %s" % (name, world, got))
tail_weighted = any(any(g.startswith("Tail_") and w > 0 for g, w in vertex)
                    for weights in fixed["meshes"].values() for vertex in weights)
check(tail_weighted, "no vertex is weighted to a Tail_ bone")
new_actions = [a for a in bpy.data.actions if a not in actions_before]
check(len(new_actions) == len(actions_before) and new_actions,
      "expected %d baked actions, got %d" % (len(actions_before), len(new_actions)))
for action in new_actions:
    for bone in expected_tail[:-1]:
        path = 'pose.bones["%s"].rotation_quaternion' % bone
        curves = [fc for fc in action.fcurves if fc.data_path == path]
        check(len(curves) == 4 and all(len(fc.keyframe_points) > 1 for fc in curves),
              "action %s: %s has %d rotation fcurves" % (action.name, bone, len(curves)))
print("fix: %d tail bones + Tail_End, %d baked actions with tail fcurves" % (k, len(new_actions)))

# --- Fix draws the leg colliders it stored (issue 46) --------------------------
fix_report = json.loads(bpy.context.window_manager.tailrig_report)
stored = [c["joint"] for c in (fix_report.get("leg_colliders") or {}).get("capsules") or []]
coll = bpy.data.collections.get("tailrig colliders")
helpers = {o.parent_bone: o for o in (coll.objects if coll else [])}
check(stored and sorted(helpers) == sorted(stored), "collider helpers on %s, report stores %s"
      % (sorted(helpers), stored))
arm = bpy.data.objects[armature_name]
arm.data.pose_position = 'REST'
bpy.context.view_layer.update()
extent = max(max(c) - min(c) for c in zip(*[arm.matrix_world @ b.head_local for b in arm.data.bones]))
for bone, helper in helpers.items():
    # A leg capsule starts at its joint (README): vertex 0 on the bone head,
    # whatever the armature's 300x scale and the swap did to the transforms.
    off = (helper.matrix_world @ helper.data.vertices[0].co - arm.matrix_world @ arm.data.bones[bone].head_local).length
    check(off <= 1e-3 * extent and helper.hide_render, "collider on %s: %.3g from its joint (extent %.3g) or renders"
          % (bone, off, extent))
arm.data.pose_position = 'POSE'
print("fix: %d collider helpers on %s" % (len(helpers), ", ".join(sorted(helpers))))

# --- Undo: the original objects and weights come back -------------------------
bpy.ops.ed.undo()
restored = snapshot(armature_name)
check(restored["bones"] == original["bones"], "undo: bones differ from the original")
check(restored["meshes"] == original["meshes"], "undo: vertex weights differ from the original")
check(restored["collections"] == original["collections"], "undo: collections differ")
check(not any(o.name.startswith("collider ") for o in bpy.data.objects), "undo: collider helpers remain")
print("undo: %d meshes, weights identical: %s" % (len(restored["meshes"]), restored["meshes"] == original["meshes"]))

if failures:
    # An exception, not sys.exit: --python-exit-code 1 turns it into exit 1.
    raise RuntimeError("blender_addon_trex: %d failure(s)" % len(failures))
print("blender_addon_trex: all checks passed")

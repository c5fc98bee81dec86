# Curl a tailed character's tail up over its back (issue 45 class 1 inputs).
# Headless:
#   blender -b --factory-startup --python-exit-code 1 --python curl_tail.py -- \
#       IN.glb OUT.glb DEG[,DEG...] [FIRST]
# Every tail bone (a name containing "Tail") from FIRST on (default the
# second) turns by its DEG about its own X axis (the last DEG repeats); the
# curled pose becomes the rest pose (the mesh deformed into it, the skin and
# every clip kept: tail keys then move the tail about its curled rest). A
# new artist's rig of the class, for strip-tail + fix. Wolf.glb 33 from
# Tail2 lays its tip over the back just forward of the tail's base; the
# printout gives the tip (the last tail bone's end, Blender's Z up).
import math
import sys

import numpy as np

np.bool = bool  # Blender 3.4's glTF importer still uses np.bool
import bpy  # noqa: E402

args = sys.argv[sys.argv.index('--') + 1:]
src, out = args[0], args[1]
degs = [float(x) for x in args[2].split(',')]
first = args[3] if len(args) > 3 else None
bpy.ops.import_scene.gltf(filepath=src)
arm = [o for o in bpy.data.objects if o.type == 'ARMATURE'][0]
meshes = [o for o in bpy.data.objects if o.type == 'MESH' and any(m.type == 'ARMATURE' for m in o.modifiers)]
for o in bpy.data.objects:
    o.select_set(False)
bpy.context.view_layer.objects.active = arm
if arm.animation_data:
    arm.animation_data.action = None  # pose the rest, not a clip's frame
bpy.ops.object.mode_set(mode='POSE')
tail = [b for b in arm.pose.bones if 'Tail' in b.name]
if not tail:
    sys.exit('no tail bones in ' + src)
first = first or tail[min(1, len(tail) - 1)].name
started, k = False, 0
for pb in tail:
    started = started or pb.name == first
    if not started:
        continue
    pb.rotation_mode = 'XYZ'
    pb.rotation_euler = (math.radians(degs[min(k, len(degs) - 1)]), 0.0, 0.0)
    k += 1
bpy.context.view_layer.update()
tip = arm.matrix_world @ tail[-1].tail
print('curl_tail: %d bones turned from %s, tip at (%.3f, %.3f, %.3f)' % (k, first, tip.x, tip.y, tip.z))
bpy.ops.object.mode_set(mode='OBJECT')
for m in meshes:  # bake the curled pose into the mesh, keep a live armature modifier
    bpy.context.view_layer.objects.active = m
    name = [x for x in m.modifiers if x.type == 'ARMATURE'][0].name
    bpy.ops.object.modifier_copy(modifier=name)
    bpy.ops.object.modifier_apply(modifier=name)
bpy.context.view_layer.objects.active = arm
bpy.ops.object.mode_set(mode='POSE')
bpy.ops.pose.armature_apply(selected=False)
bpy.ops.object.mode_set(mode='OBJECT')
bpy.ops.export_scene.gltf(filepath=out, export_format='GLB')
print('curl_tail: wrote', out)

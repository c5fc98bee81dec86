# Blender headless: import a BVH and export it again with Blender's own BVH
# exporter, which writes Blender's world axes (Z up, -Y forward, six channels
# on every joint): the file an animator gets after editing mocap in Blender.
# Usage: blender -b --factory-startup --python bvh_roundtrip.py -- IN.bvh OUT.bvh
import builtins
import sys

import bpy

# Blender 3.4's BVH importer opens with mode 'rU', which this Python rejects.
_open = builtins.open


def _open_without_u(file, mode="r", *args, **kwargs):
    return _open(file, mode.replace("U", ""), *args, **kwargs)


builtins.open = _open_without_u

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(argv) != 2:
    sys.exit("usage: blender -b --factory-startup --python bvh_roundtrip.py -- IN.bvh OUT.bvh")
src, dst = argv
bpy.ops.object.select_all(action="SELECT")
bpy.ops.object.delete()
bpy.ops.import_anim.bvh(filepath=src, update_scene_fps=True, update_scene_duration=True)
arm = bpy.context.selected_objects[0]
bpy.context.view_layer.objects.active = arm
scene = bpy.context.scene
# The action's own frames (the scene keeps its default 250-frame range).
first, last = (int(round(f)) for f in arm.animation_data.action.frame_range)
bpy.ops.export_anim.bvh(filepath=dst, frame_start=first, frame_end=last)
print("bvh_roundtrip: %s -> %s, frames %d..%d at %g fps" % (src, dst, first, last, scene.render.fps / scene.render.fps_base))

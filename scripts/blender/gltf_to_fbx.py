# Re-export a glTF/GLB character as FBX with Blender (headless), so tests can
# read the same character through another client's FBX writer (Assimp side).
#   blender -b --factory-startup --python scripts/blender/gltf_to_fbx.py -- IN.glb OUT.fbx [--z-up]
# --z-up writes the FBX with Z up and Y forward (3ds Max style axes).
import sys

import numpy as np

np.bool = bool  # Blender 3.4's glTF importer still uses np.bool
import bpy  # noqa: E402


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    z_up = "--z-up" in argv
    argv = [a for a in argv if a != "--z-up"]
    if len(argv) != 2:
        print("usage: blender -b --factory-startup --python gltf_to_fbx.py -- IN.glb OUT.fbx [--z-up]", file=sys.stderr)
        sys.exit(2)
    src, out = argv
    axes = {"axis_up": "Z", "axis_forward": "Y"} if z_up else {}
    bpy.ops.wm.read_factory_settings(use_empty=True)
    if "FINISHED" not in bpy.ops.import_scene.gltf(filepath=src):
        print(f"{src}: glTF import failed", file=sys.stderr)
        sys.exit(2)
    if "FINISHED" not in bpy.ops.export_scene.fbx(filepath=out, add_leaf_bones=False, bake_anim=True, **axes):
        print(f"{out}: FBX export failed", file=sys.stderr)
        sys.exit(2)
    print(f"wrote {out}")


main()

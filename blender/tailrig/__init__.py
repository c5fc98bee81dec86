"""tailrig for Blender: detect a rigger's missing tail and fix it with a bone
chain (and baked spring keys) by running the `harness` command."""

bl_info = {
    "name": "tailrig",
    "author": "tailrig",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "3D View > Sidebar > tailrig",
    "description": "Detect tails and worn items on auto-rigged characters; grow a Tail_1..Tail_K chain with baked spring keys",
    "category": "Rigging",
}

import bpy  # noqa: E402
import numpy as np  # noqa: E402

from . import operators, ui  # noqa: E402

_classes = ui.classes + operators.classes


def register():
    # Blender 3.4's glTF add-on still uses np.bool (removed in numpy 1.24,
    # which Debian ships): alias it back, only where it is missing.
    if not hasattr(np, "bool"):
        np.bool = bool
    for cls in _classes:
        bpy.utils.register_class(cls)
    bpy.types.Scene.tailrig = bpy.props.PointerProperty(type=ui.TailrigSettings)
    # The last report, kept outside the undo history (window manager).
    bpy.types.WindowManager.tailrig_report = bpy.props.StringProperty(default="", options={'SKIP_SAVE'})


def unregister():
    del bpy.types.WindowManager.tailrig_report
    del bpy.types.Scene.tailrig
    for cls in reversed(_classes):
        bpy.utils.unregister_class(cls)

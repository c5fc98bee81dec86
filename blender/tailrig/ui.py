"""Sidebar panel (3D view > N > tailrig), settings and add-on preferences."""
import json

import bpy

from . import card, colliders


def _show_colliders_changed(settings, context):
    coll = bpy.data.collections.get(colliders.COLLECTION)
    if coll is not None:
        coll.hide_viewport = not settings.show_colliders


class TailrigSettings(bpy.types.PropertyGroup):
    tail: bpy.props.BoolProperty(
        name="Tail", default=True,
        description="Give a detected tail a Tail_1..Tail_K bone chain (off: leave tails as they are)")
    rigid_worn: bpy.props.BoolProperty(
        name="Rigid worn items", default=True,
        description="Skin worn items (quivers, scabbards) rigidly to the bone they hang from")
    bake_clips: bpy.props.BoolProperty(
        name="Bake clips", default=True,
        description="Bake the tail spring into every action as keyframes")
    fps: bpy.props.IntProperty(name="fps", default=30, min=1, max=240,
                               description="Keyframes per second of the baked tail")
    show_colliders: bpy.props.BoolProperty(
        name="Show leg colliders", default=True, update=_show_colliders_changed,
        description="Show the leg capsules the fixed file stores (wire, never rendered; collection "
                    "\"tailrig colliders\")")


class TailrigPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    harness_path: bpy.props.StringProperty(
        name="harness binary", subtype='FILE_PATH', default="",
        description="Path of the harness command (empty: found on PATH)")

    def draw(self, context):
        self.layout.prop(self, "harness_path")


class VIEW3D_PT_tailrig(bpy.types.Panel):
    bl_label = "tailrig"
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    bl_category = "tailrig"

    def draw(self, context):
        layout = self.layout
        settings = context.scene.tailrig
        layout.operator("tailrig.detect", icon='VIEWZOOM')
        box = layout.box()
        row = box.row()
        row.prop(settings, "tail")
        row.prop(settings, "rigid_worn")
        row = box.row()
        row.prop(settings, "bake_clips")
        sub = row.row()
        sub.enabled = settings.bake_clips
        sub.prop(settings, "fps")
        box.operator("tailrig.fix", icon='BONE_DATA')
        row = layout.row()
        row.operator("tailrig.import_fixed", icon='IMPORT')
        row.prop(settings, "show_colliders")
        raw = context.window_manager.tailrig_report
        if raw:
            try:
                report = json.loads(raw)
            except ValueError:
                report = None
            result = layout.box()
            result.label(text="Result", icon='INFO')
            for line in card.card_lines(report, context.scene.unit_settings.scale_length):
                result.label(text=line)


classes = (TailrigSettings, TailrigPreferences, VIEW3D_PT_tailrig)

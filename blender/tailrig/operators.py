"""Detect and Fix operators: export selection -> harness -> (import, swap)."""
import json
import os
import shutil
import tempfile

import bpy

from . import card, colliders, harness_cli, scene_io
from .harness_cli import HarnessError


def _preferences(context):
    addon = context.preferences.addons.get(__package__)
    return addon.preferences if addon else None


def _harness(context):
    prefs = _preferences(context)
    return harness_cli.find_harness(prefs.harness_path if prefs else "")


def _show_card(context, report, title):
    """Keeps the card for the panel and prints it (the console is the log)."""
    wm = context.window_manager
    wm.tailrig_report = json.dumps(report)
    lines = card.card_lines(report, context.scene.unit_settings.scale_length)
    print("tailrig: %s" % title)
    for line in lines:
        print("  " + line)
    return lines


class _HarnessOperator:
    """Runs `body` in a scratch folder; every failure is one report line."""

    def run_guarded(self, context, body):
        work = tempfile.mkdtemp(prefix="tailrig_")
        try:
            return body(context, work)
        except HarnessError as e:
            self.report({'ERROR'}, str(e))
            return {'CANCELLED'}
        except Exception as e:  # the UI boundary: a line, never a traceback
            self.report({'ERROR'}, "tailrig: %s: %s" % (type(e).__name__, scene_io.first_line(str(e))))
            return {'CANCELLED'}
        finally:
            shutil.rmtree(work, ignore_errors=True)


class TAILRIG_OT_detect(_HarnessOperator, bpy.types.Operator):
    """Find tails and worn items on the selected armature's meshes (nothing is changed)"""
    bl_idname = "tailrig.detect"
    bl_label = "Detect"
    bl_options = {'REGISTER'}

    @classmethod
    def poll(cls, context):
        return context.mode == 'OBJECT'

    def execute(self, context):
        return self.run_guarded(context, self._detect)

    def _detect(self, context, work):
        binary = _harness(context)
        armature, meshes = scene_io.gather_selection(context)
        glb = os.path.join(work, "selection.glb")
        scene_io.export_glb(context, armature, meshes, glb)
        report = harness_cli.detect(binary, glb)
        if report is None:
            raise HarnessError("harness fix --mode report printed no JSON report")
        lines = _show_card(context, report, "Detect on %s" % armature.name)
        self.report({'INFO'}, "%s: %s" % (armature.name, "; ".join(lines[1:3]) if len(lines) > 1 else lines[0]))
        return {'FINISHED'}


class TAILRIG_OT_fix(_HarnessOperator, bpy.types.Operator):
    """Rewrite the selected armature's tail (bone chain) and worn items with harness fix, in one undo step"""
    bl_idname = "tailrig.fix"
    bl_label = "Fix"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context):
        return context.mode == 'OBJECT'

    def execute(self, context):
        return self.run_guarded(context, self._fix)

    def _fix(self, context, work):
        settings = context.scene.tailrig
        binary = _harness(context)
        armature, meshes = scene_io.gather_selection(context)
        glb_in = os.path.join(work, "selection.glb")
        glb_out = os.path.join(work, "fixed.glb")
        report_path = os.path.join(work, "report.json")
        scene_io.export_glb(context, armature, meshes, glb_in)
        # Everything that can fail runs before the scene is touched.
        out, report = harness_cli.fix(binary, glb_in, glb_out, report_path, tail=settings.tail,
                                      rigid_worn=settings.rigid_worn, bake=settings.bake_clips,
                                      fps=settings.fps)
        name = armature.name
        new_objects = scene_io.import_glb(glb_out)
        new_armature = scene_io.swap_in(armature, meshes, new_objects)
        # After the swap: it may bring helpers of an earlier fix along. The
        # scene is already changed, so a failure here is a warning (the
        # operator must finish for its undo step to exist).
        try:
            colliders.build(context, new_armature, glb_out)
        except Exception as e:
            self.report({'WARNING'}, "tailrig: leg colliders not drawn: %s" % scene_io.first_line(str(e)))
        for obj in context.selected_objects:
            obj.select_set(False)
        new_armature.select_set(True)
        context.view_layer.objects.active = new_armature
        _show_card(context, report, "Fix on %s" % name)
        summary = out.strip().splitlines()[0] if out.strip() else "fixed"
        # harness names its temporary input; the user knows the armature.
        summary = summary.replace(glb_in, name).replace(" -> " + glb_out, "")
        self.report({'INFO'}, summary)
        return {'FINISHED'}


class TAILRIG_OT_import_fixed(bpy.types.Operator):
    """Import a glTF written by harness fix and draw the leg colliders it stores"""
    bl_idname = "tailrig.import_fixed"
    bl_label = "Import fixed glTF"
    bl_options = {'REGISTER', 'UNDO'}

    filepath: bpy.props.StringProperty(subtype='FILE_PATH')
    filter_glob: bpy.props.StringProperty(default="*.glb;*.gltf", options={'HIDDEN'})

    def invoke(self, context, event):
        context.window_manager.fileselect_add(self)
        return {'RUNNING_MODAL'}

    def execute(self, context):
        try:
            new_objects = scene_io.import_glb(self.filepath)
            armatures = [o for o in new_objects if o.type == 'ARMATURE']
            helpers = []
            for armature in armatures:
                helpers += colliders.build(context, armature, self.filepath)
        except HarnessError as e:
            self.report({'ERROR'}, str(e))
            return {'CANCELLED'}
        except Exception as e:  # the UI boundary: a line, never a traceback
            self.report({'ERROR'}, "tailrig: %s: %s" % (type(e).__name__, scene_io.first_line(str(e))))
            return {'CANCELLED'}
        self.report({'INFO'}, "%d leg collider%s" % (len(helpers), "" if len(helpers) == 1 else "s"))
        return {'FINISHED'}


classes = (TAILRIG_OT_detect, TAILRIG_OT_fix, TAILRIG_OT_import_fixed)

"""Selection export, result import and the swap (bpy side of the add-on)."""
import re

import bpy

from .harness_cli import HarnessError


def gather_selection(context):
    """The armature to fix (active, else the first selected) and its skinned meshes."""
    active = context.active_object
    if active is not None and active.type == 'ARMATURE':
        armature = active
    else:
        armatures = [o for o in context.selected_objects if o.type == 'ARMATURE']
        if not armatures:
            raise HarnessError("select an armature (its skinned meshes come along)")
        armature = armatures[0]
    meshes = [o for o in context.scene.objects if o.type == 'MESH' and _skinned_to(o, armature)]
    if not meshes:
        raise HarnessError("no mesh is skinned to %s" % armature.name)
    return armature, meshes


def _skinned_to(obj, armature):
    return any(m.type == 'ARMATURE' and m.object == armature for m in obj.modifiers)


def export_glb(context, armature, meshes, path):
    """Writes the armature, its meshes and every action to a GLB."""
    previous_selection = list(context.selected_objects)
    previous_active = context.view_layer.objects.active
    try:
        for obj in previous_selection:
            obj.select_set(False)
        for obj in [armature] + meshes:
            obj.select_set(True)
        context.view_layer.objects.active = armature
        # Arguments common to the glTF exporter of Blender 3.4 and 4.x.
        result = bpy.ops.export_scene.gltf(filepath=path, export_format='GLB', use_selection=True,
                                           export_animations=True, export_skins=True)
    except RuntimeError as e:
        raise HarnessError("glTF export failed: %s" % first_line(str(e))) from None
    finally:
        for obj in context.selected_objects:
            obj.select_set(False)
        for obj in previous_selection:
            if obj.name in bpy.data.objects:
                obj.select_set(True)
        context.view_layer.objects.active = previous_active
    if 'FINISHED' not in result:
        raise HarnessError("glTF export of %s was cancelled" % armature.name)


def first_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else "unknown error"


def import_glb(path):
    """Imports a GLB; returns the new objects (removed again on failure)."""
    before = set(bpy.data.objects)
    try:
        result = bpy.ops.import_scene.gltf(filepath=path)
    except RuntimeError as e:
        _remove([o for o in bpy.data.objects if o not in before])
        raise HarnessError("glTF import failed: %s" % first_line(str(e))) from None
    new_objects = [o for o in bpy.data.objects if o not in before]
    if 'FINISHED' not in result or not new_objects:
        _remove(new_objects)
        raise HarnessError("glTF import of the fixed file failed")
    return new_objects


def _remove(objects):
    for obj in objects:
        bpy.data.objects.remove(obj, do_unlink=True)


def _base_name(name):
    return re.sub(r"\.\d{3,}$", "", name)


def swap_in(armature, meshes, new_objects):
    """Replaces the original armature and meshes by the imported ones: same
    names, collections, parents and world transforms; other children of the
    armature (bone end empties, props) move to the new armature; objects the
    importer made besides are dropped; the originals are deleted (the calling
    operator's one undo step restores them). Returns the new armature."""
    new_armatures = [o for o in new_objects if o.type == 'ARMATURE']
    if len(new_armatures) != 1:
        _remove(new_objects)
        raise HarnessError("the fixed file has %d armatures, expected 1" % len(new_armatures))
    new_armature = new_armatures[0]
    unmatched = [o for o in new_objects if o.type == 'MESH']
    pairs = [(armature, new_armature)]
    for mesh in meshes:
        match = next((n for n in unmatched if _base_name(n.name) == mesh.name), None)
        if match is None and unmatched:
            match = unmatched[0]  # renamed beyond recognition by the importer: keep order
        if match is None:
            _remove(new_objects)
            raise HarnessError("the fixed file lacks mesh %s" % mesh.name)
        unmatched.remove(match)
        pairs.append((mesh, match))
    swapped = {original for original, _ in pairs}
    replacement = {original: new for original, new in pairs}

    for original, new in pairs:
        world = original.matrix_world.copy()
        for coll in list(new.users_collection):
            coll.objects.unlink(new)
        for coll in original.users_collection:
            coll.objects.link(new)
        parent = replacement.get(original.parent, original.parent)
        new.parent = parent
        new.parent_type = original.parent_type if parent is not None else 'OBJECT'
        if new.parent_type == 'BONE':
            new.parent_bone = original.parent_bone
        new.matrix_world = world
    for child in [c for c in armature.children if c not in swapped]:
        world = child.matrix_world.copy()
        bone = child.parent_bone
        child.parent = new_armature
        if child.parent_type == 'BONE' and bone not in new_armature.data.bones:
            child.parent_type = 'OBJECT'
        child.matrix_world = world
    for original, new in pairs:
        name = original.name
        bpy.data.objects.remove(original, do_unlink=True)
        new.name = name
    # What the importer made besides (a root empty, leaf-bone empties) goes.
    _remove([o for o in new_objects if o not in replacement.values() and o.name in bpy.data.objects
             and o.type == 'EMPTY'])
    return new_armature

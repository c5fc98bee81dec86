"""Draws the leg colliders a fixed file stores as wire capsules on their bones.

Each capsule becomes an edge-only mesh object (never rendered) parented to
its bone, so it follows the bone in any pose. Its vertices are in the bone's
rest space: the collider's ends `a`, `b` (joint node space at bind, glTF
Y-up) are taken to Blender world by  S @ Y_UP_TO_Z_UP @ bind_j  and back into
the bone by the inverse of  armature world @ bone.matrix_local. S is the
similarity that puts the file's joint origins onto the armature's bone heads
(fitted, so an armature moved, scaled or swapped in after import still
matches); the bone's own axes never enter, so the importer's "Bone Dir"
re-orientation of bones does not matter. Vertex 0 is `a`, vertex 1 is `b`.
"""
import math

import bpy
import numpy as np
from mathutils import Matrix, Vector

from .glb_joints import read_joint_colliders

COLLECTION = "tailrig colliders"
OWNER_KEY = "tailrig_collider_bone"  # on a helper: the bone it draws
# glTF is Y-up, Blender Z-up: the importer maps (x, y, z) to (x, -z, y).
Y_UP_TO_Z_UP = Matrix(((1, 0, 0, 0), (0, 0, -1, 0), (0, 1, 0, 0), (0, 0, 0, 1)))
_SEGMENTS = 16


def _mat(rows):
    return Matrix([list(r) for r in rows])


def fit_similarity(src, dst):
    """Scale * rotation + translation taking points src to dst in the least
    squares sense (Umeyama), and the largest residual. Needs 3 points not on
    a line; else a translation of the centroids."""
    p, q = np.array(src, dtype=float), np.array(dst, dtype=float)
    pc, qc = p.mean(axis=0), q.mean(axis=0)
    p0, q0 = p - pc, q - qc
    var = (p0 ** 2).sum() / len(p)
    m = np.eye(4)
    if len(p) >= 3 and var > 0:
        u, d, vt = np.linalg.svd(q0.T @ p0 / len(p))
        if d[1] > 1e-9 * d[0]:
            e = np.diag([1.0, 1.0, np.sign(np.linalg.det(u @ vt)) or 1.0])
            rot = u @ e @ vt
            scale = (d * np.diag(e)).sum() / var
            m[:3, :3] = scale * rot
    m[:3, 3] = qc - m[:3, :3] @ pc
    residual = float(np.abs(p @ m[:3, :3].T + m[:3, 3] - q).max()) if len(p) else 0.0
    return Matrix(m.tolist()), residual


def _capsule_mesh(name, a, b, ra, rb):
    """Edge-only capsule: axis a-b, a ring at each end, two half circles
    capping each end in two planes through the axis, four side lines."""
    axis = b - a
    u = axis.normalized() if axis.length > 1e-12 else Vector((0, 1, 0))
    v = u.orthogonal().normalized()
    w = u.cross(v)
    verts, edges = [a, b], [(0, 1)]

    def polyline(points, closed):
        start = len(verts)
        verts.extend(points)
        n = len(points)
        edges.extend((start + i, start + (i + 1) % n) for i in range(n if closed else n - 1))
        return start

    ring_a = polyline([a + ra * (math.cos(t) * v + math.sin(t) * w)
                       for t in (2 * math.pi * i / _SEGMENTS for i in range(_SEGMENTS))], True)
    ring_b = polyline([b + rb * (math.cos(t) * v + math.sin(t) * w)
                       for t in (2 * math.pi * i / _SEGMENTS for i in range(_SEGMENTS))], True)
    half = _SEGMENTS // 2
    for centre, r, out in ((a, ra, -u), (b, rb, u)):
        for side in (v, w):
            polyline([centre + r * (math.cos(t) * side + math.sin(t) * out)
                      for t in (math.pi * i / half for i in range(half + 1))], False)
    for k in range(0, _SEGMENTS, _SEGMENTS // 4):
        edges.append((ring_a + k, ring_b + k))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([tuple(x) for x in verts], edges, [])
    return mesh


def collection(scene):
    coll = bpy.data.collections.get(COLLECTION)
    if coll is None:
        coll = bpy.data.collections.new(COLLECTION)
    if coll.name not in scene.collection.children:
        scene.collection.children.link(coll)
    return coll


def remove_helpers(armature):
    for child in [c for c in armature.children if OWNER_KEY in c.keys()]:
        mesh = child.data
        bpy.data.objects.remove(child, do_unlink=True)
        if mesh is not None and mesh.users == 0:
            bpy.data.meshes.remove(mesh)


def build(context, armature, glb_path):
    """Replaces the armature's collider helpers by the ones glb_path stores
    (the file the armature was imported from). Returns the new helpers."""
    remove_helpers(armature)
    joints = [j for j in read_joint_colliders(glb_path) if j["name"] in armature.data.bones]
    if not any(j["collider"] for j in joints):
        return []
    arm_world = armature.matrix_world
    binds = {j["name"]: Y_UP_TO_Z_UP @ _mat(j["bind"]) for j in joints}
    src = [binds[j["name"]].translation for j in joints]
    dst = [arm_world @ armature.data.bones[j["name"]].head_local for j in joints]
    to_world, residual = fit_similarity(src, dst)
    height = max((max(p) - min(p) for p in zip(*dst)), default=0.0) if dst else 0.0
    if residual > 1e-3 * max(height, 1e-9):
        print("tailrig: joint origins match the bones only to %.3g (H %.3g); colliders may be off"
              % (residual, height))
    coll = collection(context.scene)
    helpers = []
    for j in joints:
        c = j["collider"]
        if c is None:
            continue
        bone = armature.data.bones[j["name"]]
        # glTF joint space -> this bone's rest space (the space its pose
        # matrix maps to armature space).
        local = (arm_world @ bone.matrix_local).inverted() @ to_world @ binds[j["name"]]
        scale = sum(local.col[i].xyz.length for i in range(3)) / 3.0
        a, b = local @ Vector(c["a"]), local @ Vector(c["b"])
        name = "collider %s" % bone.name
        obj = bpy.data.objects.new(name, _capsule_mesh(name, a, b, c["radius_a"] * scale,
                                                       c["radius_b"] * scale))
        obj[OWNER_KEY] = bone.name
        obj.display_type = 'WIRE'
        obj.hide_render = True
        obj.hide_select = True  # a guide, not something to grab in the viewport
        coll.objects.link(obj)
        obj.parent = armature
        obj.parent_type = 'BONE'
        obj.parent_bone = bone.name
        # A bone child sits at the bone's tail; the vertices are relative to
        # its head.
        obj.matrix_parent_inverse = Matrix.Translation((0.0, -bone.length, 0.0))
        obj.matrix_basis = Matrix.Identity(4)
        helpers.append(obj)
    coll.hide_viewport = not context.scene.tailrig.show_colliders
    return helpers

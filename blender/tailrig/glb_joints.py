"""The stored leg colliders of a glTF file with their joints' bind frames (no bpy).

A collider (README "What fix writes for the legs") is given in its joint
node's own space at bind, the space the joint's inverse bind matrix maps
into. Blender's importer keeps the node extras as a bone custom property but
not that space (it re-orients bones by its "Bone Dir" heuristic and drops
joint scale), so the add-on reads the bind frames from the file itself.
"""
import base64
import json
import os
import struct

COLLIDER_KEY = "tailrig_collider"
_GLB_MAGIC = 0x46546C67
_JSON_CHUNK = 0x4E4F534A
_BIN_CHUNK = 0x004E4942


def _load(path):
    """(document, the GLB binary chunk or None)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) >= 12 and struct.unpack_from("<I", data, 0)[0] == _GLB_MAGIC:
        doc, binary, offset = None, None, 12
        while offset + 8 <= len(data):
            length, kind = struct.unpack_from("<II", data, offset)
            chunk = data[offset + 8:offset + 8 + length]
            if kind == _JSON_CHUNK:
                doc = json.loads(chunk.decode("utf-8"))
            elif kind == _BIN_CHUNK:
                binary = chunk
            offset += 8 + length
        if doc is None:
            raise ValueError("%s: GLB without a JSON chunk" % path)
        return doc, binary
    return json.loads(data.decode("utf-8")), None


def _buffer_bytes(doc, index, binary, folder):
    buf = doc["buffers"][index]
    uri = buf.get("uri")
    if uri is None:
        return binary
    if uri.startswith("data:"):
        return base64.b64decode(uri.split(",", 1)[1])
    with open(os.path.join(folder, uri), "rb") as f:
        return f.read()


def _mat4_accessor(doc, index, binary, folder):
    """The MAT4 float accessor as row-major 4x4 lists (glTF stores columns)."""
    acc = doc["accessors"][index]
    if acc.get("type") != "MAT4" or acc.get("componentType") != 5126:
        raise ValueError("inverse bind matrices are not float MAT4")
    view = doc["bufferViews"][acc["bufferView"]]
    data = _buffer_bytes(doc, view["buffer"], binary, folder)
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    stride = view.get("byteStride") or 64
    out = []
    for i in range(acc["count"]):
        col = struct.unpack_from("<16f", data, start + i * stride)
        out.append([[col[c * 4 + r] for c in range(4)] for r in range(4)])
    return out


def _invert_affine(m):
    """Inverse of a row-major affine 4x4 (3x3 part by cofactors)."""
    a = [row[:3] for row in m[:3]]
    det = (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
           - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
           + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    if abs(det) < 1e-30:
        raise ValueError("singular inverse bind matrix")
    inv = [[(a[(c + 1) % 3][(r + 1) % 3] * a[(c + 2) % 3][(r + 2) % 3]
             - a[(c + 1) % 3][(r + 2) % 3] * a[(c + 2) % 3][(r + 1) % 3]) / det for c in range(3)]
           for r in range(3)]
    t = [m[i][3] for i in range(3)]
    it = [-sum(inv[r][k] * t[k] for k in range(3)) for r in range(3)]
    return [inv[0] + [it[0]], inv[1] + [it[1]], inv[2] + [it[2]], [0.0, 0.0, 0.0, 1.0]]


def _valid_capsule(c):
    """The schema's version-1 capsule, else None (readers ignore other ones)."""
    if not isinstance(c, dict) or c.get("version") != 1 or c.get("shape") != "capsule":
        return None
    try:
        a = [float(x) for x in c["a"]]
        b = [float(x) for x in c["b"]]
        ra, rb = float(c["radius_a"]), float(c["radius_b"])
    except (KeyError, TypeError, ValueError):
        return None
    if len(a) != 3 or len(b) != 3 or ra < 0 or rb < 0:
        return None
    return {"a": a, "b": b, "radius_a": ra, "radius_b": rb}


def read_joint_colliders(path):
    """Every skin joint as {"name", "bind": row-major 4x4 joint-to-glTF-world
    at bind (inverse of its inverse bind matrix; identity when the skin has
    none), "collider": capsule dict or None}; first skin wins for a joint
    shared by several skins."""
    doc, binary = _load(path)
    folder = os.path.dirname(os.path.abspath(path))
    nodes = doc.get("nodes") or []
    joints, seen = [], set()
    for skin in doc.get("skins") or []:
        ibms = None
        if skin.get("inverseBindMatrices") is not None:
            ibms = _mat4_accessor(doc, skin["inverseBindMatrices"], binary, folder)
        for i, node_index in enumerate(skin.get("joints") or []):
            if node_index in seen:
                continue
            seen.add(node_index)
            node = nodes[node_index]
            identity = [[float(r == c) for c in range(4)] for r in range(4)]
            bind = _invert_affine(ibms[i]) if ibms else identity
            extras = node.get("extras")
            collider = _valid_capsule(extras.get(COLLIDER_KEY)) if isinstance(extras, dict) else None
            joints.append({"name": node.get("name") or "node_%d" % node_index, "bind": bind,
                           "collider": collider})
    return joints

#!/usr/bin/python3
"""The add-on's harness runner and result card without Blender (ctest
blender_addon_cli): a failing harness becomes one HarnessError line (its last
stderr line, not a `repaired:` note), a missing binary is one line, and the
card shows class, length in scene units, K, attachment and why a region was
left alone; the collider reader gives each joint's bind matrix (inverse of its
inverse bind matrix) and only version-1 capsules. Exit 0 pass, 1 fail."""
import base64
import json
import os
import stat
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tailrig"))
import card  # noqa: E402
import glb_joints  # noqa: E402
import harness_cli  # noqa: E402

failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
        print("FAIL: " + message)


with tempfile.TemporaryDirectory() as work:
    fake = os.path.join(work, "harness")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\necho 'harness fix: repaired: 3 keys' >&2\n"
                "echo 'harness fix: in.glb: no skinned mesh' >&2\nexit 2\n")
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
    try:
        harness_cli.detect(harness_cli.find_harness(fake), os.path.join(work, "in.glb"))
        check(False, "a failing harness raised nothing")
    except harness_cli.HarnessError as e:
        check(str(e) == "harness (exit 2): harness fix: in.glb: no skinned mesh", "error line: %r" % str(e))
    try:
        harness_cli.find_harness(os.path.join(work, "missing"))
        check(False, "a missing harness raised nothing")
    except harness_cli.HarnessError as e:
        check("\n" not in str(e) and "harness not found at" in str(e), "missing binary: %r" % str(e))

report = {"H": 2.0, "pelvis": "Hips", "tail_bones": [], "appendages": [
    {"id": 0, "class": "tail", "action": "chain", "vertex_count": 900, "length": 1.5, "bones": 6,
     "chain_parent": "Hips", "attachment": "Back", "reason": "hangs from Back; long and protruding"},
    {"id": 1, "class": "worn", "action": "unchanged", "vertex_count": 40, "length": 0.0, "bones": 0,
     "attachment": "Spine", "reason": "round, on the spine (its class was switched off for this fix)"}],
    "leg_colliders": {"count": 2, "source": "fitted", "capsules": [
        {"joint": "UpLeg.L", "a_m": [0, 1, 0], "b_m": [0, 0.5, 0], "radius_a_m": 0.1, "radius_b_m": 0.08},
        {"joint": "Leg.L", "a_m": [0, 0.5, 0], "b_m": [0, 0.1, 0], "radius_a_m": 0.08, "radius_b_m": 0.05}]}}
lines = card.card_lines(report, scale_length=0.01)  # centimetre scene: lengths x100
text = "\n".join(lines)
print(text)
check("leg colliders: 2 capsules on UpLeg.L, Leg.L" in text, "the stored leg colliders named (issue 46)")
check("region 0 tail -> chain: length 150, K = 6, attaches to Hips" in text,
      "tail line: class, length in scene units, K, attachment")
check("region 1 worn -> unchanged at Spine, left alone: round, on the spine (its class was switched off for this fix)"
      in text, "worn line with the reason it was left alone")
check(card.why_left_alone("hangs from Toe (toe); centroid/reach 0.81 >= 0.40 (protrudes); elongation 1.23 < 1.80")
      == "elongation 1.23 < 1.80", "the deciding clause of a reason")
check(card.why_left_alone("hangs from Foot.R (right foot); centroid/reach 0.72 >= 0.40 (protrudes); elongation 2.07 >= 1.80")
      == "hangs from Foot.R (right foot), not the pelvis or spine", "the attachment decided")
check(card.why_left_alone("hangs from Hips (hips), pelvis zone; centroid/reach 0.85 >= 0.40 (protrudes); "
                          "elongation 2.04 >= 1.80; reach/H 0.142 >= 0.120; flatness 10.78; a sheet, not a tail: "
                          "its cross-section about the chain is flat (width/thickness 12.46 > 3.00, lower median "
                          "over 3 of its 3 bones), so nothing is rewritten").startswith("a sheet, not a tail"),
      "a sheet decided")

# The collider reader on a .gltf with an embedded buffer: joint 0 at bind is
# scaled 2x and moved to (1, 2, 3) (its inverse bind matrix undoes that);
# joint 1 carries a capsule of another version (ignored), joint 2 a
# malformed one (ignored).
ibm0 = [0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, -0.5, -1.0, -1.5, 1]  # column-major
identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
blob = struct.pack("<48f", *(ibm0 + identity + identity))
capsule = {"version": 1, "shape": "capsule", "a": [0, 0, 0], "b": [0, 1, 0], "radius_a": 0.2, "radius_b": 0.1}
doc = {"asset": {"version": "2.0"},
       "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64,"
                    + base64.b64encode(blob).decode()}],
       "bufferViews": [{"buffer": 0, "byteLength": len(blob)}],
       "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "MAT4"}],
       "nodes": [{"name": "thigh", "extras": {"tailrig_collider": capsule, "other": 1}},
                 {"name": "shin", "extras": {"tailrig_collider": dict(capsule, version=2)}},
                 {"name": "foot", "extras": {"tailrig_collider": dict(capsule, b=[0, 1])}}],
       "skins": [{"joints": [0, 1, 2], "inverseBindMatrices": 0}]}
with tempfile.TemporaryDirectory() as work:
    path = os.path.join(work, "joints.gltf")
    with open(path, "w") as f:
        json.dump(doc, f)
    joints = glb_joints.read_joint_colliders(path)
check([j["name"] for j in joints] == ["thigh", "shin", "foot"], "joints: %s" % [j["name"] for j in joints])
want = [[2, 0, 0, 1], [0, 2, 0, 2], [0, 0, 2, 3], [0, 0, 0, 1]]
check(all(abs(x - y) < 1e-6 for r, w in zip(joints[0]["bind"], want) for x, y in zip(r, w)),
      "thigh bind: %s" % joints[0]["bind"])
check(joints[0]["collider"] == {"a": [0.0, 0.0, 0.0], "b": [0.0, 1.0, 0.0], "radius_a": 0.2, "radius_b": 0.1},
      "thigh collider: %s" % joints[0]["collider"])
check(joints[1]["collider"] is None and joints[2]["collider"] is None,
      "version 2 / malformed capsules read: %s %s" % (joints[1]["collider"], joints[2]["collider"]))

if failures:
    sys.exit(1)
print("blender_addon_cli: all checks passed")

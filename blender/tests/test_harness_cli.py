#!/usr/bin/python3
"""The add-on's harness runner and result card without Blender (ctest
blender_addon_cli): a failing harness becomes one HarnessError line (its last
stderr line, not a `repaired:` note), a missing binary is one line, and the
card shows class, length in scene units, K, attachment and why a region was
left alone. Exit 0 pass, 1 fail."""
import os
import stat
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tailrig"))
import card  # noqa: E402
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

if failures:
    sys.exit(1)
print("blender_addon_cli: all checks passed")

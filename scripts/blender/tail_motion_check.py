#!/usr/bin/python3
"""Baked tail motion in scale with the artist's (issue 45 class 9), measured
with Blender's own skinning.

  tail_motion_check.py --harness H --blender B --assets ASSETS --manifest M
                       --work DIR [--low 0.5] [--high 2.0] [--samples 48]

Every shared character the corpus manifest lists with its own tail bones
("tail": "bones") and a walk clip ("walk"), whose file exists:
1. `harness strip-tail` (a humanoid rigger's output: the tail skinned to
   the body), then `harness fix --bake` (the product path: grows Tail_1..K
   and bakes the spring into every clip);
2. one Blender session (scripts/blender/tail_motion.py) measures the tail
   tip's motion over the walk in the frame of the bone the artist's tail
   hangs from, on the artist's file and on the baked one (the same tip
   vertices);
3. the ratio baked / artist of the tip's RMS motion and of its range must
   lie in [low, high] for every character, and no baked clip may print
   "not converged". The pelvis column (the frame bone's own motion, what
   the spring is shaken by) is printed for the reader.
Prints the table. Exit 0 when every ratio holds, 1 when one does not, 2 on an
error, 77 when no such character's file exists.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-2000:] + r.stderr[-2000:])
        raise RuntimeError("failed (%d): %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def tailed_characters(a):
    with open(a.manifest) as f:
        entries = json.load(f)["entries"]
    out = []
    for e in entries:
        if "file" in e and e.get("tail") == "bones" and e.get("walk"):
            path = os.path.join(a.assets, "characters", e["file"])
            if os.path.exists(path):
                out.append((os.path.splitext(e["file"])[0], path, e["walk"]))
            else:
                print("missing asset %s: skipped" % path)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", required=True)
    ap.add_argument("--blender", required=True)
    ap.add_argument("--assets", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--low", type=float, default=0.5)
    ap.add_argument("--high", type=float, default=2.0)
    ap.add_argument("--samples", type=int, default=48)
    a = ap.parse_args()
    chars = tailed_characters(a)
    if not chars:
        return 77
    os.makedirs(a.work, exist_ok=True)
    items, fails = [], []
    for name, path, clip in chars:
        stripped = os.path.join(a.work, name + "_stripped.glb")
        baked = os.path.join(a.work, name + "_baked.glb")
        run([a.harness, "strip-tail", path, "--out", stripped])
        out = run([a.harness, "fix", stripped, "--bake", "--out", baked])
        for line in out.splitlines():
            if "not converged" in line:
                fails.append("%s: %s" % (name, line.strip()))
        items += ["--item", path, baked, clip, os.path.join(a.work, name + ".json")]
    run([a.blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python",
         os.path.join(HERE, "tail_motion.py"), "--", "--samples", str(a.samples)] + items)
    print("Tail tip motion over the walk in the frame of the bone the artist's tail hangs from (Blender, %d samples);"
          " baked = strip-tail + fix --bake; ratio must lie in [%.2g, %.2g]" % (a.samples, a.low, a.high))
    print("| character | clip | tail / H | pelvis RMS | artist RMS | baked RMS | ratio | artist range | baked range | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, _, clip in chars:
        with open(os.path.join(a.work, name + ".json")) as f:
            d = json.load(f)
        art, bk = d["artist"], d["other"]
        r_rms = bk["rms"] / art["rms"] if art["rms"] > 0 else float("inf")
        r_rng = bk["range"] / art["range"] if art["range"] > 0 else float("inf")
        print("| %s | %s | %.2f | %.2f %% H | %.2f %% H | %.2f %% H | %.2f | %.2f %% H | %.2f %% H | %.2f |" %
              (name, clip, d["tail_length"] / d["H"], 100 * art["frame_bone_rms_rel_H"], 100 * art["rms_rel_H"], 100 * bk["rms_rel_H"], r_rms,
               100 * art["range_rel_H"], 100 * bk["range_rel_H"], r_rng))
        for what, r in (("RMS", r_rms), ("range", r_rng)):
            if not a.low <= r <= a.high:
                fails.append("%s: baked/artist tip %s %.2f outside [%.2g, %.2g]" % (name, what, r, a.low, a.high))
    for f in fails:
        print("  FAIL " + f)
    print("tail_motion_check: %s" % ("%d failed" % len(fails) if fails else "all %d characters in scale" % len(chars)))
    return 1 if fails else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, OSError, KeyError, ValueError) as e:
        print("tail_motion_check: error: %s" % e, file=sys.stderr)
        sys.exit(2)

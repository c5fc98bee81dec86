#!/usr/bin/python3
"""Every looping clip's bake settles (issue 45 class 9: "two Rat bakes print
'not converged'").

  bake_converges.py --harness HARNESS --assets ASSETS --manifest MANIFEST --work DIR
                    [--fixture NAME ...]

Per shared character the corpus manifest lists with tail bones: `harness
strip-tail` (a humanoid rigger's output), then `harness fix --bake --report`
(leg colliders on, as users run it). Per fixture: `harness fixture NAME`,
then `fix --bake --report`. Reads each report and fails when a clip baked
as a loop did not settle within the warm-up's pass limit, whether to one
loop or to a cycle of several (a tail striking the floor every other
stride: the bake writes the cycle's mean loop), or when its seam before
closing is over 0.5 deg on a bone. Prints one row per looping clip.
Exit 0 all settled, 1 one did not, 2 on an error, 77 when no input exists.
"""
import argparse
import json
import os
import subprocess
import sys

MAX_SEAM_DEG = 0.5


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print("failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
        sys.exit(2)
    return p.stdout


def inputs(a):
    out = []
    with open(a.manifest) as f:
        entries = json.load(f)["entries"]
    for e in entries:
        if "file" in e and e.get("tail") == "bones":
            path = os.path.join(a.assets, "characters", e["file"])
            if os.path.exists(path):
                out.append((os.path.splitext(e["file"])[0], path, True))
            else:
                print("missing asset %s: skipped" % path)
    for name in a.fixture:
        out.append(("fixture " + name, name, False))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", required=True)
    ap.add_argument("--assets", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--fixture", nargs="*", default=[])
    a = ap.parse_args()
    items = inputs(a)
    if not items:
        return 77
    os.makedirs(a.work, exist_ok=True)
    fails = []
    print("| input | clip | warm-up passes | settled | repeats every | seam max (deg) | tip range (% of H) |")
    print("|---|---|---|---|---|---|---|")
    for name, source, shared in items:
        stem = os.path.join(a.work, name.replace(" ", "_"))
        rigged = stem + "_in.glb"
        if shared:
            run([a.harness, "strip-tail", source, "--out", rigged])
        else:
            run([a.harness, "fixture", source, "--out", rigged])
        run([a.harness, "fix", rigged, "--bake", "--out", stem + "_baked.glb", "--report", stem + ".json"])
        with open(stem + ".json") as f:
            clips = json.load(f)["bake"]["clips"]
        for c in clips:
            if not c["looping"]:
                continue
            print("| %s | %s | %d | %s | %d | %.3f | %.1f |" % (
                name, c["name"], c["warmup_passes"], "yes" if c["warmup_converged"] else "NO",
                c.get("warmup_cycle_loops", 1), c["seam_max_deg"], c["tip_range_percent_H"]))
            if not c["warmup_converged"]:
                fails.append("%s %s: not converged after %d passes" % (name, c["name"], c["warmup_passes"]))
            elif c["seam_max_deg"] > MAX_SEAM_DEG:
                fails.append("%s %s: seam %.3f deg > %.1f" % (name, c["name"], c["seam_max_deg"], MAX_SEAM_DEG))
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

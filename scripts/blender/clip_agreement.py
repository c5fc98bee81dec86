#!/usr/bin/python3
"""Blender's skinning vs ours on one clip of one file (issue 11): runs
scripts/blender/measure_stretch.py in Blender and `harness stretch` on the
same file, clip and reference rig, and compares tail and body edge p99 and
torn fraction (agreement within --agree, default 0.02). Prints the table and
the body torn fraction; --max-body-torn F also fails when Blender's body torn
fraction is above F.

usage: clip_agreement.py --harness H --blender B FILE CLIP --ref REF.glb
                         --work DIR [--max-body-torn F] [--agree A]
Exit 0 when everything holds, 1 when a check fails, 2 on an error.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout[-2000:])
        raise RuntimeError("failed (%d): %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", required=True)
    ap.add_argument("--blender", required=True)
    ap.add_argument("file")
    ap.add_argument("clip")
    ap.add_argument("--ref", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--agree", type=float, default=0.02)
    ap.add_argument("--max-body-torn", type=float)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    bj, hj = os.path.join(a.work, "blender.json"), os.path.join(a.work, "harness.json")
    run([a.blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python",
         os.path.join(HERE, "measure_stretch.py"), "--", a.file, a.clip, "--ref", a.ref, "--json", bj])
    with open(hj, "w") as f:
        f.write(run([a.harness, "stretch", a.file, "--clip", a.clip, "--tail-from", a.ref, "--json"]))
    b, h = json.load(open(bj)), json.load(open(hj))
    fails = []
    print("%s, clip %s (tail set from %s)" % (os.path.basename(a.file), a.clip, os.path.basename(a.ref)))
    print("| set | Blender p99 | harness p99 | Blender torn | harness torn |\n|---|---|---|---|---|")
    for s in ("tail", "body"):
        print("| %s | %.3f | %.3f | %.2f %% | %.2f %% |" % (s, b[s]["p99"], h[s]["p99"], 100 * b[s]["torn_fraction"],
                                                       100 * h[s]["torn_fraction"]))
        for key in ("p99", "torn_fraction"):
            if abs(b[s][key] - h[s][key]) > a.agree:
                fails.append("%s %s: Blender %.4f vs harness %.4f (> %.2f)" % (s, key, b[s][key], h[s][key], a.agree))
    if a.max_body_torn is not None and b["body"]["torn_fraction"] > a.max_body_torn:
        fails.append("body torn %.2f %% > %.2f %%" % (100 * b["body"]["torn_fraction"], 100 * a.max_body_torn))
    for f in fails:
        print("  FAIL " + f)
    print("clip_agreement: %s" % ("pass" if not fails else "%d failed" % len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, OSError, KeyError, ValueError) as e:
        print("clip_agreement: error: %s" % e)
        sys.exit(2)

#!/usr/bin/python3
"""harness batch (issue 14): a folder of characters fixed one-shot and as 3
shards gives the same results; a rerun resumes (skips what is done); a broken
file fails alone with a one-line reason; usage errors exit 2.

  batch_test.py HARNESS WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

harness, work = sys.argv[1], sys.argv[2]
src = os.path.join(work, "characters")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(src)


def run(args, expect=0):
    p = subprocess.run([harness] + args, capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit("FAIL: harness %s: exit %d (expected %d)\n%s%s" % (" ".join(args), p.returncode, expect, p.stdout, p.stderr))
    return p


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)
    print("ok:", what)


# Tailed, tail-less and centimetre fixtures, a truncated GLB and a text file
# with a character extension.
for name, extra in [("fox", []), ("mouse", []), ("tailless", []), ("fox_cm", ["--unit-scale", "100"])]:
    fixture = "fox" if name == "fox_cm" else name
    run(["fixture", fixture, "--density", "0.3", "--out", os.path.join(src, name + ".glb")] + extra)
with open(os.path.join(src, "fox.glb"), "rb") as f:
    head = f.read(20000)
with open(os.path.join(src, "truncated.glb"), "wb") as f:
    f.write(head)
with open(os.path.join(src, "notes.fbx"), "w") as f:
    f.write("not an FBX file\n")
with open(os.path.join(src, "readme.txt"), "w") as f:
    f.write("ignored: not a character extension\n")
inputs = ["fox", "fox_cm", "mouse", "notes", "tailless", "truncated"]


def results(out):
    r = {}
    for n in inputs:
        with open(os.path.join(out, n + ".json")) as f:
            d = json.load(f)
        d.pop("seconds")
        r[n] = d
    return r


one = os.path.join(work, "one")
p = run(["batch", src, "--out", one, "--jobs", "2"])
check("failed: " in p.stdout and "summary: " in p.stdout, "one-shot run prints the aggregate table with its failures")
r1 = results(one)
check(r1["fox"]["status"] == "fixed" and r1["fox"]["chains"] == 1, "fox: fixed with one chain")
check(r1["fox_cm"]["chains"] == 1, "centimetre fox: one chain")
check(r1["tailless"]["status"] == "unchanged" and r1["tailless"]["chains"] == 0, "tailless: unchanged")
for bad in ("truncated", "notes"):
    reason = r1[bad].get("reason", "")
    check(r1[bad]["status"] == "failed" and reason and "\n" not in reason, "%s: failed with a one-line reason (%s)" % (bad, reason))
    check(not os.path.exists(os.path.join(one, bad + ".glb")), "%s: no output file next to the failure" % bad)
check(all(os.path.getsize(os.path.join(one, n + ".glb")) > 0 for n in ("fox", "mouse", "tailless")), "outputs written")
with open(os.path.join(one, "batch.json")) as f:
    summary = json.load(f)
check(summary["files"] == 6 and summary["by_status"].get("failed") == 2, "batch.json counts 6 files, 2 failed")

shards = os.path.join(work, "shards")
for i in range(3):
    run(["batch", src, "--out", shards, "--shard", "%d/3" % i, "--jobs", "1"])
check(results(shards) == r1, "3 shards give the one-shot run's results, file for file")
for n in ("fox", "mouse", "tailless"):
    with open(os.path.join(one, n + ".glb"), "rb") as a, open(os.path.join(shards, n + ".glb"), "rb") as b:
        check(a.read() == b.read(), "%s: the shard's output GLB is bit-identical to the one-shot one" % n)
counted = 0
for i in range(3):
    with open(os.path.join(shards, "batch.shard-%d-of-3.json" % i)) as f:
        counted += json.load(f)["files"]
check(counted == 6, "the shards' summaries partition the 6 files")

# Resume: a rerun runs nothing; a removed result is redone alone.
p = run(["batch", src, "--out", one])
check("6 already done, 0 to run" in p.stderr, "a rerun skips every finished file")
os.remove(os.path.join(one, "mouse.json"))
p = run(["batch", src, "--out", one])
check("5 already done, 1 to run" in p.stderr and results(one) == r1, "a missing result is redone, the rest kept")

# Usage and strictness.
run(["batch", src, "--out", one, "--strict"], expect=2)
run(["batch", src, "--out", one, "--shard", "3/3"], expect=2)
run(["batch", os.path.join(work, "nowhere"), "--out", one], expect=2)
lst = os.path.join(work, "list.txt")
with open(lst, "w") as f:
    f.write("# two files\ncharacters/fox.glb\n\ncharacters/tailless.glb\n")
listed = os.path.join(work, "listed")
run(["batch", lst, "--out", listed])
check(sorted(n for n in os.listdir(listed) if n.endswith(".json") and not n.startswith("batch")) ==
      ["fox.json", "fox.report.json", "tailless.json", "tailless.report.json"], "a list file names the files to fix")
print("batch_test: all checks passed")

#!/usr/bin/python3
"""Kill test (issue 15): `convert`, `fix` and `run --update-golden` killed
with SIGKILL at seeded random moments while replacing an older file must
leave either that older file or the complete new one, byte for byte (outputs
were written in place, and 2 of 179 kills left a partial file over a valid
older output). Half the delays are drawn uniformly over the command's
measured duration (re-measured every 10 kills, the load changes), half
around its end, so kills land while it reads, computes and writes.

usage: kill_test.py HARNESS DIR [--iterations N] [--seed S] [--bad-inputs DIR]
Exit 0 when every kill kept a whole file, 1 otherwise; prints the counts.
"""
import argparse
import glob
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("harness")
ap.add_argument("dir")
ap.add_argument("--iterations", type=int, default=20, help="kills per command")
ap.add_argument("--seed", type=int, default=15)
ap.add_argument("--bad-inputs", help="an existing make_bad_inputs.py output (the ctest fixture's); generated when absent")
a = ap.parse_args()
rng = random.Random(a.seed)
d = os.path.abspath(a.dir)
shutil.rmtree(d, ignore_errors=True)
os.makedirs(d)
here = os.path.dirname(os.path.abspath(__file__))


def check(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# Inputs: the fox fixture (a ~1 MB GLB, fix takes about half a second) and
# the bad-input corpus' ok_teleport scenario for the golden.
src = os.path.join(d, "in.glb")
check([a.harness, "fixture", "fox", "--out", src])
bad = os.path.abspath(a.bad_inputs) if a.bad_inputs else os.path.join(d, "bad")
if not os.path.exists(os.path.join(bad, "good.glb")):
    check([sys.executable, os.path.join(here, "make_bad_inputs.py"), bad])
scenarios = os.path.join(bad, "scenarios")
golden_dir = os.path.join(d, "golden")


def command(name, target):
    if name == "update-golden":
        return [a.harness, "run", "ok_teleport", "--scenarios", scenarios, "--golden", golden_dir,
                "--update-golden"]
    return [a.harness, name, src, "--out", target]


def older_bytes(name, new):
    """A valid older version of the target that differs from the new one."""
    if name == "update-golden":
        doc = json.loads(new)
        for m in doc.get("metrics", {}).values():
            if isinstance(m, dict) and isinstance(m.get("value"), (int, float)):
                m["value"] += 1.0
                break
        return json.dumps(doc, indent=1).encode()
    return open(os.path.join(bad, "good.glb"), "rb").read()


failures = []
totals = {}
for name in ("convert", "fix", "update-golden"):
    target = os.path.join(golden_dir, "ok_teleport.json") if name == "update-golden" else os.path.join(d, "out.glb")
    os.makedirs(golden_dir, exist_ok=True)
    # The complete new file and how long the command takes unkilled.
    t0 = time.monotonic()
    check(command(name, target))
    duration = time.monotonic() - t0
    new = open(target, "rb").read()
    old = older_bytes(name, new)
    counts = {"kept_old": 0, "complete_new": 0, "finished": 0}
    for i in range(a.iterations):
        with open(target, "wb") as f:
            f.write(old)
        if i % 10 == 9:  # the machine's load changes: follow the command's duration
            t0 = time.monotonic()
            check(command(name, target + ".ref"))
            duration = time.monotonic() - t0
            with open(target, "wb") as f:
                f.write(old)
        # Half the kills anywhere in the run, half near its end, where it writes.
        delay = rng.uniform(0.0, 1.1 * duration) if i % 2 else rng.uniform(0.7 * duration, 1.3 * duration)
        p = subprocess.Popen(command(name, target), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        finished = p.poll() is not None
        if not finished:
            p.send_signal(signal.SIGKILL)
        p.wait()
        got = open(target, "rb").read() if os.path.exists(target) else None
        if got == old and not finished:
            counts["kept_old"] += 1
        elif got == new:
            counts["finished" if finished else "complete_new"] += 1
        else:
            size = "missing" if got is None else "%d bytes" % len(got)
            failures.append("%s killed after %.3f s left %s (old %d, new %d bytes)" %
                            (name, delay, size, len(old), len(new)))
        # A kill leaves the temporary file of the write it interrupted; the
        # target itself is what must stay whole.
        # `run` also writes reports/last_results.json in the source tree.
        reports = os.path.join(here, "..", "..", "reports")
        for tmp in glob.glob(os.path.join(os.path.dirname(target), ".*.tmp-*")) + \
                glob.glob(os.path.join(reports, ".last_results.json.tmp-*")):
            os.remove(tmp)
    totals[name] = counts
    print("%s (%.2f s unkilled): %d kills kept the old file, %d left the complete new one, %d finished first" %
          (name, duration, counts["kept_old"], counts["complete_new"], counts["finished"]))

for f in failures[:20]:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print("ok: every killed write left the older file or the complete new one")

#!/usr/bin/python3
"""Mutation check (issue 15): seeded mutants of a GLB and a BVH through
`harness info` and `harness fix`. Counts signals, runs over the time limit,
runs over the memory limit and non-zero exits that print other than exactly
one stderr line. Exit 1 when any is found (the offending files are kept).

usage: mutate_check.py HARNESS SEED.glb SEED.bvh OUTDIR [--glb N] [--bvh N] [--seed S]
"""
import argparse
import os
import random
import resource
import struct
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("harness")
ap.add_argument("glb")
ap.add_argument("bvh")
ap.add_argument("out")
ap.add_argument("--glb-count", type=int, default=10000)
ap.add_argument("--bvh-count", type=int, default=1000)
ap.add_argument("--seed", type=int, default=15)
ap.add_argument("--timeout", type=float, default=10.0)
ap.add_argument("--rss-mib", type=int, default=1024)
a = ap.parse_args()
os.makedirs(a.out, exist_ok=True)
rng = random.Random(a.seed)

INTERESTING = [0, 1, 2, 3, 4, 7, 8, 255, 256, 65535, 65536, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]
FLOATS = [float("nan"), float("inf"), -float("inf"), 1e38, -1e38, 0.0, -0.0, 1e-38]


def mutate_glb(data):
    b = bytearray(data)
    json_len = struct.unpack_from("<I", b, 12)[0]
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        if len(b) < 28:
            break
        if kind < 0.35 and json_len > 0:  # JSON: digits and structure
            i = min(20 + rng.randrange(json_len), len(b) - 1)
            c = chr(b[i])
            if c.isdigit():
                b[i] = ord(rng.choice("0123456789"))
                if rng.random() < 0.3:  # make a number huge
                    b[i:i + 1] = str(rng.choice(INTERESTING + [18446744073709551608])).encode()
            else:
                b[i] = ord(rng.choice('{}[]:,"-0123456789e.'))
        elif kind < 0.7:  # binary chunk: interesting floats and ints
            start = 20 + json_len + 8
            if start + 8 <= len(b):
                i = rng.randrange(start, len(b) - 3) & ~3
                if rng.random() < 0.5:
                    struct.pack_into("<f", b, i, rng.choice(FLOATS))
                else:
                    struct.pack_into("<I", b, i, rng.choice(INTERESTING))
        elif kind < 0.85:  # truncate
            b = b[:rng.randrange(len(b))]
        else:  # random bytes anywhere
            i = rng.randrange(len(b))
            b[i] = rng.randrange(256)
    return bytes(b)


def mutate_bvh(text):
    toks = text.split(" ")
    for _ in range(rng.randint(1, 5)):
        i = rng.randrange(len(toks))
        r = rng.random()
        if r < 0.3:
            toks[i] = rng.choice(["nan", "inf", "-inf", "1e308", "4294967296", "-1", "0", "{", "}", "JOINT X {"])
        elif r < 0.5:
            toks.insert(i, rng.choice(["{", "}", "\n", "CHANNELS 3 Xrotation Yrotation Zrotation", "OFFSET 0 0 0"]))
        elif r < 0.7:
            del toks[i]
        else:
            toks[i] = toks[i][::-1]
    return " ".join(toks)


def limit():
    mib = a.rss_mib * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (mib * 4, mib * 4))  # address space: generous over RSS


stats = {"runs": 0, "signals": 0, "timeouts": 0, "multi_line": 0, "over_memory": 0}
bad = []


def run(path, args):
    stats["runs"] += 1
    cmd = [a.harness] + args
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=a.timeout, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        stats["timeouts"] += 1
        bad.append((path, "timeout", args))
        return
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    if ru.ru_maxrss > a.rss_mib * 1024:
        stats["over_memory"] += 1
    if p.returncode < 0 or p.returncode > 2:
        stats["signals"] += 1
        bad.append((path, "exit %d" % p.returncode, args))
    elif p.returncode != 0 and p.stderr.count(b"\n") != 1:
        stats["multi_line"] += 1
        bad.append((path, "%d stderr lines" % p.stderr.count(b"\n"), args))


glb = open(a.glb, "rb").read()
for k in range(a.glb_count):
    path = os.path.join(a.out, "m%05d.glb" % k)
    with open(path, "wb") as f:
        f.write(mutate_glb(glb))
    run(path, ["info", path])
    run(path, ["fix", path, "--out", os.path.join(a.out, "fixed.glb")])
    if not any(b[0] == path for b in bad):
        os.remove(path)
bvh = open(a.bvh).read()
for k in range(a.bvh_count):
    path = os.path.join(a.out, "m%05d.bvh" % k)
    with open(path, "w") as f:
        f.write(mutate_bvh(bvh))
    run(path, ["info", path])
    if not any(b[0] == path for b in bad):
        os.remove(path)
print("mutate_check:", ", ".join("%s=%d" % kv for kv in stats.items()))
for b in bad[:30]:
    print("  ", *b)
sys.exit(1 if bad or stats["over_memory"] else 0)

#!/usr/bin/python3
"""Mutation check (issue 15): seeded mutants of GLB and BVH files through
`harness info` and `harness fix`, each run measured on its own (wall time,
peak RSS from wait4). Counts signals, runs over the time limit, runs over
the memory limit and non-zero exits that do not print exactly one stderr
line (or that claim "wrote"). Exit 1 when any is found; the offending
mutants are kept in OUTDIR/bad/ and listed in OUTDIR/summary.json.

Mutant k of a kind is generated from its own RNG seeded with
"SEED:KIND:k", so any one of them can be regenerated alone:
  mutate_check.py HARNESS OUTDIR --glb a.glb --bvh a.bvh --only glb:51 --keep

usage: mutate_check.py HARNESS OUTDIR --glb SEED.glb... --bvh SEED.bvh...
         [--glb-count N] [--bvh-count N] [--start K] [--seed S] [--jobs J]
         [--timeout S] [--rss-mib M] [--only KIND:K] [--keep]

The issue-15 campaign (10,000 GLB and 1,000 BVH mutants, seed 15), from the
repository root with a Release build in build/ and the assets in A:
  h=build/harness/harness; $h fixture fox --density 0.25 --out /tmp/fox.glb
  $h fixture mouse_chained --density 0.25 --out /tmp/mouse.glb
  scripts/mutate_check.py $h /tmp/mc --glb /tmp/fox.glb /tmp/mouse.glb \
    A/characters/Fox.glb A/characters/Trex.glb --bvh A/clips/walk.bvh \
    A/clips/run.bvh A/clips/backflip.bvh
Mutant k of a kind mutates seed file k % (number of seed files).
"""
import argparse
import concurrent.futures
import json
import os
import random
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

INTS = [0, 1, 2, 3, 4, 7, 8, 16, 255, 256, 65535, 65536, 1 << 24, 0x7FFFFFFF, 0x80000000,
        0xFFFFFFFF, 1 << 32, 1 << 40, (1 << 63) - 1, (1 << 64) - 8, -1, -2]
JSON_FLOATS = [1e38, -1e38, 1e308, -1e308, 1e-38, 0.0, -0.0, 0.5, 1e9, -1e9, 3.4e38]
BIN_FLOATS = [float("nan"), float("inf"), -float("inf"), 1e38, -1e38, 0.0, -0.0, 1e-38, 1e-45, 1e9]
BIN_INTS = [0, 1, 2, 255, 256, 65535, 65536, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]
GLB_MAGIC, JSON_CHUNK, BIN_CHUNK = 0x46546C67, 0x4E4F534A, 0x004E4942


# --- GLB mutants -------------------------------------------------------------

def split_glb(data):
    """(json dict, bin bytes) of a well-formed GLB."""
    json_len = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + json_len])
    rest = data[20 + json_len:]
    binary = b""
    if len(rest) >= 8:
        bin_len = struct.unpack_from("<I", rest, 0)[0]
        binary = rest[8:8 + bin_len]
    return doc, bytearray(binary)


def join_glb(doc, binary):
    js = json.dumps(doc, allow_nan=True).encode()
    js += b" " * ((4 - len(js) % 4) % 4)
    binary = bytes(binary) + bytes((4 - len(binary) % 4) % 4)
    total = 12 + 8 + len(js) + (8 + len(binary) if binary else 0)
    out = struct.pack("<III", GLB_MAGIC, 2, total) + struct.pack("<II", len(js), JSON_CHUNK) + js
    if binary:
        out += struct.pack("<II", len(binary), BIN_CHUNK) + binary
    return out


def json_slots(node, path=()):
    """Every (container, key) under node: the places a mutation can hit."""
    slots = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for k, v in items:
        slots.append((node, k))
        if isinstance(v, (dict, list)):
            slots += json_slots(v)
    return slots


def mutate_json(rng, doc):
    slots = json_slots(doc)
    if not slots:
        return
    container, key = rng.choice(slots)
    value = container[key]
    r = rng.random()
    if isinstance(value, bool) or value is None:
        container[key] = rng.choice([0, 1, -1, "x", [], {}, not value])
    elif isinstance(value, int):
        if r < 0.6:
            container[key] = rng.choice(INTS)
        elif r < 0.9:
            container[key] = value + rng.choice([-1, 1, 2, 1000])
        else:
            container[key] = rng.choice([float(value) + 0.5, str(value), [value], None])
    elif isinstance(value, float):
        container[key] = rng.choice(JSON_FLOATS + [value * 1e6, -value, float("nan"), float("inf")]
                                    if r < 0.1 else JSON_FLOATS + [value * 1e6, -value])
    elif isinstance(value, str):
        container[key] = rng.choice(["", "x" * 300, value + value, 7, "data:,", "../../etc/passwd"])
    elif isinstance(value, list):
        if value and r < 0.35:
            del value[rng.randrange(len(value))]
        elif value and r < 0.7:
            value.insert(rng.randrange(len(value) + 1), json.loads(json.dumps(rng.choice(value))))
        elif value and r < 0.85:
            rng.shuffle(value)
        else:
            container[key] = rng.choice([[], {}, 0, [value], "x"])
    elif isinstance(value, dict):
        if value and r < 0.5:
            del value[rng.choice(list(value))]
        elif r < 0.8:
            value[rng.choice(["byteStride", "byteOffset", "count", "sparse", "min", "max", "normalized",
                              "skeleton", "extensionsRequired", "children", "matrix"])] = rng.choice(
                INTS + [[0] * 16, {"count": 1 << 30}, ["KHR_draco_mesh_compression"], [0, 0, 0, 0]])
        else:
            container[key] = rng.choice([[], 0, None, "x"])


def accessor_span(doc, binary, rng):
    """(start, end) bytes of a random accessor's data in the bin chunk."""
    accs = [a for a in doc.get("accessors", []) if isinstance(a, dict) and isinstance(a.get("bufferView"), int)]
    views = doc.get("bufferViews", [])
    if not accs:
        return 0, len(binary)
    a = rng.choice(accs)
    try:
        v = views[a["bufferView"]]
        start = int(v.get("byteOffset", 0)) + int(a.get("byteOffset", 0))
        end = int(v.get("byteOffset", 0)) + int(v["byteLength"])
    except (IndexError, KeyError, TypeError, ValueError):
        return 0, len(binary)
    start, end = max(0, min(start, len(binary))), max(0, min(end, len(binary)))
    return (start, end) if end - start >= 4 else (0, len(binary))


def mutate_bin(rng, doc, binary):
    if len(binary) < 4:
        return
    start, end = accessor_span(doc, binary, rng) if rng.random() < 0.8 else (0, len(binary))
    if rng.random() < 0.3:  # scale or collapse a whole accessor: tiny or huge models, degenerate meshes
        factor = rng.choice([0.0, -1.0, 1e-30, 1e-12, 1e-6, 1e3, 1e6, 1e8, 9.9e8])
        axis = rng.choice([None, 0, 1, 2])
        for n, i in enumerate(range(start & ~3, end - 3, 4)):
            if axis is None or n % 3 == axis:
                x = struct.unpack_from("<f", binary, i)[0] * factor
                struct.pack_into("<f", binary, i, x if abs(x) < 3e38 else 3e38)
        return
    for _ in range(rng.choice([1, 1, 2, 8, 64])):
        i = (start + rng.randrange(max(1, end - start - 3))) & ~3
        if i + 4 > len(binary):
            continue
        if rng.random() < 0.5:
            struct.pack_into("<f", binary, i, rng.choice(BIN_FLOATS))
        elif rng.random() < 0.5:
            struct.pack_into("<I", binary, i, rng.choice(BIN_INTS))
        else:
            struct.pack_into("<H", binary, i, rng.choice([0, 1, 255, 65535, 40000]))


def mutate_raw(rng, data):
    b = bytearray(data)
    r = rng.random()
    if r < 0.4:
        return bytes(b[:rng.randrange(len(b))])
    if r < 0.6 and len(b) >= 24:  # chunk or header lengths
        struct.pack_into("<I", b, rng.choice([8, 12]), rng.choice(INTS[:14]))
        return bytes(b)
    for _ in range(rng.randint(1, 8)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def glb_mutant(rng, seed_bytes):
    try:
        doc, binary = split_glb(seed_bytes)
    except (ValueError, struct.error):
        return mutate_raw(rng, seed_bytes)
    r = rng.random()
    if r < 0.1:
        return mutate_raw(rng, seed_bytes)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
        if rng.random() < 0.55:
            mutate_json(rng, doc)
        else:
            mutate_bin(rng, doc, binary)
    return join_glb(doc, binary)


# --- BVH mutants -------------------------------------------------------------

BVH_TOKENS = ["nan", "inf", "-inf", "1e308", "-1e308", "1e38", "4294967296", "2147483648", "-1", "0",
              "{", "}", "JOINT X {", "End Site {", "CHANNELS", "MOTION", "Frames:", "1e-320"]


def bvh_mutant(rng, text):
    lines = text.split("\n")

    def pick(lo, hi):  # a line index in [lo, hi), clamped to the text; None when empty
        lo, hi = max(0, lo), min(hi, len(lines))
        return rng.randrange(lo, hi) if lo < hi else None

    for _ in range(rng.choice([1, 1, 2, 3, 6])):
        motion = next((i for i, s in enumerate(lines) if s.strip() == "MOTION"), len(lines))
        r = rng.random()
        if r < 0.15:  # Frames / Frame Time lines
            i = pick(motion + 1, motion + 3)
            if i is not None:
                head = lines[i].split(":")[0]
                lines[i] = "%s: %s" % (head, rng.choice(["0", "1", "-1", "4294967296", "1000001", "nan", "1e-9",
                                                         "1e9", "2", "", "x"]))
        elif r < 0.35:  # a number in a MOTION row
            i = pick(motion + 3, len(lines))
            toks = lines[i].split() if i is not None else []
            if toks:
                toks[rng.randrange(len(toks))] = rng.choice(BVH_TOKENS[:10] + ["%g" % rng.uniform(-1e4, 1e4)])
                lines[i] = " ".join(toks)
        elif r < 0.5:  # hierarchy line: OFFSET / CHANNELS numbers, names, braces
            i = pick(0, motion)
            toks = lines[i].split() if i is not None else []
            if toks:
                toks[rng.randrange(len(toks))] = rng.choice(BVH_TOKENS + ["Xrotation", "Wrotation", "7", "3"])
                lines[i] = " ".join(toks)
        elif r < 0.6:  # delete or duplicate a block of lines
            i = pick(0, len(lines))
            n = rng.choice([1, 1, 3, 10])
            if i is None:
                pass
            elif rng.random() < 0.5:
                del lines[i:i + n]
            else:
                lines[i:i] = lines[i:i + n]
        elif r < 0.7:  # a row with fewer or more values
            i = pick(motion + 3, len(lines))
            if i is not None:
                toks = lines[i].split()
                lines[i] = " ".join(toks[:rng.randrange(len(toks) + 1)] if rng.random() < 0.5 else toks + toks[:7])
        elif r < 0.8:  # deep or wide nesting
            i = pick(1, motion) or 0
            depth = rng.choice([2, 50, 1001, 5000])
            lines[i:i] = ["JOINT D%d {\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation" % k
                          for k in range(depth)] + ["}"] * depth
        elif r < 0.9:  # random bytes
            s = bytearray("\n".join(lines).encode("latin-1", "replace"))
            for _ in range(rng.randint(1, 6)):
                if s:
                    s[rng.randrange(len(s))] = rng.randrange(256)
            lines = s.decode("latin-1").split("\n")
        else:  # truncate
            lines = lines[:rng.randrange(len(lines) + 1)]
    return "\n".join(lines).encode("latin-1", "replace")


# --- Running -----------------------------------------------------------------

def run_measured(cmd, timeout, as_limit_bytes, workdir):
    """(exit code or -signal, stderr, stdout head, seconds, peak RSS KiB, timed_out)."""
    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (as_limit_bytes, as_limit_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    with tempfile.TemporaryFile(dir=workdir) as err, tempfile.TemporaryFile(dir=workdir) as out:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, preexec_fn=limits)
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            os.kill(p.pid, signal.SIGKILL)
        timer = threading.Timer(timeout, kill)
        timer.start()
        _, status, ru = os.wait4(p.pid, 0)  # per-child rusage: its own peak RSS
        timer.cancel()
        p.returncode = 0  # reaped here; keep Popen from waiting again
        seconds = time.monotonic() - t0
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        err.seek(0)
        out.seek(0)
        return code, err.read(), out.read(4096), seconds, ru.ru_maxrss, timed_out.is_set()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("harness")
    ap.add_argument("out")
    ap.add_argument("--glb", nargs="+", default=[])
    ap.add_argument("--bvh", nargs="+", default=[])
    ap.add_argument("--glb-count", type=int, default=10000)
    ap.add_argument("--bvh-count", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0, help="first mutant index of each kind")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--rss-mib", type=int, default=1024)
    ap.add_argument("--as-limit-mib", type=int, default=4096, help="address-space cap that protects the machine")
    ap.add_argument("--only", help="KIND:K, one mutant")
    ap.add_argument("--keep", action="store_true", help="keep every mutant")
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "bad"), exist_ok=True)
    work = tempfile.mkdtemp(prefix="work", dir=a.out)
    seeds = {"glb": [open(p, "rb").read() for p in a.glb], "bvh": [open(p, "r", encoding="latin-1").read() for p in a.bvh]}
    seed_names = {"glb": a.glb, "bvh": a.bvh}

    jobs = []
    if a.only:
        kind, k = a.only.split(":")
        jobs.append((kind, int(k)))
    else:
        jobs += [("glb", k) for k in range(a.start, a.start + a.glb_count)] if seeds["glb"] else []
        jobs += [("bvh", k) for k in range(a.start, a.start + a.bvh_count)] if seeds["bvh"] else []

    stats = {"glb_mutants": 0, "bvh_mutants": 0, "runs": 0, "signals": 0, "timeouts": 0, "over_memory": 0,
             "multi_line": 0, "claims_wrote": 0, "generator_errors": 0, "exit_codes": {}, "max_seconds": 0.0, "max_rss_mib": 0.0,
             "total_run_seconds": 0.0}
    worst = {"seconds": None, "rss": None}
    bad = []
    lock = threading.Lock()

    def one(kind, k):
        rng = random.Random("%d:%s:%d" % (a.seed, kind, k))
        seed_index = k % len(seeds[kind])
        try:
            data = (glb_mutant if kind == "glb" else bvh_mutant)(rng, seeds[kind][seed_index])
        except Exception as e:  # a generator bug must not end a long campaign; it is counted
            with lock:
                stats["generator_errors"] += 1
                bad.append({"mutant": "%s:%d" % (kind, k), "problems": ["generator: %r" % e], "command": "",
                            "stderr": []})
            return True
        path = os.path.join(work, "m_%s_%05d.%s" % (kind, k, kind))
        with open(path, "wb") as f:
            f.write(data)
        fixed = os.path.join(work, "fixed_%s_%05d.glb" % (kind, k))
        problems = []
        for cmd in (["info", path], ["fix", path, "--out", fixed]):
            code, err, out, secs, rss_kib, timed_out = run_measured(
                [a.harness] + cmd, a.timeout, a.as_limit_mib << 20, work)
            lines = err.count(b"\n") + (1 if err and not err.endswith(b"\n") else 0)
            found = []
            if timed_out:
                found.append("timeout")
            elif code < 0 or code > 2:
                found.append("signal/exit %d" % code)
            if rss_kib > a.rss_mib * 1024 or b"bad_alloc" in err:
                found.append("memory %.0f MiB" % (rss_kib / 1024))
            if code not in (0,) and not timed_out and lines != 1:
                found.append("%d stderr lines" % lines)
            if code != 0 and b"wrote" in out.lower():
                found.append("claims wrote")
            with lock:
                stats["runs"] += 1
                stats["exit_codes"][str(code)] = stats["exit_codes"].get(str(code), 0) + 1
                stats["total_run_seconds"] += secs
                if secs > stats["max_seconds"]:
                    stats["max_seconds"] = secs
                    worst["seconds"] = "%s:%d %s" % (kind, k, cmd[0])
                if rss_kib / 1024 > stats["max_rss_mib"]:
                    stats["max_rss_mib"] = rss_kib / 1024
                    worst["rss"] = "%s:%d %s" % (kind, k, cmd[0])
                stats["timeouts"] += "timeout" in found
                stats["signals"] += any(f.startswith("signal") for f in found)
                stats["over_memory"] += any(f.startswith("memory") for f in found)
                stats["multi_line"] += any(f.endswith("stderr lines") for f in found)
                stats["claims_wrote"] += "claims wrote" in found
            if found:
                first = err.decode("utf-8", "replace").strip().split("\n")[:3]
                problems.append({"mutant": "%s:%d" % (kind, k), "seed_file": seed_names[kind][seed_index],
                                 "command": cmd[0], "exit": code, "seconds": round(secs, 2),
                                 "rss_mib": round(rss_kib / 1024, 1), "problems": found, "stderr": first})
        with lock:
            stats[kind + "_mutants"] += 1
            bad.extend(problems)
        if problems or a.keep:
            shutil.copy(path, os.path.join(a.out, "bad" if problems else "", os.path.basename(path)))
        for p in (path, fixed):
            if os.path.exists(p):
                os.remove(p)
        return bool(problems)

    def summary():
        with lock:
            s = dict(stats, worst=dict(worst), seed=a.seed, start=a.start, seeds=seed_names,
                     timeout_s=a.timeout, rss_limit_mib=a.rss_mib, bad=list(bad))
        s["max_seconds"] = round(s["max_seconds"], 3)
        s["max_rss_mib"] = round(s["max_rss_mib"], 1)
        s["total_run_seconds"] = round(s["total_run_seconds"], 1)
        tmp = os.path.join(a.out, "summary.json.tmp")
        with open(tmp, "w") as f:
            json.dump(s, f, indent=1)
        os.replace(tmp, os.path.join(a.out, "summary.json"))
        return s

    t0 = time.monotonic()
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = [pool.submit(one, kind, k) for kind, k in jobs]
        for f in concurrent.futures.as_completed(futures):
            f.result()
            done += 1
            if done % 100 == 0 or done == len(jobs):
                s = summary()
                print("mutate_check: %d/%d mutants, %.0f s: runs=%d signals=%d timeouts=%d over_memory=%d "
                      "multi_line=%d max %.2f s %.0f MiB" % (done, len(jobs), time.monotonic() - t0, s["runs"],
                      s["signals"], s["timeouts"], s["over_memory"], s["multi_line"], s["max_seconds"],
                      s["max_rss_mib"]), flush=True)
    shutil.rmtree(work, ignore_errors=True)
    s = summary()
    for b in s["bad"][:30]:
        print("  ", b["mutant"], b["command"], b["problems"], b["stderr"][:1])
    sys.exit(1 if s["bad"] else 0)


if __name__ == "__main__":
    main()

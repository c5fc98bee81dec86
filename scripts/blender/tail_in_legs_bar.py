#!/usr/bin/python3
"""The tail stays out of the legs (issue 46), measured with Blender's skinning.

  tail_in_legs_bar.py --harness HARNESS --blender BLENDER --assets ASSETS --work DIR
                      [--characters Wolf.glb Rat.glb ...] [--fixture fox] [--samples 48]
                      [--report-dir DIR]

Per shared tailed character: `harness strip-tail` (a humanoid rigger's
output), then `harness fix --bake` (leg capsules fitted and stored, the
tail baked against them). Per fixture (tail weighted to the legs by the
rigger): `harness fixture NAME`, then `fix --bake`.
Blender (measure_tail_in_legs.py, one session for everything) measures on
the walk, the run or gallop, a jump and an attack of each (clips chosen by
name token, the first clip of each kind the file has):

- the artist's own keyed tail in the original file and the baked Tail_*
  chain in the fixed file, the same tail vertices (the artist's tail bones
  dominate them; on a fixture the fixed file's Tail_* bones, and its own
  tail is the rigger's, weighted to the legs and hips), against the leg
  capsules the fixed file stores;
- per clip: samples whose deepest tail vertex is more than 1 % of H inside a
  leg capsule, and the deepest (negative: the tail's clearance from the
  nearest capsule).

Bars per clip (issue 46): baked samples over 1 % of H <= the artist's, and
the baked deepest <= 1.5 % of H. --known-gaps lists (character, clip) pairs
whose missed bar is reported, not failed; a listed pair that holds fails
until it is taken off the list. Prints a table; writes tail_in_legs.json/.md
to the work dir (and the report dir). Exit 0 when every bar holds, 1 when
one fails, 2 on an error, 77 when no character exists.
"""
import argparse
import json
import os
import subprocess
import sys

MAX_DEPTH_REL_H = 0.015
KINDS = (("walk", ("walk",), ()), ("run", ("run", "gallop", "sprint"), ("jump",)),
         ("jump", ("jump",), ()), ("attack", ("attack",), ()))
DEFAULT_CHARACTERS = ("Wolf.glb", "Rat.glb", "Trex.glb", "ShibaInu.glb", "Apatosaurus.glb")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise RuntimeError("failed (%d): %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def tokens(name):
    out, cur = [], ""
    for ch in name.lower():
        if ch.isalpha():
            cur += ch
        else:
            if cur:
                out.append(cur)
            cur = ""
    if cur:
        out.append(cur)
    return out


def clips_of(harness, path):
    """The file's clip names (harness info --json)."""
    info = json.loads(run([harness, "info", path, "--json"]))
    return [c["name"] for c in info.get("clips", [])]


def pick_clips(names):
    """Per kind, the first clip whose name has one of the kind's tokens and none of its excluded ones."""
    out = []
    for _, want, exclude in KINDS:
        for n in names:
            t = tokens(n.split("|")[-1])
            if any(w in t for w in want) and not any(x in t for x in exclude) and n not in out:
                out.append(n)
                break
    return out


def prepare(a, name, source, fixture):
    work = os.path.join(a.work, name)
    os.makedirs(work, exist_ok=True)
    fixed = os.path.join(work, "fixed_baked.glb")
    if fixture:
        original = os.path.join(work, "fixture.glb")
        run([a.harness, "fixture", source, "--out", original])
        run([a.harness, "fix", original, "--bake", "--out", fixed])
    else:
        original = source
        stripped = os.path.join(work, "stripped.glb")
        run([a.harness, "strip-tail", source, "--out", stripped])
        run([a.harness, "fix", stripped, "--bake", "--out", fixed])
    clips = pick_clips(clips_of(a.harness, original))
    tail_from = fixed if fixture else original
    # On a fixture the "artist's own" tail is the rigger's: the same tail
    # vertices weighted to the legs and hips.
    return [{"name": name + " artist", "file": original, "tail_from": tail_from, "capsules_from": fixed,
             "clips": clips, "samples": a.samples},
            {"name": name + " baked", "file": fixed, "tail_from": tail_from, "capsules_from": fixed,
             "clips": clips, "samples": a.samples}]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", required=True)
    ap.add_argument("--blender", required=True)
    ap.add_argument("--assets", required=True, help="the shared assets folder (characters/ under it)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--characters", nargs="*", default=list(DEFAULT_CHARACTERS))
    ap.add_argument("--fixture", nargs="*", default=["fox"])
    ap.add_argument("--samples", type=int, default=48)
    ap.add_argument("--known-gaps", help="JSON list of {character, clip, why}: a bar these miss is reported, "
                    "not failed; one that holds again fails until it is taken off the list")
    ap.add_argument("--report-dir")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cases = [(os.path.splitext(c)[0], os.path.join(a.assets, "characters", c), False) for c in a.characters]
    present = [c for c in cases if os.path.exists(c[1])]
    for c in cases:
        if c not in present:
            print("missing asset %s: skipped" % c[1])
    if not present:
        return 77
    present += [(f + " fixture", f, True) for f in a.fixture]
    items = [x for name, source, fixture in present for x in prepare(a, name, source, fixture)]
    items_path = os.path.join(a.work, "items.json")
    out_path = os.path.join(a.work, "blender.json")
    with open(items_path, "w") as f:
        json.dump(items, f, indent=1)
    here = os.path.dirname(os.path.abspath(__file__))
    print(run([a.blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python",
               os.path.join(here, "measure_tail_in_legs.py"), "--", "--items", items_path, "--json", out_path]),
          end="")
    with open(out_path) as f:
        measured = {r["name"]: r for r in json.load(f)}
    return evaluate(a, present, measured)


def known_gaps(path):
    """{(character, clip): why} from --known-gaps."""
    if not path:
        return {}
    with open(path) as f:
        return {(g["character"], g["clip"]): g["why"] for g in json.load(f)}


def evaluate(a, present, measured):
    lines = ["| character | clip | artist: samples > 1 % H | artist deepest | baked: samples > 1 % H | baked deepest | bar |",
             "|---|---|---|---|---|---|---|"]
    fails, gaps = [], known_gaps(a.known_gaps)
    seen = set()
    for name, _, fixture in present:
        baked = measured[name + " baked"]
        artist = measured[name + " artist"]
        if baked["capsules"] == 0:
            fails.append("%s: the fixed file stores no leg capsule" % name)
        for clip, b in baked["clips"].items():
            o = artist["clips"][clip]
            ok_frames = b["over_1pct_fraction"] <= o["over_1pct_fraction"]
            ok_depth = b["max_depth_rel_H"] <= MAX_DEPTH_REL_H
            why = []
            if not ok_frames:
                why.append("more samples over 1 % H than the artist's")
            if not ok_depth:
                why.append("deeper than 1.5 % H")
            gap = gaps.get((name, clip))
            seen.add((name, clip))
            verdict = "ok" if not why else "FAIL: " + ", ".join(why)
            if gap is not None and why:
                verdict, why = "known gap: " + ", ".join(why), []
            elif gap is not None:
                verdict = "FAIL: a known gap that holds now: take it off the list"
                why = ["known gap holds now"]
            lines.append("| %s | %s | %s | %s | %.1f %% | %.2f %% H | %s |" % (
                name, clip.split("|")[-1], "%.1f %%" % (100 * o["over_1pct_fraction"]),
                "%.2f %% H" % (100 * o["max_depth_rel_H"]), 100 * b["over_1pct_fraction"],
                100 * b["max_depth_rel_H"], verdict))
            fails += ["%s %s: %s" % (name, clip, w) for w in why]
    for key in gaps:
        if key not in seen and any(key[0] == p[0] for p in present):
            fails.append("%s %s: a known gap for a clip not measured" % key)
    table = "\n".join(lines)
    print(table)
    for (name, clip), why in sorted(gaps.items()):
        print("  known gap %s %s: %s" % (name, clip.split("|")[-1], why))
    doc = {"bars": {"max_depth_rel_H": MAX_DEPTH_REL_H, "samples_over_1pct": "<= the artist's"},
           "measured": measured, "failures": fails}
    for d in [a.work] + ([a.report_dir] if a.report_dir else []):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "tail_in_legs.json"), "w") as f:
            json.dump(doc, f, indent=1)
        with open(os.path.join(d, "tail_in_legs.md"), "w") as f:
            f.write("# Baked tails against the artist's: tail skin in the legs, measured by Blender\n\n")
            f.write("strip-tail -> fix --bake (leg capsules fitted and stored), %d samples per clip, Blender 3.4's "
                    "skinning; depth = how far a tail vertex is inside a stored leg capsule (seam skin inside one at "
                    "rest not counted). Bars: baked samples over 1 %% of H <= the artist's, deepest <= 1.5 %% of H.\n\n"
                    % a.samples)
            f.write(table + "\n")
    print("tail_in_legs_bar: %s" % ("every bar holds" if not fails else "%d failed" % len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:
        print("tail_in_legs_bar: error: %s" % e, file=sys.stderr)
        sys.exit(2)

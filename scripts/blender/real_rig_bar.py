#!/usr/bin/python3
"""The real-rig bar of issue 12, measured with Blender's own skinning.

  real_rig_bar.py --harness HARNESS --blender BLENDER --rig Trex.glb --clip TRex_Walk
                  --work DIR [--report-dir reports/] [--name bake_trex]
  real_rig_bar.py --harness HARNESS --blender BLENDER --cases real_rig_bars.json
                  --assets ASSETS --work DIR [--report-dir reports/]

Per case (with --cases, every case; Blender starts once for all of them):

1. `harness strip-tail RIG` (a humanoid rigger's output), then
   `harness fix --bake` on it;
2. Blender (scripts/blender/measure_stretch.py) measures the artist's rig,
   the stripped rig and the fixed+baked rig on CLIP (24 samples, tail set =
   vertices the artist's tail bones dominate);
3. `harness stretch` measures the same three files with our own skinning:
   p99 and torn fraction must agree with Blender within 0.02 (issue 11);
4. the bar: fixed+baked tail p99 <= the artist's, no tail edge sample over
   1.5x (or under 0.67x), tip range in the hips frame >= half the artist's;
5. whole-body torn fraction (every mesh edge, tail and body, Blender) of each
   rig is printed; with --max-body-torn F the fixed+baked one must be <= F
   (issue 11: body torn <= 1 %);
6. a case's "strip_fix_bar" (issue 45: a rig whose tail the stripped file
   loses, fixed as a user would): fixed+baked tail p99 <= the stripped
   file's and <= max_tail_p99, body p99 and body torn fraction within
   body_p99_over_stripped / body_torn_over_stripped of the stripped file's;
   enforced, but for the checks its "known_gaps" name (id -> why), each
   printed with its reason; a known gap that holds fails (take it off).
Prints the table; writes NAME.json, NAME.md and NAME_tip.png (artist vs
baked tail tip over the clip) to the work dir and, if given, the report dir.
Exit 0 when everything holds, 1 when a check fails, 2 on an error, 77 when
no case's rig exists (a missing one is skipped).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from stretch_thresholds import TORN_HIGH, TORN_LOW  # noqa: E402

AGREE = 0.02


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise RuntimeError("failed (%d): %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def whole_torn(b):
    """Torn fraction over every mesh edge sample: tail and body edges share the samples, so weight by edge count."""
    t, o = b["tail"], b["body"]
    n = t["edges"] + o["edges"]
    return (t["torn_fraction"] * t["edges"] + o["torn_fraction"] * o["edges"]) / n if n > 0 else 0.0


def plot(path, rows, clip):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), dpi=110)
    names = ["lateral (x)", "up (y)", "forward (z)"]
    colours = {"artist": "#1f77b4", "stripped": "#7f7f7f", "fixed + baked": "#d62728"}
    for label, r in rows:
        tip = np.array(r["blender"]["tip"])
        t = np.array(r["blender"]["times"])
        tip = tip - tip.mean(axis=0)
        for k in range(3):
            axes[k].plot(t, tip[:, k], "-o", ms=3, lw=1.4, color=colours.get(label), label=label)
    for k in range(3):
        axes[k].set_title("tail tip, hips frame: " + names[k], fontsize=9)
        axes[k].set_xlabel("clip time (s)", fontsize=8)
        axes[k].grid(alpha=0.3)
        axes[k].tick_params(labelsize=8)
    axes[0].set_ylabel("offset from mean (Blender units)", fontsize=8)
    axes[0].legend(fontsize=8)
    fig.suptitle("%s: tail tip motion relative to the hips, measured by Blender" % clip, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", required=True)
    ap.add_argument("--blender", required=True)
    ap.add_argument("--rig", help="one case: the artist's rig")
    ap.add_argument("--clip", help="one case: its walk clip")
    ap.add_argument("--cases", help="instead of --rig/--clip: a JSON list of cases {name, rig (relative to --assets), "
                    "clip, solver?, enforce_bar?, max_body_torn?}; one Blender session measures them all")
    ap.add_argument("--assets", default=".", help="the folder --cases' rig paths are relative to")
    ap.add_argument("--work", required=True)
    ap.add_argument("--report-dir")
    ap.add_argument("--name", default="bake_trex")
    ap.add_argument("--solver", default="", help="spring parameter overrides (JSON) passed to fix --bake")
    ap.add_argument("--enforce-bar", action="store_true",
                    help="fail when the bar is not met (default: report it; Blender/harness agreement always fails)")
    ap.add_argument("--max-body-torn", type=float, default=None,
                    help="fail when the fixed+baked whole-body torn fraction (Blender) exceeds this (e.g. 0.01)")
    a = ap.parse_args()
    if (a.cases is None) == (a.rig is None) or (a.rig is not None and a.clip is None):
        ap.error("give --rig and --clip, or --cases")
    return a


def cases_of(a):
    """The cases to run: --cases' list, or the one --rig/--clip case (work dir --work itself)."""
    if a.rig is not None:
        return [argparse.Namespace(name=a.name, rig=a.rig, clip=a.clip, solver=a.solver, enforce_bar=a.enforce_bar,
                                   max_body_torn=a.max_body_torn, work=a.work, strip_fix_bar=None)]
    with open(a.cases) as f:
        doc = json.load(f)
    if not isinstance(doc, list) or not doc:
        raise ValueError("%s: expected a non-empty JSON list of cases" % a.cases)
    out = []
    for c in doc:
        solver = c.get("solver", "")
        out.append(argparse.Namespace(name=c["name"], rig=os.path.join(a.assets, c["rig"]), clip=c["clip"],
                                      solver=json.dumps(solver) if isinstance(solver, dict) else solver,
                                      enforce_bar=bool(c.get("enforce_bar", False)),
                                      max_body_torn=c.get("max_body_torn"), work=os.path.join(a.work, c["name"]),
                                      strip_fix_bar=c.get("strip_fix_bar")))
    return out


def prepare(a, c):
    """strip-tail then fix --bake; returns the (label, path, blender json) of the three files to measure."""
    os.makedirs(c.work, exist_ok=True)
    stripped = os.path.join(c.work, "stripped.glb")
    baked = os.path.join(c.work, "fixed_baked.glb")
    run([a.harness, "strip-tail", c.rig, "--out", stripped])
    fix_out = run([a.harness, "fix", stripped, "--bake", "--out", baked] + (["--solver", c.solver] if c.solver else []))
    print("%s: %s" % (c.name, fix_out.strip()))
    files = (("artist", c.rig), ("stripped", stripped), ("fixed + baked", baked))
    return [(label, path, os.path.join(c.work, label.replace(" + ", "_") + ".blender.json")) for label, path in files]


def main():
    a = parse_args()
    cases = cases_of(a)
    present = [c for c in cases if os.path.exists(c.rig)]
    for c in cases:
        if c not in present:
            print("missing asset %s: %s skipped" % (c.rig, c.name))
    if not present:
        return 77
    here = os.path.dirname(os.path.abspath(__file__))
    files = {c.name: prepare(a, c) for c in present}
    # One Blender session measures every file of every case.
    items = [x for c in present for _, path, js in files[c.name] for x in ("--item", path, c.clip, c.rig, js)]
    run([a.blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python",
         os.path.join(here, "measure_stretch.py"), "--"] + items)
    code = 0
    for c in present:
        code = max(code, evaluate(a, c, files[c.name]))
    return code


def strip_fix_bar(c, stripped, fixed):
    """Issue 45's bar for a stripped rig fixed as a user would (the case's "strip_fix_bar"): failures."""
    bar = c.strip_fix_bar
    if not bar:
        return []
    gaps = bar.get("known_gaps", {})
    tail_cap = min(stripped["tail"]["p99"], bar["max_tail_p99"])
    checks = [
        ("tail_p99", fixed["tail"]["p99"] <= tail_cap,
         "fixed+baked tail p99 %.4f <= min(stripped %.4f, %.2f)" % (fixed["tail"]["p99"], stripped["tail"]["p99"],
                                                                    bar["max_tail_p99"])),
        ("body_p99", fixed["body"]["p99"] <= stripped["body"]["p99"] + bar["body_p99_over_stripped"],
         "fixed+baked body p99 %.4f <= stripped %.4f + %.2f" % (fixed["body"]["p99"], stripped["body"]["p99"],
                                                                bar["body_p99_over_stripped"])),
        ("body_torn", fixed["body"]["torn_fraction"] <= stripped["body"]["torn_fraction"] + bar["body_torn_over_stripped"],
         "fixed+baked body torn %.2f %% <= stripped %.2f %% + %.1f points" % (
             100 * fixed["body"]["torn_fraction"], 100 * stripped["body"]["torn_fraction"],
             100 * bar["body_torn_over_stripped"])),
    ]
    unknown = set(gaps) - {k for k, _, _ in checks}
    fails = ["strip_fix_bar: unknown known gap %r" % k for k in sorted(unknown)]
    for key, ok, line in checks:
        if key in gaps and ok:  # failures are printed with the case's others
            fails.append("strip_fix_bar: %s: a known gap that holds now: take it off the list" % line)
        elif key in gaps:
            print("  known gap %s (%s)" % (line, gaps[key]))
        elif ok:
            print("  ok   " + line)
        else:
            fails.append("strip_fix_bar: " + line)
    return fails


def evaluate(a, c, files):
    """Prints the case's table and checks, writes NAME.json/.md/_tip.png; 0 ok, 1 a check failed."""
    rows = []
    for label, path, js in files:
        with open(js) as f:
            b = json.load(f)
        h = json.loads(run([a.harness, "stretch", path, "--clip", c.clip, "--tail-from", c.rig, "--json"]))
        rows.append((label, {"file": path, "blender": b, "harness": h}))

    fails = []
    print("\n%s, clip %s, 24 samples, Blender's skinning (harness stretch in brackets); fix --bake solver overrides: %s" %
          (os.path.basename(c.rig), c.clip, c.solver or "none (defaults)"))
    print("| rig | tail p95 | tail p99 | tail max | torn | tip range (hips frame) | body p99 |")
    print("|---|---|---|---|---|---|---|")
    for label, r in rows:
        b, h = r["blender"], r["harness"]
        print("| %s | %.2f | %.2f (%.2f) | %.2f | %.1f %% (%.1f %%) | %.3f = %.1f %% of H | %.2f |" %
              (label, b["tail"]["p95"], b["tail"]["p99"], h["tail"]["p99"], b["tail"]["max"],
               100 * b["tail"]["torn_fraction"], 100 * h["tail"]["torn_fraction"], b["tip_range"],
               100 * b["tip_range_rel_H"], b["body"]["p99"]))
        for key in ("p99", "torn_fraction"):
            for s in ("tail", "body"):
                d = abs(b[s][key] - h[s][key])
                if label != "stripped" and d > AGREE:
                    fails.append("%s %s %s: Blender %.4f vs harness %.4f (> %.2f)" % (label, s, key, b[s][key], h[s][key], AGREE))
        if b["tail"]["edges"] != h["tail"]["edges"]:
            fails.append("%s: tail edges Blender %d vs harness %d" % (label, b["tail"]["edges"], h["tail"]["edges"]))
    art, fixed = rows[0][1]["blender"], rows[2][1]["blender"]
    for label, r in rows:
        print("  whole-body torn (%s): %.2f %% (%d edges)" % (label, 100 * whole_torn(r["blender"]),
                                                          r["blender"]["tail"]["edges"] + r["blender"]["body"]["edges"]))
    if c.max_body_torn is not None:
        ok = whole_torn(fixed) <= c.max_body_torn
        print(("  ok   " if ok else "  FAIL ") + "fixed+baked whole-body torn %.2f %% <= %.2f %%" %
              (100 * whole_torn(fixed), 100 * c.max_body_torn))
        if not ok:
            fails.append("fixed+baked whole-body torn %.4f > %.4f" % (whole_torn(fixed), c.max_body_torn))
    checks = [
        (fixed["tail"]["p99"] <= art["tail"]["p99"], "fixed+baked tail p99 %.3f <= artist %.3f" % (fixed["tail"]["p99"], art["tail"]["p99"])),
        (fixed["tail"]["torn_fraction"] == 0 and fixed["tail"]["max"] <= TORN_HIGH,
         "fixed+baked: no tail edge sample torn (max %.3f, torn %.2f %%)" % (fixed["tail"]["max"], 100 * fixed["tail"]["torn_fraction"])),
        (fixed["tip_range"] >= 0.5 * art["tip_range"],
         "fixed+baked tip range %.3f >= half the artist's %.3f" % (fixed["tip_range"], art["tip_range"])),
    ]
    bar45 = strip_fix_bar(c, rows[1][1]["blender"], fixed)  # issue 45's bar: failures of its own
    bar_missed = []
    for ok, line in checks:
        print(("  ok   " if ok else "  NOT MET ") + line)
        if not ok:
            bar_missed.append(line)
    for f in fails + bar45:  # Blender/harness disagreement, issue 45's bar: always failures
        print("  FAIL " + f)
    doc = {"rig": c.rig, "clip": c.clip, "rows": [{"rig": l, **r} for l, r in rows], "failures": fails + bar45,
           "bar_not_met": bar_missed}
    outs = [c.work] + ([a.report_dir] if a.report_dir else [])
    for d in outs:
        os.makedirs(d, exist_ok=True)
        slim = {"rig": os.path.basename(c.rig), "clip": c.clip, "failures": fails + bar45, "bar_not_met": bar_missed,
                "rows": [{"rig": l, "blender": {k: v for k, v in r["blender"].items() if k not in ("file", "reference")},
                          "harness": {k: v for k, v in r["harness"].items() if k not in ("file", "reference")}}
                         for l, r in rows]}
        with open(os.path.join(d, c.name + ".json"), "w") as f:
            json.dump(slim if d != c.work else doc, f, indent=1)
        with open(os.path.join(d, c.name + ".md"), "w") as f:
            f.write("# %s: strip-tail -> fix --bake, measured by Blender\n\n" % os.path.basename(c.rig))
            f.write("Clip `%s`, 24 samples over the clip, Blender 3.4's glTF importer and armature skinning, Blender "
                    "mesh edges; tail set = vertices the artist's tail bones dominate. Torn = ratio > %g or < %g. "
                    "Tip range: largest distance between two tail-tip positions in the frame of the bone the artist's "
                    "tail hangs from. In brackets: `harness stretch` (our skinning) on the same file.\n\n"
                    % (c.clip, TORN_HIGH, TORN_LOW))
            f.write("`fix --bake` spring parameters: %s.\n\n" % ("defaults" if not c.solver else "defaults except `" + c.solver + "`"))
            f.write("| rig | tail p95 | tail p99 | tail max | torn | tip range | body p99 |\n|---|---|---|---|---|---|---|\n")
            for label, r in rows:
                b, h = r["blender"], r["harness"]
                f.write("| %s | %.2f | %.2f (%.2f) | %.2f | %.1f %% (%.1f %%) | %.3f (%.1f %% of H) | %.2f |\n" %
                        (label, b["tail"]["p95"], b["tail"]["p99"], h["tail"]["p99"], b["tail"]["max"],
                         100 * b["tail"]["torn_fraction"], 100 * h["tail"]["torn_fraction"], b["tip_range"],
                         100 * b["tip_range_rel_H"], b["body"]["p99"]))
            f.write("\nWhole-body torn (every edge, Blender): %s\n" % ", ".join(
                "%s %.2f %%" % (l, 100 * whole_torn(r["blender"])) for l, r in rows))
            f.write("\nBlender vs harness agreement (p99, torn within %.2f): %s\n" % (AGREE, "pass" if not fails else "FAIL"))
            f.write("Bar (tail p99 <= artist, 0 %% torn, tip range >= half the artist's): %s\n" %
                    ("met" if not bar_missed else "NOT MET"))
            for x in bar_missed:
                f.write("- not met: %s\n" % x)
            if c.strip_fix_bar:
                gaps = c.strip_fix_bar.get("known_gaps", {})
                f.write("Issue 45's bar (tail p99 <= the stripped file's and <= %g, body p99 / torn within %g / %g "
                        "points of the stripped file's): %s%s\n" % (
                            c.strip_fix_bar["max_tail_p99"], c.strip_fix_bar["body_p99_over_stripped"],
                            100 * c.strip_fix_bar["body_torn_over_stripped"], "FAIL" if bar45 else "pass",
                            "" if not gaps else " but for known gaps: " + ", ".join(sorted(gaps))))
            for x in fails + bar45:
                f.write("- FAIL %s\n" % x)
        try:
            plot(os.path.join(d, c.name + "_tip.png"), rows, c.clip)
        except ImportError as e:
            print("no plot (%s)" % e)
    print("real_rig_bar %s: Blender/harness agreement %s; bar %s%s%s" % (
        c.name, "pass" if not fails else "%d failed" % len(fails),
        "met" if not bar_missed else "NOT MET (%d)" % len(bar_missed),
        " (enforced)" if c.enforce_bar else " (reported)",
        "" if not c.strip_fix_bar else "; issue 45's bar %s" % ("pass" if not bar45 else "%d failed" % len(bar45))))
    return 1 if fails or bar45 or (c.enforce_bar and bar_missed) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:
        print("real_rig_bar: error: %s" % e, file=sys.stderr)
        sys.exit(2)

#!/usr/bin/python3
"""Plot bench_detect.csv (written by `harness bench --detect`) as a PNG.

usage: plot_bench_detect.py BENCH_DETECT.csv OUT.png

CPU seconds of each phase of `harness fix` (load, detect, save: warm in one
process) and of the whole command in a fresh process
against vertex count on log-log axes, the 1.5 s target at 1 M vertices as a
star, and an n log n reference through the smallest total. Deterministic
output (fixed size and dpi, no metadata).
"""

import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

PHASES = [("load_cpu_s", "load (rig::load, warm)", "#7f7f7f"), ("fix_cpu_s", "detect (detect::fix, warm)", "#1f77b4"),
          ("save_cpu_s", "save (rig::save_glb, warm)", "#ff7f0e"),
          ("command_cpu_s", "harness fix command (fresh process)", "black")]


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["command_cpu_s"]]
    if not rows:
        print("plot_bench_detect.py: no measured rows", file=sys.stderr)
        return 1
    n = [int(r["vertices"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    for key, label, colour in PHASES:
        ax.plot(n, [float(r[key]) for r in rows], marker="o", color=colour, label=label,
                linewidth=2 if key == "command_cpu_s" else 1)
    t0, n0 = float(rows[0]["command_cpu_s"]), n[0]
    ax.plot(n, [t0 * (v * math.log(v)) / (n0 * math.log(n0)) for v in n], linestyle="--", color="#bbbbbb",
            label="n log n from the smallest command")
    ax.plot([1e6], [1.5], marker="*", markersize=14, color="red", linestyle="none", label="target: 1.5 s at 1 M")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("vertices (fox fixture)")
    ax.set_ylabel("CPU seconds per run (user + system)")
    ax.set_title("harness bench --detect: fix at scale", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[2], metadata={"Software": None})
    print(f"wrote {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/python3
"""Plot reports/bench.csv (written by `harness bench`) as bench.png.

usage: plot_bench.py BENCH.csv OUT.png

One horizontal bar per case: CPU ns per joint-step (log scale), coloured by
solver, with the case's target as a black tick and pass/missed written
beside it, and the ratio to the reference kernel timed in the same run
(case ns / reference ns: what holds from one machine to the next).
Deterministic output (fixed size and dpi, no metadata).
"""

import csv
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {"scalar": "#7f7f7f", "baseline": "#ff7f0e", "avx2": "#1f77b4", "avx512": "#2ca02c"}


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["cpu_ns_per_joint_step"]]
    if not rows:
        print("plot_bench.py: no measured rows", file=sys.stderr)
        return 1
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(rows) + 1.4), dpi=110)
    names = [r["case"] for r in rows]
    values = [float(r["cpu_ns_per_joint_step"]) for r in rows]
    colours = [COLOURS["scalar" if r["solver"] == "scalar" else r["isa"]] for r in rows]
    y = list(range(len(rows)))[::-1]
    ax.barh(y, values, color=colours)
    for yi, r, v in zip(y, rows, values):
        label = f"{v:.1f}"
        if r["target_ns_per_joint_step"]:
            t = float(r["target_ns_per_joint_step"])
            ax.plot([t, t], [yi - 0.4, yi + 0.4], color="black", linewidth=2)
            label += f" / {t:.0f} {'pass' if v <= t else 'MISSED'}"
        if r["target_ms_per_frame"]:
            frame_ms = float(r.get("thread_ms_per_frame") or r["cpu_ms_per_frame"])
            frame_target = float(r["target_ms_per_frame"])
            threads = int(r.get("threads") or 1)
            label += f"; {frame_ms:.2f} ms/frame" + (f" (busiest of {threads} threads)" if threads > 1 else "")
            label += f" / {frame_target:g} {'pass' if frame_ms <= frame_target else 'MISSED'}"
        if r.get("ratio_to_reference"):
            label += f"  (x{float(r['ratio_to_reference']):.1f} ref)"
        ax.text(v * 1.05, yi, label, va="center", fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(names, fontsize=8)
    ax.set_xscale("log")
    ax.set_xlim(min(values) / 2, max(values) * 12)
    reference = rows[0].get("reference_ns_per_point")
    xlabel = "CPU ns per joint-step (log); black tick = target"
    if reference:
        xlabel += f"; reference kernel {float(reference):.2f} ns per point-step"
    ax.set_xlabel(xlabel)
    ax.set_title("harness bench: tail solver, every feature on, 60 fps frames", fontsize=10)
    fig.tight_layout()
    fig.savefig(argv[2], metadata={"Software": None})
    print(f"wrote {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

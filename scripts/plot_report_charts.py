"""Line and box figures of scripts/plot_report.py: NAME_stretch.png,
NAME_p99_time.png, NAME_hips.png and NAME_lift.png."""

import os

import numpy as np
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from plot_report_common import TORN_HIGH, TORN_LOW, VARIANT_STYLES, colour_for, plt, save, variant_order


def fmt_ratio(x, _pos=None):
    if x >= 10:
        return f"{x:.0f}"
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return s


def plot_stretch(sc, out_dir):
    rows = sc["rows"]
    order = variant_order([r["variant"] for r in rows])
    stats = []
    for r in rows:
        stats.append({
            "label": f"{r['variant']}\n({r['set']} edges)",
            "med": r["p50"], "q1": r["p25"], "q3": r["p75"],
            "whislo": r["p01"], "whishi": r["p99"],
            "fliers": [r["min"], r["max"]],
        })
    lo = min([r["min"] for r in rows] + [TORN_LOW])
    hi = max([r["max"] for r in rows] + [TORN_HIGH])
    ymin, ymax = lo / 1.35, hi * 1.6

    fig, ax = plt.subplots(figsize=(9, 5.6), layout="constrained")
    ax.set_yscale("log")
    ax.set_ylim(ymin, ymax)
    # Torn zones shaded, thresholds dashed.
    ax.axhspan(TORN_HIGH, ymax, color="#d62728", alpha=0.07, lw=0)
    ax.axhspan(ymin, TORN_LOW, color="#1f77b4", alpha=0.07, lw=0)
    ax.axhline(TORN_HIGH, ls="--", color="#d62728", lw=1.2, label=f"torn: ratio > {TORN_HIGH}")
    ax.axhline(TORN_LOW, ls="--", color="#1f77b4", lw=1.2, label=f"torn: ratio < {TORN_LOW}")
    ax.axhline(1.0, ls="-", color="#aaaaaa", lw=0.8, zorder=0)

    bp = ax.bxp(stats, showfliers=True, widths=0.5, patch_artist=True,
                medianprops={"color": "black", "lw": 1.8},
                whiskerprops={"lw": 1.2}, capprops={"lw": 1.2},
                flierprops={"marker": "o", "markersize": 5, "markerfacecolor": "white",
                            "markeredgecolor": "black"})
    for patch, r in zip(bp["boxes"], rows):
        patch.set_facecolor(colour_for(r["variant"], order))
        patch.set_alpha(0.55)
        patch.set_edgecolor("black")

    for i, r in enumerate(rows, start=1):
        txt = f"p99 {r['p99']:.2f}\nmax {r['max']:.2f}\ntorn {100 * r['torn_fraction']:.1f}%"
        ax.annotate(txt, xy=(i, r["max"]), xytext=(0, 8), textcoords="offset points",
                    ha="center", va="bottom", fontsize=8.5)

    ticks = [t for t in (0.1, 0.2, 0.3, 0.5, TORN_LOW, 0.8, 1.0, 1.25, TORN_HIGH, 2, 3, 4, 5, 7, 10)
             if ymin <= t <= ymax]
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(fmt_ratio))
    ax.set_ylabel("edge stretch ratio (skinned / bind length, log scale)")
    ax.set_title(f"{sc['name']}: edge stretch per variant\n"
                 "box p25–p75, line p50, whiskers p01–p99, dots min and max", fontsize=11)
    ax.legend(loc="lower right", fontsize=9, framealpha=0.9)
    ax.grid(axis="y", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
    path = os.path.join(out_dir, f"{sc['name']}_stretch.png")
    save(fig, path)


def plot_p99_time(sc, out_dir):
    times = sc["times"]
    order = variant_order(sc["p99"].keys())
    fig, ax = plt.subplots(figsize=(9, 5), layout="constrained")
    allv = [y for v in order for y in sc["p99"][v]]
    ymax = max(max(allv), TORN_HIGH) * 1.08
    ymin = min(min(allv), 1.0) - 0.05 * (ymax - 1.0)
    ax.axhspan(TORN_HIGH, max(ymax, TORN_HIGH) * 10, color="#d62728", alpha=0.07, lw=0)
    ax.axhline(TORN_HIGH, ls="--", color="#d62728", lw=1.2, label=f"torn threshold {TORN_HIGH}")
    ax.axhline(1.0, ls="-", color="#aaaaaa", lw=0.8)
    for v in order:
        ax.plot(times, sc["p99"][v], VARIANT_STYLES.get(v, "-"), color=colour_for(v, order),
                lw=2.0, marker="o", markersize=3.5, label=v)
    ax.set_ylim(ymin, ymax)
    if times:
        ax.set_xlim(times[0], times[-1])
    ax.set_xlabel("clip time (s)")
    ax.set_ylabel("p99 edge stretch ratio at this sample")
    ax.set_title(f"{sc['name']}: per-sample p99 stretch over the clip", fontsize=11)
    ax.grid(color="#e5e5e5", lw=0.6)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, framealpha=0.9)
    path = os.path.join(out_dir, f"{sc['name']}_p99_time.png")
    save(fig, path)


def group_identical(curves, order):
    """[(variants, ys)] grouping variants whose curves coincide, so overlaps are named."""
    groups = []
    for v in order:
        ys = np.asarray(curves[v])
        for g in groups:
            if np.allclose(g[1], ys, rtol=0, atol=1e-9):
                g[0].append(v)
                break
        else:
            groups.append(([v], ys))
    return groups


def plot_hips(sc, out_dir):
    times = sc["times"]
    hips = sc["hips"]
    lift = sc["lift"]
    order = variant_order(hips.keys())
    fig, ax = plt.subplots(figsize=(9, 5), layout="constrained")
    groups = group_identical(hips, order)
    for i, (vs, ys) in enumerate(groups):
        label = vs[0] if len(vs) == 1 else ", ".join(vs) + " (identical)"
        colour = colour_for(vs[0], order) if len(vs) == 1 else "#333333"
        ax.plot(times, ys, VARIANT_STYLES.get(vs[0], "-") if len(vs) == 1 else "-",
                color=colour, lw=2.0, marker="o", markersize=3.5, label=label)
    if lift:
        ax.plot(lift["time"], lift["hips_tail_counted"], "-", color="#ff7f0e", lw=2.0, marker="s",
                markersize=4, label="hips, tail counted in grounding")
        ax.plot(lift["time"], lift["hips_tail_excluded"], "--", color="#9467bd", lw=2.0, marker="^",
                markersize=4, label="hips, tail excluded from grounding")
    ax.set_xlabel("clip time (s)")
    ax.set_ylabel("hips height (m)")
    title = f"{sc['name']}: hips height over the clip"
    if lift:
        extra = max(lift["extra_lift"]) if lift["extra_lift"] else 0.0
        title += f"\nlargest extra lift from counting the tail: {extra * 100:.1f} cm"
    ax.set_title(title, fontsize=11)
    ax.grid(color="#e5e5e5", lw=0.6)
    ax.legend(loc="best", fontsize=9, framealpha=0.9)
    path = os.path.join(out_dir, f"{sc['name']}_hips.png")
    save(fig, path)



def lift_table_for(sc, key):
    """Rows of metrics.lift_table (key "main") or metrics.KEY.lift_table, as (time, extra)."""
    lt = sc["metrics"].get("lift_table" if key == "main" else f"{key}.lift_table")
    if not isinstance(lt, list):
        return []
    rows = []
    for e in lt:
        if isinstance(e, dict) and isinstance(e.get("time"), (int, float)) and isinstance(e.get("extra_lift"), (int, float)):
            rows.append((float(e["time"]), float(e["extra_lift"])))
    return rows


def plot_lift(sc, out_dir):
    """One column per transferred clip: hips height with the tail counted vs excluded over time
    (top) and, below, the extra lift and the body's clearance above the reference floor."""
    keys = sorted(sc["lift_curves"].keys(), key=lambda k: (k != "main", k))  # unprefixed clip first
    ncols = len(keys)
    fig, axes = plt.subplots(2, ncols, figsize=(7.2 * ncols, 7.4), squeeze=False, sharex="col",
                             gridspec_kw={"height_ratios": [2.2, 1.0]}, layout="constrained")
    for ci, key in enumerate(keys):
        c = sc["lift_curves"][key]
        t = np.asarray(c["times"])
        hc = np.asarray(c["hips_tail_counted"])
        he = np.asarray(c["hips_tail_excluded"])
        ax = axes[0][ci]
        ax.fill_between(t, he, hc, where=hc > he, color="#ff7f0e", alpha=0.18, lw=0,
                        label="extra lift from counting the tail")
        ax.plot(t, hc, "-", color="#ff7f0e", lw=2.0, label="hips, tail counted in grounding")
        ax.plot(t, he, "--", color="#9467bd", lw=2.0, label="hips, tail excluded (SPEC §5)")
        rows = lift_table_for(sc, key)
        for tt, _ in rows:
            ax.axvline(tt, color="#bbbbbb", lw=0.8, zorder=0)
        ax.set_ylabel("hips height (m)")
        extra = hc - he
        k = int(np.argmax(extra))
        ax.set_title(f"{c['label']}\nlargest extra lift {extra[k] * 100:.1f} cm at {t[k]:.2f} s; "
                     f"at the end {extra[-1] * 100:.1f} cm", fontsize=10)
        ax.grid(color="#e5e5e5", lw=0.6)
        ax.legend(loc="upper right", fontsize=8.5, framealpha=0.9)
        bx = axes[1][ci]
        bx.axhline(0.0, color="#333333", lw=0.8)
        bx.plot(t, extra * 100, "-", color="#ff7f0e", lw=1.6, label="extra lift (counted − excluded)")
        if "body_clearance_tail_excluded" in c:
            bx.plot(t, np.asarray(c["body_clearance_tail_excluded"]) * 100, ":", color="#2ca02c", lw=1.6,
                    label="lowest body point above the floor, tail excluded")
        for tt, _ in rows:
            bx.axvline(tt, color="#bbbbbb", lw=0.8, zorder=0)
        # Centimetre scale for lift and floor contact; the flight's clearance leaves the axes.
        lo = min(-5.0, float(np.min(extra)) * 100)
        if "body_clearance_tail_excluded" in c:
            lo = min(lo, float(np.min(c["body_clearance_tail_excluded"])) * 100)
        bx.set_ylim(max(lo, -30.0) - 2.0, float(np.max(extra)) * 100 * 1.3 + 5.0)
        bx.set_xlabel("clip time (s)")
        bx.set_ylabel("cm (clearance clipped in flight)")
        bx.set_xlim(t[0], t[-1])
        bx.grid(color="#e5e5e5", lw=0.6)
        bx.legend(loc="upper right", fontsize=8.5, framealpha=0.9)
    fig.suptitle(f"{sc['name']}: final hips height with the tail counted vs excluded in body grounding "
                 "(grey lines: lift table times)", fontsize=12)
    path = os.path.join(out_dir, f"{sc['name']}_lift.png")
    save(fig, path)

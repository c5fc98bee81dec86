#!/usr/bin/python3
"""Plot the PNG figures for a tailrig harness report directory.

Reads every scenario report written by `harness run NAME --report DIR`
(DIR/NAME.json and, for edge-stretch scenarios, DIR/NAME.contact.json) and
writes, when the data is present:

  NAME_stretch.png   edge-stretch distribution per variant/set (box plots)
  NAME_p99_time.png  per-sample p99 stretch over clip time, one line per variant
  NAME_hips.png      hips height over clip time (and the lift table, if any)
  NAME_lift.png      grounding: hips height with the tail counted vs excluded over time
  NAME_contact.png   contact sheet: side view of the edges coloured by stretch

See reports/README.md for how to read each figure.  Output is deterministic
(fixed sizes, dpi, no timestamp or software metadata).
"""

import argparse
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator  # noqa: E402

TORN_HIGH = 1.5  # SPEC §7: ratio above this counts as torn (stretched)
TORN_LOW = 0.67  # SPEC §7: ratio below this counts as torn (crushed)
DPI = 110
NON_SCENARIO_JSON = {"last_results.json"}

# Fixed colours so a variant looks the same in every figure.
VARIANT_COLOURS = {
    "original": "#d62728",  # red: the rigger's weights, the problem case
    "rigid": "#7f7f7f",  # grey: tail glued to the hips, does not move
    "chain": "#1f77b4",  # blue: the spring chain
    "body": "#2ca02c",  # green: body edges, the baseline
}
FALLBACK_COLOURS = ["#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf", "#ff7f0e"]
VARIANT_STYLES = {"original": "-", "rigid": "--", "chain": "-", "body": ":"}

CONTACT_BG = "#3a3a3a"  # dark grey panels: white (ratio 1.0) edges stay visible
CONTACT_CONTEXT = "#8c8c8c"  # context edges, thin
CONTACT_CMAP = "bwr"
CONTACT_GHOST = "#c9a227"  # rigid tail drawn behind the other tail variants


class ReportError(Exception):
    """A problem with the input that ends the run with exit code 2."""


def colour_for(variant, order):
    if variant in VARIANT_COLOURS:
        return VARIANT_COLOURS[variant]
    unknown = [v for v in order if v not in VARIANT_COLOURS]
    idx = unknown.index(variant) if variant in unknown else 0
    return FALLBACK_COLOURS[idx % len(FALLBACK_COLOURS)]


def save(fig, path):
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    plt.close(fig)
    print(path)


def load_json(path):
    try:
        with open(path, "r", encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise ReportError(f"{path}: cannot read JSON: {e}") from None


def num(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ReportError(f"{what}: expected a finite number, got {value!r}")
    return float(value)


def num_list(value, what):
    if not isinstance(value, list):
        raise ReportError(f"{what}: expected a list of numbers")
    return [num(v, f"{what}[{i}]") for i, v in enumerate(value)]


# --------------------------------------------------------------------------
# Validation: turn the raw JSON into plain, checked Python data.


def parse_scenario(path):
    d = load_json(path)
    if not isinstance(d, dict) or not isinstance(d.get("name"), str):
        raise ReportError(f"{path}: not a scenario report (no \"name\")")
    name = d["name"]
    rows = []
    raw_rows = d.get("rows", [])
    if not isinstance(raw_rows, list):
        raise ReportError(f"{path}: \"rows\" is not a list")
    for i, r in enumerate(raw_rows):
        where = f"{path}: rows[{i}]"
        if not isinstance(r, dict):
            raise ReportError(f"{where}: not an object")
        try:
            row = {
                "variant": str(r["variant"]),
                "set": str(r.get("set", "")),
                "torn_fraction": num(r.get("torn_fraction", 0.0), f"{where}.torn_fraction"),
                "note": str(r.get("note", "") or ""),
            }
            for k in ("p01", "p25", "p50", "p75", "p99", "max", "min"):
                row[k] = num(r[k], f"{where}.{k}")
            row["p95"] = num(r.get("p95", r["p99"]), f"{where}.p95")
        except KeyError as e:
            raise ReportError(f"{where}: missing key {e}") from None
        rows.append(row)

    metrics = d.get("metrics", {})
    if not isinstance(metrics, dict):
        raise ReportError(f"{path}: \"metrics\" is not an object")
    lift = None
    if "lift_table" in metrics:
        lt = metrics["lift_table"]
        if not isinstance(lt, list):
            raise ReportError(f"{path}: metrics.lift_table is not a list")
        lift = {"time": [], "hips_tail_counted": [], "hips_tail_excluded": [], "extra_lift": []}
        for i, e in enumerate(lt):
            if not isinstance(e, dict):
                raise ReportError(f"{path}: metrics.lift_table[{i}] is not an object")
            for k in ("time", "hips_tail_counted", "hips_tail_excluded"):
                if k not in e:
                    raise ReportError(f"{path}: metrics.lift_table[{i}]: missing key '{k}'")
                lift[k].append(num(e[k], f"{path}: metrics.lift_table[{i}].{k}"))
            lift["extra_lift"].append(
                num(e.get("extra_lift", e["hips_tail_counted"] - e["hips_tail_excluded"]),
                    f"{path}: metrics.lift_table[{i}].extra_lift"))
        if not lift["time"]:
            lift = None

    series = d.get("series", {}) or {}
    if not isinstance(series, dict):
        raise ReportError(f"{path}: \"series\" is not an object")
    times = num_list(series.get("times", []), f"{path}: series.times")
    per_variant = {}
    for key in ("p99", "hips_height_m"):
        block = series.get(key, {}) or {}
        if not isinstance(block, dict):
            raise ReportError(f"{path}: series.{key} is not an object")
        out = {}
        for v, ys in block.items():
            ys = num_list(ys, f"{path}: series.{key}.{v}")
            if len(ys) != len(times):
                raise ReportError(f"{path}: series.{key}.{v} has {len(ys)} values for {len(times)} times")
            if ys:
                out[v] = ys
        per_variant[key] = out

    # Per-sample hips curves of grounding scenarios: series.lift_curves =
    # {key: {label, times, hips_tail_counted, hips_tail_excluded, [lift_*, body_clearance_*]}}
    lift_curves = {}
    raw_curves = series.get("lift_curves", {}) or {}
    if not isinstance(raw_curves, dict):
        raise ReportError(f"{path}: series.lift_curves is not an object")
    for key, c in raw_curves.items():
        where = f"{path}: series.lift_curves.{key}"
        if not isinstance(c, dict):
            raise ReportError(f"{where}: not an object")
        ct = num_list(c.get("times", []), f"{where}.times")
        curve = {"label": str(c.get("label", key) or key), "times": ct}
        for k in ("hips_tail_counted", "hips_tail_excluded", "body_clearance_tail_excluded",
                  "body_clearance_tail_counted"):
            if k not in c:
                if k.startswith("hips_"):
                    raise ReportError(f"{where}: missing key '{k}'")
                continue
            ys = num_list(c[k], f"{where}.{k}")
            if len(ys) != len(ct):
                raise ReportError(f"{where}.{k} has {len(ys)} values for {len(ct)} times")
            curve[k] = ys
        if ct:
            lift_curves[key] = curve

    return {
        "name": name,
        "description": str(d.get("description", "") or ""),
        "lift_curves": lift_curves,
        "pass": d.get("pass"),
        "rows": rows,
        "metrics": metrics,
        "lift": lift,
        "times": times,
        "p99": per_variant["p99"],
        "hips": per_variant["hips_height_m"],
    }


def parse_contact(path):
    d = load_json(path)
    if not isinstance(d, dict):
        raise ReportError(f"{path}: expected an object of variant -> samples")
    out = {}
    for variant, samples in d.items():
        if not isinstance(samples, list):
            raise ReportError(f"{path}: {variant}: expected a list of samples")
        parsed = []
        for i, s in enumerate(samples):
            where = f"{path}: {variant}[{i}]"
            if not isinstance(s, dict) or "time" not in s or not isinstance(s.get("segments"), list):
                raise ReportError(f"{where}: expected {{\"time\", \"segments\"}}")
            t = num(s["time"], f"{where}.time")
            segs = s["segments"]
            if segs:
                try:
                    a = np.asarray(segs, dtype=float)
                except (TypeError, ValueError):
                    raise ReportError(f"{where}.segments: not a list of 6-number rows") from None
                if a.ndim != 2 or a.shape[1] != 6 or not np.all(np.isfinite(a)):
                    raise ReportError(f"{where}.segments: not a list of finite 6-number rows")
            else:
                a = np.zeros((0, 6))
            parsed.append((t, a))
        if parsed:
            out[variant] = parsed
    return out


# --------------------------------------------------------------------------
# Figures.


def variant_order(*groups):
    """Variants in first-seen order, known ones first in their canonical order."""
    seen = []
    for g in groups:
        for v in g:
            if v not in seen:
                seen.append(v)
    known = [v for v in VARIANT_COLOURS if v in seen]
    return known + [v for v in seen if v not in known]


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


def measured_set_of(sc, contact):
    """variant -> name of its measured set (from the rows; else from the in_set edge count)."""
    sets = {r["variant"]: r["set"] for r in sc["rows"]}
    out = {}
    for v, samples in contact.items():
        if v in sets:
            out[v] = sets[v]
        else:
            a = samples[0][1]
            out[v] = f"#{int(np.count_nonzero(a[:, 5])) if len(a) else 0}"
    return out


def frame_for(arrays, aspect, pad_frac):
    """Axis limits around the segment endpoints of `arrays`, widened to the panel aspect."""
    a = np.concatenate(arrays)
    zs = np.concatenate([a[:, 0], a[:, 2]])
    ys = np.concatenate([a[:, 1], a[:, 3]])
    z0, z1, y0, y1 = zs.min(), zs.max(), ys.min(), ys.max()
    pad = pad_frac * max(z1 - z0, y1 - y0, 1e-6)
    z0, z1, y0, y1 = z0 - pad, z1 + pad, y0 - pad, y1 + pad
    w, h = z1 - z0, y1 - y0
    if h / w < aspect:
        c = (y0 + y1) / 2
        y0, y1 = c - w * aspect / 2, c + w * aspect / 2
    else:
        c = (z0 + z1) / 2
        z0, z1 = c - h / aspect / 2, c + h / aspect / 2
    return z0, z1, y0, y1


def tip_index(samples):
    """(row index, endpoint 0/1) of the measured endpoint farthest from the context centroid
    in the first sample: the tail tip, for a tail set.  None without context or measured edges."""
    a = samples[0][1]
    if not len(a):
        return None
    ctx, meas_rows = a[a[:, 5] == 0], np.flatnonzero(a[:, 5] != 0)
    if not len(ctx) or not len(meas_rows):
        return None
    cz = np.mean(np.concatenate([ctx[:, 0], ctx[:, 2]]))
    cy = np.mean(np.concatenate([ctx[:, 1], ctx[:, 3]]))
    m = a[meas_rows]
    d0 = np.hypot(m[:, 0] - cz, m[:, 1] - cy)
    d1 = np.hypot(m[:, 2] - cz, m[:, 3] - cy)
    if d0.max() >= d1.max():
        return int(meas_rows[np.argmax(d0)]), 0
    return int(meas_rows[np.argmax(d1)]), 1


def point_at(a, tip):
    r, e = tip
    return (a[r, 0], a[r, 1]) if e == 0 else (a[r, 2], a[r, 3])


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


def one_colour_edges(ax, a, colour, width):
    """Edges (rows z0 y0 z1 y1 ...) of one colour as one NaN-broken line: a
    LineCollection makes a Path per edge (1.5 s of the report for ~200 k)."""
    xy = np.full((len(a), 3, 2), np.nan)
    xy[:, 0] = a[:, [0, 1]]
    xy[:, 1] = a[:, [2, 3]]
    xy = xy.reshape(-1, 2)
    ax.plot(xy[:, 0], xy[:, 1], "-", color=colour, lw=width, solid_capstyle="butt", scalex=False, scaley=False)


def plot_contact(sc, contact, out_dir):
    order = variant_order(contact.keys())
    sets = measured_set_of(sc, contact)
    ncols = max(len(contact[v]) for v in order)
    nrows = len(order)
    panel_w, panel_h = 3.0, 3.0
    fig = plt.figure(figsize=(panel_w * ncols + 1.3, panel_h * nrows + 1.3), facecolor="#e8e8e8")
    gs = fig.add_gridspec(nrows, ncols + 1, width_ratios=[1] * ncols + [0.06],
                          left=0.03, right=0.92, top=0.905, bottom=0.02, wspace=0.08, hspace=0.2)
    norm = TwoSlopeNorm(vmin=TORN_LOW, vcenter=1.0, vmax=TORN_HIGH)
    cmap = plt.get_cmap(CONTACT_CMAP)
    aspect = panel_h / panel_w * 0.92
    # The rigid tail (glued to the hips) is drawn as a ghost behind the other variants
    # that measure the same edges: where a coloured tail leaves the ghost, it moved.
    ghost_src = contact.get("rigid")
    ghost_times = {round(t, 6): a[a[:, 5] != 0] for t, a in ghost_src} if ghost_src else {}
    ghost_full = {round(t, 6): a for t, a in ghost_src} if ghost_src else {}
    # The edges are listed in the same order in every sample of the variants that share a
    # measured set, so one tip index found on the rigid tail serves them all.
    ghost_tip = tip_index(ghost_src) if ghost_src else None
    used_ghost = False
    for ri, v in enumerate(order):
        samples = contact[v]
        use_ghost = bool(ghost_times) and v != "rigid" and sets.get(v) == sets.get("rigid")
        meas_all = [a[a[:, 5] != 0] for _, a in samples if len(a)]
        meas_all = [m for m in meas_all if len(m)]
        whole = [a for _, a in samples if len(a)]
        limits = None
        if meas_all and sets.get(v) != "body":
            # Tail-like sets: frame the measured edges (and the ghost) of the whole row,
            # the same frame in every column so motion between columns reads.
            extra = list(ghost_times.values()) if (use_ghost or v == "rigid") else []
            limits = frame_for(meas_all + [g for g in extra if len(g)], aspect, 0.30)
        elif whole:
            limits = frame_for(whole, aspect, 0.04)
        for ci in range(ncols):
            ax = fig.add_subplot(gs[ri, ci])
            ax.set_facecolor(CONTACT_BG)
            ax.set_xticks([])
            ax.set_yticks([])
            if ci >= len(samples):
                ax.set_visible(False)
                continue
            t, a = samples[ci]
            ctx = a[a[:, 5] == 0] if len(a) else a
            meas = a[a[:, 5] != 0] if len(a) else a
            if len(ctx):
                one_colour_edges(ax, ctx, CONTACT_CONTEXT, 0.35)
            ghost = ghost_times.get(round(t, 6)) if use_ghost else None
            if ghost is not None and len(ghost):
                one_colour_edges(ax, ghost, CONTACT_GHOST, 0.6)
                used_ghost = True
            if len(meas):
                ratios = np.clip(meas[:, 4], TORN_LOW, TORN_HIGH)
                # Draw the most deformed edges last so white edges do not hide them.
                idx = np.argsort(np.abs(np.log(ratios)), kind="stable")
                lc = LineCollection(meas[idx][:, [0, 1, 2, 3]].reshape(-1, 2, 2),
                                    cmap=cmap, norm=norm, linewidths=0.9)
                lc.set_array(ratios[idx])
                ax.add_collection(lc)
                torn = np.mean((meas[:, 4] > TORN_HIGH) | (meas[:, 4] < TORN_LOW))
                ax.text(0.03, 0.03, f"torn {100 * torn:.1f}%", transform=ax.transAxes,
                        color="white", fontsize=8.5, va="bottom")
            g_full = ghost_full.get(round(t, 6))
            if (ghost_tip is not None and g_full is not None and (use_ghost or v == "rigid")
                    and len(a) == len(g_full) and ghost_tip[0] < len(a)):
                gz, gy = point_at(g_full, ghost_tip)
                tz, ty = point_at(a, ghost_tip)
                ax.plot([gz], [gy], "o", ms=6, mfc="none", mec=CONTACT_GHOST, mew=1.6)
                ax.plot([tz], [ty], "o", ms=4.5, color="#00e5ff", mec="black", mew=0.6)
                if v != "rigid":
                    ax.plot([gz, tz], [gy, ty], "-", color="#00e5ff", lw=1.0)
                    off = math.hypot(tz - gz, ty - gy) * 100
                    ax.text(0.97, 0.03, f"tip {off:.0f} cm off rigid", transform=ax.transAxes,
                            color="#00e5ff", fontsize=8.5, va="bottom", ha="right")
            if limits:
                ax.set_xlim(limits[0], limits[1])
                ax.set_ylim(limits[2], limits[3])
            ax.set_aspect("equal", adjustable="datalim")
            ax.set_title(f"{v} @ {t:.2f} s", fontsize=10)
            tip_range = sc["metrics"].get(f"{v}.tip_range_m")
            if ci == 0 and isinstance(tip_range, (int, float)) and not isinstance(tip_range, bool):
                ax.text(0.03, 0.97, f"tip range over the clip\n(3D, hips frame): {tip_range * 100:.1f} cm",
                        transform=ax.transAxes, color="#00e5ff", fontsize=8, va="top")
    cax = fig.add_subplot(gs[:, ncols])
    cb = fig.colorbar(plt.cm.ScalarMappable(norm=norm, cmap=cmap), cax=cax, extend="both")
    cb.set_ticks([TORN_LOW, 0.8, 0.9, 1.0, 1.1, 1.25, TORN_HIGH])
    cb.set_ticklabels([f"{TORN_LOW} torn", "0.8", "0.9", "1.0", "1.1", "1.25", f"{TORN_HIGH} torn"])
    cb.set_label("edge stretch ratio, skinned / bind (clipped to 0.67–1.5)")
    sub = "grey = context edges, coloured = measured edges"
    if used_ghost:
        sub += (",\nyellow = rigid tail at the same time, cyan dot = tail tip "
                "(a tail that stays on the yellow did not move; sideways swing is not visible in this view)")
    fig.suptitle(f"{sc['name']}: contact sheet, side view (z horizontal, y up)\n{sub}", fontsize=12)
    path = os.path.join(out_dir, f"{sc['name']}_contact.png")
    save(fig, path)


# --------------------------------------------------------------------------


def scenario_files(report_dir):
    try:
        names = sorted(os.listdir(report_dir))
    except OSError as e:
        raise ReportError(f"{report_dir}: cannot list directory: {e.strerror}") from None
    return [os.path.join(report_dir, n) for n in names
            if n.endswith(".json") and not n.endswith(".contact.json") and n not in NON_SCENARIO_JSON
            and os.path.isfile(os.path.join(report_dir, n))]


def run(report_dir, out_dir):
    if not os.path.isdir(report_dir):
        raise ReportError(f"{report_dir}: no such directory")
    files = scenario_files(report_dir)
    if not files:
        raise ReportError(f"{report_dir}: no scenario report (*.json) found")
    # Validate everything before drawing anything.
    jobs = []
    for path in files:
        raw = load_json(path)
        if isinstance(raw, dict) and "name" not in raw:
            continue  # another tool's JSON beside the scenario reports (bake_trex.json draws its own plot)
        sc = parse_scenario(path)
        cpath = os.path.join(report_dir, f"{sc['name']}.contact.json")
        contact = parse_contact(cpath) if os.path.isfile(cpath) else {}
        jobs.append((sc, contact))
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise ReportError(f"{out_dir}: cannot create output directory: {e.strerror}") from None
    plt.rcParams.update({"svg.hashsalt": "tailrig", "font.size": 10})
    for sc, contact in jobs:
        if sc["rows"]:
            plot_stretch(sc, out_dir)
        if sc["times"] and sc["p99"]:
            plot_p99_time(sc, out_dir)
        # With per-sample lift curves the lift figure replaces the table-only hips figure.
        if (sc["times"] and sc["hips"]) or (sc["lift"] and not sc["lift_curves"]):
            plot_hips(sc, out_dir)
        if sc["lift_curves"]:
            plot_lift(sc, out_dir)
        if contact:
            plot_contact(sc, contact, out_dir)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Draw PNG figures (stretch box plots, p99 over time, hips height, "
                    "contact sheet) for every scenario report in REPORT_DIR, as written by "
                    "`harness run NAME --report REPORT_DIR`. See reports/README.md.")
    ap.add_argument("report_dir", metavar="REPORT_DIR", help="directory holding NAME.json [+ NAME.contact.json]")
    ap.add_argument("--out", metavar="DIR", help="where to write the PNGs (default: REPORT_DIR)")
    args = ap.parse_args(argv)
    out_dir = args.out if args.out else args.report_dir
    try:
        run(args.report_dir, out_dir)
    except ReportError as e:
        print(f"plot_report.py: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

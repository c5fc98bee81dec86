"""The contact sheet of scripts/plot_report.py (NAME_contact.png): side view of
each variant's edges over the clip, coloured by stretch."""

import math
import os

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import TwoSlopeNorm

from plot_report_common import TORN_HIGH, TORN_LOW, plt, save, variant_order

CONTACT_BG = "#3a3a3a"  # dark grey panels: white (ratio 1.0) edges stay visible
CONTACT_CONTEXT = "#8c8c8c"  # context edges, thin
CONTACT_CMAP = "bwr"
CONTACT_GHOST = "#c9a227"  # rigid tail drawn behind the other tail variants


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

"""Shared pieces of scripts/plot_report.py: thresholds, variant colours, the
input error, checked number readers and the deterministic PNG writer."""

import json
import math

import matplotlib

matplotlib.use("Agg")  # before pyplot: headless, and the same PNG bytes on every machine

# The other plot_report_* modules take plt from here, so the backend is set first.
import matplotlib.pyplot as plt  # noqa: E402

from stretch_thresholds import TORN_HIGH, TORN_LOW  # noqa: E402,F401  (re-exported to the plot modules)
DPI = 110

# Fixed colours so a variant looks the same in every figure.
VARIANT_COLOURS = {
    "original": "#d62728",  # red: the rigger's weights, the problem case
    "rigid": "#7f7f7f",  # grey: tail glued to the hips, does not move
    "chain": "#1f77b4",  # blue: the spring chain
    "body": "#2ca02c",  # green: body edges, the baseline
}
FALLBACK_COLOURS = ["#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf", "#ff7f0e"]
VARIANT_STYLES = {"original": "-", "rigid": "--", "chain": "-", "body": ":"}


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


def variant_order(*groups):
    """Variants in first-seen order, known ones first in their canonical order."""
    seen = []
    for g in groups:
        for v in g:
            if v not in seen:
                seen.append(v)
    known = [v for v in VARIANT_COLOURS if v in seen]
    return known + [v for v in seen if v not in known]

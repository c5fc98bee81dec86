"""Validation for scripts/plot_report.py: turn the raw report JSON into plain,
checked Python data (a bad input raises ReportError, exit 2)."""

import numpy as np

from plot_report_common import ReportError, load_json, num, num_list


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

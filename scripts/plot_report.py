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

This file is the entry point; the parts live beside it: plot_report_parse.py
(validation), plot_report_charts.py (stretch, p99, hips, lift figures),
plot_report_contact.py (contact sheet), plot_report_common.py (shared).
"""

import argparse
import os
import sys

# The plot_report_* helpers live beside this file, whatever the caller's cwd.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from plot_report_charts import plot_hips, plot_lift, plot_p99_time, plot_stretch  # noqa: E402
from plot_report_common import ReportError, load_json, plt  # noqa: E402
from plot_report_contact import plot_contact  # noqa: E402
from plot_report_parse import parse_contact, parse_scenario  # noqa: E402

NON_SCENARIO_JSON = {"last_results.json"}


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

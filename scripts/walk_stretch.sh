#!/bin/sh
# The main job: set up, build, and run the CI gate `harness run walk_stretch`
# on the built-in fox fixture; writes the report tables and plots to reports/.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/release"
"$root/scripts/setup.sh" "$build"
set +e
"$build/harness/harness" run walk_stretch --report "$root/reports"
code=$?
set -e
/usr/bin/python3 "$root/scripts/plot_report.py" "$root/reports" >/dev/null || true
exit $code

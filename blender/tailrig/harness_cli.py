"""Runs the `harness` command for the add-on (no bpy here, testable alone).

Every failure becomes HarnessError with harness's own one-line message (its
exit 2 contract: one line on stderr), never a traceback in Blender's UI.
"""
import json
import os
import shutil
import subprocess


class HarnessError(Exception):
    """One line to show in Blender's report area."""


def find_harness(preferred_path=""):
    """The harness binary: the add-on preference if set, else PATH."""
    if preferred_path:
        path = os.path.abspath(os.path.expanduser(preferred_path))
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise HarnessError("harness not found at %s (add-on preferences)" % path)
    found = shutil.which("harness")
    if not found:
        raise HarnessError("harness not found on PATH; install tailrig or set its path in the add-on preferences")
    return found


def _last_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # `repaired:` notes are warnings, not the error; prefer the real message.
    errors = [line for line in lines if "repaired:" not in line]
    return (errors or lines or [""])[-1]


def run(binary, args, timeout=1800):
    """Runs harness with args; returns stdout. Raises HarnessError."""
    try:
        proc = subprocess.run([binary] + list(args), capture_output=True, text=True, timeout=timeout)
    except OSError as e:
        raise HarnessError("cannot run %s: %s" % (binary, e.strerror or e)) from None
    except subprocess.TimeoutExpired:
        raise HarnessError("harness %s timed out after %d s" % (args[0], timeout)) from None
    if proc.returncode != 0:
        message = _last_line(proc.stderr) or _last_line(proc.stdout) or "failed"
        raise HarnessError("harness (exit %d): %s" % (proc.returncode, message))
    return proc.stdout


def detect(binary, glb_path):
    """The appendages report of a file (`harness fix --mode report`), as a dict."""
    out = run(binary, ["fix", glb_path, "--mode", "report"])
    # Report mode prints the JSON document; anything before its '{' is a note.
    start = out.find("{")
    try:
        return json.loads(out[start:]) if start >= 0 else None
    except ValueError:
        return None


def fix(binary, glb_in, glb_out, report_path, tail=True, rigid_worn=True, bake=False, fps=30):
    """`harness fix` with the panel's options; returns (stdout, report dict)."""
    args = ["fix", glb_in, "--out", glb_out, "--report", report_path]
    if not tail:
        args.append("--no-tail")
    if not rigid_worn:
        args.append("--no-worn")
    if bake:
        args += ["--bake", "--fps", str(int(fps))]
    out = run(binary, args)
    try:
        with open(report_path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        raise HarnessError("harness fix wrote no readable report: %s" % e) from None
    return out, report

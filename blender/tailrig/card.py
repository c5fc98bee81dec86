"""The result card: what Detect found, one short line per region (no bpy)."""


def _fmt_len(metres, scale_length):
    # glTF is in metres; the scene shows lengths divided by its unit scale.
    return "%.3g" % (metres / (scale_length or 1.0))


def why_left_alone(reason):
    """The clauses of a detect reason that decided "unchanged": failed
    thresholds ("a < b"), wrapping, already rigged, a sheet, switched off."""
    clauses = [c.strip() for c in reason.split(";") if c.strip()]
    deciding = [c for c in clauses
                if " < " in c or "wraps" in c or "already" in c or "a sheet" in c or "switched off" in c]
    if not deciding and clauses and clauses[0].startswith("hangs from"):
        # Every shape test passed: the attachment decided (a tail hangs from
        # the pelvis, a worn item from the spine; this from a limb or head).
        deciding = [clauses[0] + ", not the pelvis or spine"]
    return "; ".join(deciding or clauses)


def card_lines(report, scale_length=1.0):
    """Lines of the card for an appendages report (harness fix JSON report)."""
    if not report:
        return ["no report"]
    regions = report.get("appendages") or []
    lines = ["H %s, pelvis %s, %d regions" % (_fmt_len(report.get("H", 0.0), scale_length),
                                              report.get("pelvis") or "?", len(regions))]
    tail_bones = report.get("tail_bones") or []
    if tail_bones:
        lines.append("rig already has tail bones %s..%s (%d)" % (tail_bones[0], tail_bones[-1], len(tail_bones)))
    # Rewritten regions (and tails) first: they are what the user came for.
    order = sorted(regions, key=lambda r: (r["action"] == "unchanged" and r["class"] != "tail", r["id"]))
    for r in order:
        where = r.get("attachment") or "?"
        head = "region %d %s -> %s" % (r["id"], r["class"], r["action"])
        if r["action"] == "chain" or (r["class"] == "tail" and r.get("bones", 0) > 0):
            line = "%s: length %s, K = %d, attaches to %s" % (head, _fmt_len(r.get("length", 0.0), scale_length),
                                                             r.get("bones", 0), r.get("chain_parent") or where)
        elif r["action"] == "rigid":
            line = "%s: rigid on %s" % (head, r.get("rigid_joint") or where)
        else:
            line = "%s at %s" % (head, where)
        if r["action"] == "unchanged":
            line += ", left alone: " + why_left_alone(r.get("reason", ""))
        lines.append(line)
    # Issue 46: the legs the baked tail stays out of, stored on the leg bones
    # (custom property tailrig_collider after import).
    colliders = (report.get("leg_colliders") or {}).get("capsules") or []
    if colliders:
        lines.append("leg colliders: %d capsule%s on %s" % (len(colliders), "" if len(colliders) == 1 else "s",
                                                            ", ".join(c["joint"] for c in colliders)))
    return lines

#!/usr/bin/python3
"""bvh_helper_skeleton.py IN.bvh OUT.bvh: the same BVH with a helper skeleton
beside the real one (issue 45, class 6): under the root, beside the real
legs, a second pair named L_/R_Femur > _Tibia > _Talus, each joint where the
real leg's joint is and turning with it (its rotation channels copied), as
some exporters leave deformation helpers. A reader that counts legs by name
and shape sees four.

The real legs are the root's children whose names end in UpLeg; their
chain is UpLeg > Leg > Foot (> ToeBase, whose offset ends the helper)."""
import re
import sys


class Joint:
    def __init__(self, name, parent):
        self.name, self.parent = name, parent
        self.offset, self.channels, self.children = "0 0 0", [], []
        self.end = None  # End Site offset
        self.column = -1  # first motion column
        self.copy_of = None  # helper: the real joint whose rotations it copies


def parse(lines):
    root, stack, i, current = None, [], 0, None
    while i < len(lines):
        t = lines[i].split()
        i += 1
        if not t:
            continue
        if t[0] in ("ROOT", "JOINT"):
            j = Joint(t[1], stack[-1] if stack else None)
            if j.parent:
                j.parent.children.append(j)
            else:
                root = j
            current = j
        elif t[0] == "End":
            current = "end"
        elif t[0] == "{":
            stack.append(current)
        elif t[0] == "}":
            stack.pop()
            current = stack[-1] if stack else None
        elif t[0] == "OFFSET":
            if current == "end":
                stack[-2].end = " ".join(t[1:])
            else:
                current.offset = " ".join(t[1:])
        elif t[0] == "CHANNELS":
            current.channels = t[2:]
        elif t[0] == "MOTION":
            return root, i
    raise SystemExit("no MOTION section")


def walk(j):
    yield j
    for c in j.children:
        yield from walk(c)


def emit(j, depth, out):
    pad = "  " * depth
    out.append("%s%s %s" % (pad, "ROOT" if depth == 0 else "JOINT", j.name))
    out.append(pad + "{")
    out.append("%s  OFFSET %s" % (pad, j.offset))
    out.append("%s  CHANNELS %d %s" % (pad, len(j.channels), " ".join(j.channels)))
    for c in j.children:
        emit(c, depth + 1, out)
    if j.end is not None:
        out.append(pad + "  End Site")
        out.append(pad + "  {")
        out.append("%s    OFFSET %s" % (pad, j.end))
        out.append(pad + "  }")
    out.append(pad + "}")


def main():
    lines = open(sys.argv[1]).read().splitlines()
    root, motion_at = parse(lines)
    column = 0
    for j in walk(root):
        j.column = column
        column += len(j.channels)
    rot = [c for c in root.children[0].channels if c.endswith("rotation")] or ["Zrotation", "Xrotation", "Yrotation"]
    legs, helpers = 0, []
    for up in root.children:
        if not up.name.endswith("UpLeg"):
            continue
        side = "L" if "Left" in up.name else "R"
        shin = next((c for c in up.children if c.name.endswith("Leg")), None)
        foot = shin and next((c for c in shin.children if c.name.endswith("Foot")), None)
        if not foot:
            continue
        toe = next((c for c in foot.children if c.name.endswith("ToeBase")), None)
        parent = None
        for real, part in ((up, "Femur"), (shin, "Tibia"), (foot, "Talus")):
            h = Joint("%s_%s" % (side, part), parent or root)
            h.offset, h.channels, h.copy_of = real.offset, rot, real
            (parent.children if parent else helpers).append(h)
            parent = h
        parent.end = toe.offset if toe else "0 -5 5"
        legs += 1
    if legs != 2:
        raise SystemExit("%s: expected two legs ending in UpLeg under the root, found %d" % (sys.argv[1], legs))
    root.children += helpers
    out = ["HIERARCHY"]
    emit(root, 0, out)
    out += lines[motion_at - 1:motion_at + 2]  # MOTION, Frames:, Frame Time:
    for row in lines[motion_at + 2:]:
        v = row.split()
        if not v:
            continue
        new = []
        for j in walk(root):
            if j.copy_of is not None:
                src = j.copy_of
                new += [v[src.column + src.channels.index(c)] for c in j.channels]
            else:
                new += v[j.column:j.column + len(j.channels)]
        out.append(" ".join(new))
    open(sys.argv[2], "w").write("\n".join(out) + "\n")
    print("%s: %d helper legs beside the real ones" % (sys.argv[2], legs))


main()

#!/usr/bin/python3
"""bvh_unnamed.py IN.bvh OUT.bvh: the same BVH with every ROOT and JOINT
renamed j1, j2... (names that say nothing of legs or sides)."""
import re
import sys

count = 0


def rename(m):
    global count
    count += 1
    return "%s%s j%d" % (m.group(1), m.group(2), count)


with open(sys.argv[1]) as f:
    text = f.read()
text = re.sub(r"^(\s*)(ROOT|JOINT)[ \t]+\S+", rename, text, flags=re.M)
with open(sys.argv[2], "w") as f:
    f.write(text)
print("%s: %d joints renamed" % (sys.argv[2], count))

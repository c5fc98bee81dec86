#!/usr/bin/env python3
"""Issue 45 class 1 on an input built by class (ctest blender_curled_wolf_chain).

Usage: curled_tail_check.py HARNESS ARTIST.glb WORKDIR

ARTIST.glb has tail bones (a rig whose tail scripts/blender/curl_tail.py
curled up over its back). strip-tail, then fix: exactly one chain, every
grown joint (Tail_1 .. Tail_End) within 0.15 artist tail lengths of the
artist's tail line (the joint the tail hangs from, its tail joints down the
deepest path, a last bone as long as the one before: as the corpus'
strip_fix.joint_distance), and its joint polyline 0.7-1.4 x the artist's
length (issue 45). Exit 0 when met, 1 when not, 2 on a failed command.
"""
import json
import math
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print('failed: %s: %s' % (' '.join(cmd), p.stderr.strip()))
        sys.exit(2)
    return p.stdout


def seg_distance(p, a, b):
    ab = [b[i] - a[i] for i in range(3)]
    n = sum(x * x for x in ab)
    t = max(0.0, min(1.0, sum((p[i] - a[i]) * ab[i] for i in range(3)) / n)) if n > 0 else 0.0
    return math.dist(p, [a[i] + t * ab[i] for i in range(3)])


def main():
    harness, artist, work = sys.argv[1:4]
    stripped, fixed = work + '/stripped.glb', work + '/fixed.glb'
    run([harness, 'strip-tail', artist, '--out', stripped])
    out = run([harness, 'fix', stripped, '--out', fixed])
    a = json.loads(run([harness, 'info', artist, '--json']))['skeleton']
    f = json.loads(run([harness, 'info', fixed, '--json']))['skeleton']
    tail = [i for i, j in enumerate(a) if 'Tail' in j['name']]
    inside = set(tail)
    depth = {i: 0 for i in tail}
    nxt = {}
    for i in sorted(tail, reverse=True):  # children after parents
        p = a[i]['parent']
        if p in inside and depth[i] + 1 > depth[p]:
            depth[p], nxt[p] = depth[i] + 1, i
    root = max((i for i in tail if a[i]['parent'] not in inside), key=lambda i: depth[i])
    pts, j = [], root
    while j is not None:
        pts.append(a[j]['bind_position'])
        j = nxt.get(j)
    pts.append([pts[-1][k] + (pts[-1][k] - pts[-2][k]) for k in range(3)])
    length = sum(math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))
    line = [a[a[root]['parent']]['bind_position']] + pts if a[root]['parent'] >= 0 else pts
    grown = [j['bind_position'] for j in f if j['name'].startswith('Tail_')]
    chains = out.count(', 1 chain, ')
    if not grown or chains != 1:
        print('FAIL: expected one chain: %s' % out.strip().splitlines()[0])
        return 1
    off = max(min(seg_distance(p, line[i], line[i + 1]) for i in range(len(line) - 1)) for p in grown) / length
    ratio = sum(math.dist(grown[i], grown[i + 1]) for i in range(len(grown) - 1)) / length
    ok = off <= 0.15 and 0.7 <= ratio <= 1.4
    print('%s: chain of %d joints, largest joint distance %.3f artist tail lengths (<= 0.15), length %.3f x the '
          "artist's %d bones (0.7-1.4)" % ('ok' if ok else 'FAIL', len(grown), off, ratio, len(pts) - 1))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())

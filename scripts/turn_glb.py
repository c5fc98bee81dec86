#!/usr/bin/python3
"""Write a GLB whose scene is turned about Y by DEGREES: a new top node
holding the scene's nodes, with that rotation (mesh, skin and clips untouched).
It stands for a character built facing another way than glTF's +Z.

usage: turn_glb.py IN.glb OUT.glb DEGREES
"""
import json
import math
import struct
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip())
    src, dst, degrees = sys.argv[1], sys.argv[2], float(sys.argv[3])
    data = open(src, 'rb').read()
    if data[:4] != b'glTF':
        sys.exit('turn_glb.py: %s is not a GLB' % src)
    chunks, off = [], 12
    while off + 8 <= len(data):
        n, kind = struct.unpack_from('<II', data, off)
        chunks.append((kind, data[off + 8:off + 8 + n]))
        off += 8 + n
    doc = json.loads(chunks[0][1])
    half = math.radians(degrees) / 2
    scene = doc['scenes'][doc.get('scene', 0)]
    doc['nodes'].append({'name': 'Turned', 'rotation': [0, math.sin(half), 0, math.cos(half)],
                         'children': scene['nodes']})
    scene['nodes'] = [len(doc['nodes']) - 1]
    text = json.dumps(doc).encode()
    text += b' ' * ((4 - len(text) % 4) % 4)
    body = struct.pack('<II', len(text), 0x4E4F534A) + text
    for kind, chunk in chunks[1:]:
        body += struct.pack('<II', len(chunk), kind) + chunk
    open(dst, 'wb').write(struct.pack('<III', 0x46546C67, 2, 12 + len(body)) + body)


if __name__ == '__main__':
    main()

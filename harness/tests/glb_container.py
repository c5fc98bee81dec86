"""The GLB container the test-input generators write (make_bad_inputs.py,
make_valid_animation_inputs.py)."""

import copy
import json
import struct


def glb_bytes(gltf, bin_data):
    """A GLB container: the JSON chunk (one buffer of the binary chunk's
    length) and the binary chunk, each padded to 4 bytes."""
    g = copy.deepcopy(gltf)
    g["buffers"] = [{"byteLength": len(bin_data)}]
    js = json.dumps(g).encode()
    js += b" " * ((4 - len(js) % 4) % 4)
    binc = bytes(bin_data) + bytes((4 - len(bin_data) % 4) % 4)
    total = 12 + 8 + len(js) + 8 + len(binc)
    return (struct.pack("<III", 0x46546C67, 2, total) + struct.pack("<II", len(js), 0x4E4F534A) + js +
            struct.pack("<II", len(binc), 0x004E4942) + binc)

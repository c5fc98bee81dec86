// The document layer of GLB writing (internal to rig): appending buffer
// views and accessors to a tinygltf document, and the repairs every written
// document goes through so that the Khronos validator accepts it whatever
// was read (gltf_write.cpp builds or edits the document, then calls these).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "rig/io/gltf/gltf_source.h"

namespace rig::gltf_doc {

constexpr size_t kAlign = 8;

struct Writer {
  tinygltf::Model& m;

  std::vector<unsigned char>& bin() { return m.buffers[0].data; }

  int add_view(const void* data, size_t bytes, int target) {
    auto& b = bin();
    while (b.size() % kAlign) b.push_back(0);
    tinygltf::BufferView v;
    v.buffer = 0;
    v.byteOffset = b.size();
    v.byteLength = bytes;
    v.target = target;
    const auto* p = static_cast<const unsigned char*>(data);
    b.insert(b.end(), p, p + bytes);
    m.bufferViews.push_back(v);
    return static_cast<int>(m.bufferViews.size()) - 1;
  }

  template <typename T>
  int add_accessor(const std::vector<T>& data, int count, int comp_type, int type, int target,
                   bool with_bounds, bool normalized = false) {
    tinygltf::Accessor a;
    a.bufferView = add_view(data.data(), data.size() * sizeof(T), target);
    a.componentType = comp_type;
    a.type = type;
    a.count = count;
    a.normalized = normalized;
    if (with_bounds && count > 0) {
      const int comps = static_cast<int>(data.size()) / count;
      a.minValues.assign(comps, 1e300);
      a.maxValues.assign(comps, -1e300);
      for (int i = 0; i < count; ++i)
        for (int c = 0; c < comps; ++c) {
          a.minValues[c] = std::min(a.minValues[c], static_cast<double>(data[i * comps + c]));
          a.maxValues[c] = std::max(a.maxValues[c], static_cast<double>(data[i * comps + c]));
        }
    }
    m.accessors.push_back(a);
    return static_cast<int>(m.accessors.size()) - 1;
  }
};

// A loaded document to edit: every member but its buffers' bytes (the
// first prune_and_repack then packs the kept views straight from the
// source's; issue 47: a 50 MB copy at 1 M vertices, most of it packed again).
tinygltf::Model copy_without_bytes(const tinygltf::Model& src);

// The document repaired (the repairs below) and written as a GLB to `path`
// (write_file_atomic), or into `*bytes` when it is given (nothing written;
// `path` then only names it in messages): tinygltf's encoding, byte for
// byte; notes what was repaired.
Status write_glb(tinygltf::Model& m, const std::string& path, std::vector<std::string>& notes,
                 std::string* bytes = nullptr);

// Drops accessors not referenced any more, then the buffer views only they
// used, and repacks every kept view (and uri images) into one buffer. The
// views' bytes come from `bytes_from` when given (buffers the views index
// as they index m.buffers, whose own bytes are then not read: a document
// copied without them), and the packed buffer has room for `spare` more
// bytes (what a Writer will append, allocated once).
Status prune_and_repack(tinygltf::Model& m, const std::vector<tinygltf::Buffer>* bytes_from = nullptr,
                        size_t spare = 0);

// Animation samplers whose key times are not strictly increasing (as the
// floats we write) or whose accessors are strided or sparse are rewritten as
// tightly packed float accessors; of keys sharing a time the last is kept.
// Refused (kBadData) only where glTF itself sizes the output: a sampler of a
// translation, rotation, scale or weights channel whose output is not its
// input's keys; samplers nothing sizes (unused, KHR_animation_pointer) pass.
Status repair_samplers(tinygltf::Model& m, std::vector<std::string>& notes);

// skin.skeleton must be a common root of the skin's joints (an ancestor or
// one of them); an invalid one becomes the deepest common root, or is removed.
void repair_skin_skeletons(tinygltf::Model& m, std::vector<std::string>& notes);

// Node rotations must be unit quaternions: normalised, a zero one dropped.
void repair_node_rotations(tinygltf::Model& m, std::vector<std::string>& notes);

// A node an animation channel targets gets TRS instead of a matrix (glTF
// allows only TRS on animated nodes; shear is dropped).
void repair_animated_matrices(tinygltf::Model& m, std::vector<std::string>& notes);

// An image without bytes (a missing texture file, an undecodable data uri)
// becomes an embedded 1x1 grey PNG: no dangling reference is written.
void repair_unreadable_images(tinygltf::Model& m, std::vector<std::string>& notes);

// A perspective camera without a valid zfar (infinite) gets 1e7 x znear:
// tinygltf always writes zfar, and 0 is invalid.
void repair_infinite_cameras(tinygltf::Model& m, std::vector<std::string>& notes);

// POSITION accessors and animation key times without min/max (required)
// get them computed (float accessors).
void repair_missing_bounds(tinygltf::Model& m, std::vector<std::string>& notes);

}  // namespace rig::gltf_doc

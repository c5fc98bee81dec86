// The document layer of GLB writing: pruning and repacking, validity repairs.
#include "rig/io/gltf/gltf_document.h"

#include <Eigen/Geometry>
#include <Eigen/SVD>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>

namespace rig::gltf_doc {

namespace {

// The MIME type of an image's bytes (the validator checks it against them):
// by their signature, else by the uri's extension in any case, else PNG.
std::string image_mime_type(const std::vector<unsigned char>& bytes, const std::string& uri) {
  auto starts = [&](std::initializer_list<unsigned char> sig, size_t at = 0) {
    if (bytes.size() < at + sig.size()) return false;
    return std::equal(sig.begin(), sig.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at));
  };
  if (starts({0x89, 'P', 'N', 'G'})) return "image/png";
  if (starts({0xFF, 0xD8, 0xFF})) return "image/jpeg";
  if (starts({'R', 'I', 'F', 'F'}) && starts({'W', 'E', 'B', 'P'}, 8)) return "image/webp";
  if (starts({0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB})) return "image/ktx2";
  std::string u = uri;
  std::transform(u.begin(), u.end(), u.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (u.find(".jpg") != std::string::npos || u.find(".jpeg") != std::string::npos ||
      u.rfind("data:image/jpeg", 0) == 0 || u.rfind("data:image/jpg", 0) == 0)
    return "image/jpeg";
  if (u.find(".webp") != std::string::npos) return "image/webp";
  if (u.find(".ktx2") != std::string::npos) return "image/ktx2";
  return "image/png";
}

// Accessor indices inside EXT_mesh_gpu_instancing (a node's per-instance
// TRANSLATION/ROTATION/SCALE/...): `f` is called on each, and may change it.
template <typename F>
void for_each_instancing_accessor(tinygltf::Model& m, F f) {
  for (auto& node : m.nodes) {
    auto ext = node.extensions.find("EXT_mesh_gpu_instancing");
    if (ext == node.extensions.end() || !ext->second.IsObject()) continue;
    auto& object = ext->second.Get<tinygltf::Value::Object>();
    auto attrs = object.find("attributes");
    if (attrs == object.end() || !attrs->second.IsObject()) continue;
    for (auto& [name, value] : attrs->second.Get<tinygltf::Value::Object>()) {
      if (!value.IsInt() && !value.IsNumber()) continue;
      int a = value.GetNumberAsInt();
      f(a);
      value = tinygltf::Value(a);
    }
  }
}

size_t aligned(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// True when packing the kept views in order can move each down inside
// buffer 0 itself: one buffer holding every kept view, in range, ascending
// and disjoint, each one's packed offset at or below its own (a move then
// never overwrites bytes still to be moved).
bool packs_in_place(const tinygltf::Model& m, const std::vector<char>& keep) {
  if (m.buffers.size() != 1) return false;
  const size_t size = m.buffers[0].data.size();
  size_t cursor = 0, end_of_last = 0;
  for (size_t v = 0; v < keep.size(); ++v) {
    if (!keep[v]) continue;
    const tinygltf::BufferView& bv = m.bufferViews[v];
    if (bv.buffer != 0 || bv.byteOffset > size || bv.byteLength > size - bv.byteOffset ||
        bv.byteOffset < end_of_last || aligned(cursor) > bv.byteOffset)
      return false;
    cursor = aligned(cursor) + bv.byteLength;
    end_of_last = bv.byteOffset + bv.byteLength;
  }
  return true;
}

// The kept views (keep[v]) packed into one buffer in view order, each at the
// next kAlign boundary, zeros between: `views` the packed views, view_map[v]
// each one's new index (-1: dropped). Moved down inside buffer 0 when
// packs_in_place, else copied into a buffer allocated once with
// `extra_capacity` bytes to spare. Either way the same bytes: a copy (and
// one grown by doubling) was most of the fresh memory a 1 M-vertex `fix`
// wrote through (issue 47).
Status pack_views(tinygltf::Model& m, const std::vector<tinygltf::Buffer>& buffers, const std::vector<char>& keep,
                  const size_t extra_capacity, std::vector<unsigned char>& packed,
                  std::vector<tinygltf::BufferView>& views, std::vector<int>& view_map) {
  view_map.assign(m.bufferViews.size(), -1);
  const bool in_place = &buffers == &m.buffers && packs_in_place(m, keep);
  if (in_place) {
    packed = std::move(m.buffers[0].data);
  } else {
    // Only views inside their buffer count (the copy below refuses the
    // others): the size stays bounded by the bytes the file holds.
    size_t bytes = extra_capacity;
    for (size_t v = 0; v < keep.size(); ++v) {
      const tinygltf::BufferView& bv = m.bufferViews[v];
      if (keep[v] && bv.buffer >= 0 && bv.buffer < static_cast<int>(buffers.size()) &&
          bv.byteOffset <= buffers[bv.buffer].data.size() &&
          bv.byteLength <= buffers[bv.buffer].data.size() - bv.byteOffset)
        bytes += bv.byteLength + kAlign;
    }
    packed.reserve(bytes);
  }
  size_t cursor = 0;  // in place: the end of what is packed so far
  for (size_t v = 0; v < keep.size(); ++v) {
    if (!keep[v]) continue;
    tinygltf::BufferView bv = m.bufferViews[v];
    size_t off = 0;
    if (in_place) {
      off = aligned(cursor);
      std::fill(packed.begin() + static_cast<std::ptrdiff_t>(cursor), packed.begin() + static_cast<std::ptrdiff_t>(off), 0);
      std::memmove(packed.data() + off, packed.data() + bv.byteOffset, bv.byteLength);
      cursor = off + bv.byteLength;
    } else {
      if (bv.buffer < 0 || bv.buffer >= static_cast<int>(buffers.size()) ||
          bv.byteOffset > buffers[bv.buffer].data.size() ||
          bv.byteLength > buffers[bv.buffer].data.size() - bv.byteOffset)
        return Status::Error(Status::Code::kBadData, "bufferView " + std::to_string(v) + " runs past its buffer");
      while (packed.size() % kAlign) packed.push_back(0);
      const auto& src = buffers[bv.buffer].data;
      off = packed.size();
      packed.insert(packed.end(), src.begin() + bv.byteOffset, src.begin() + bv.byteOffset + bv.byteLength);
    }
    bv.buffer = 0;
    bv.byteOffset = off;
    view_map[v] = static_cast<int>(views.size());
    views.push_back(bv);
  }
  if (in_place) {
    packed.resize(cursor);
    packed.reserve(cursor + extra_capacity);
  }
  return Status::Ok();
}

}  // namespace

// Drops accessors not referenced any more, then the buffer views only they
// used, and repacks every kept view (and uri images) into one buffer.
Status prune_and_repack(tinygltf::Model& m, const std::vector<tinygltf::Buffer>* bytes_from, const size_t spare) {
  std::vector<char> used(m.accessors.size(), 0);
  auto mark = [&](int a) {
    if (a >= 0 && a < static_cast<int>(used.size())) used[a] = 1;
  };
  for (const auto& mesh : m.meshes)
    for (const auto& p : mesh.primitives) {
      for (const auto& [k, a] : p.attributes) mark(a);
      mark(p.indices);
      for (const auto& t : p.targets)
        for (const auto& [k, a] : t) mark(a);
    }
  for (const auto& s : m.skins) mark(s.inverseBindMatrices);
  for (const auto& an : m.animations)
    for (const auto& s : an.samplers) mark(s.input), mark(s.output);
  for_each_instancing_accessor(m, [&](int& a) { mark(a); });
  std::vector<int> acc_map(m.accessors.size(), -1);
  std::vector<tinygltf::Accessor> kept;
  for (size_t i = 0; i < m.accessors.size(); ++i)
    if (used[i]) acc_map[i] = static_cast<int>(kept.size()), kept.push_back(m.accessors[i]);
  auto remap = [&](int& a) {
    if (a >= 0) a = a < static_cast<int>(acc_map.size()) ? acc_map[a] : -1;
  };
  for (auto& mesh : m.meshes)
    for (auto& p : mesh.primitives) {
      for (auto& [k, a] : p.attributes) remap(a);
      remap(p.indices);
      for (auto& t : p.targets)
        for (auto& [k, a] : t) remap(a);
    }
  for (auto& s : m.skins) remap(s.inverseBindMatrices);
  for (auto& an : m.animations)
    for (auto& s : an.samplers) remap(s.input), remap(s.output);
  for_each_instancing_accessor(m, remap);
  // Views referenced by a pruned accessor and by nothing kept are dropped.
  std::vector<char> view_used(m.bufferViews.size(), 0), view_pruned(m.bufferViews.size(), 0);
  auto views_of = [](const tinygltf::Accessor& a) {
    return std::vector<int>{a.bufferView, a.sparse.isSparse ? a.sparse.indices.bufferView : -1,
                            a.sparse.isSparse ? a.sparse.values.bufferView : -1};
  };
  for (size_t i = 0; i < m.accessors.size(); ++i)
    for (int v : views_of(m.accessors[i]))
      if (v >= 0 && v < static_cast<int>(m.bufferViews.size()))
        (used[i] ? view_used : view_pruned)[v] = 1;
  for (const auto& img : m.images)
    if (img.bufferView >= 0 && img.bufferView < static_cast<int>(view_used.size()))
      view_used[img.bufferView] = 1;
  m.accessors = std::move(kept);

  std::vector<char> keep(m.bufferViews.size(), 0);
  for (size_t v = 0; v < keep.size(); ++v) keep[v] = !(view_pruned[v] && !view_used[v]);
  size_t image_bytes = 0;  // uri images embedded below
  for (const auto& img : m.images)
    if (img.bufferView < 0 && !img.image.empty()) image_bytes += img.image.size() + kAlign;
  std::vector<unsigned char> packed;
  std::vector<tinygltf::BufferView> views;
  std::vector<int> view_map;
  if (Status s = pack_views(m, bytes_from ? *bytes_from : m.buffers, keep, image_bytes + spare, packed, views, view_map);
      !s.ok())
    return s;
  auto new_view = [&](int v) {
    return v >= 0 && v < static_cast<int>(view_map.size()) ? view_map[v] : -1;
  };
  for (auto& a : m.accessors) {
    if (a.bufferView >= 0) a.bufferView = new_view(a.bufferView);
    if (a.sparse.isSparse) {
      a.sparse.indices.bufferView = new_view(a.sparse.indices.bufferView);
      a.sparse.values.bufferView = new_view(a.sparse.values.bufferView);
    }
  }
  for (auto& img : m.images) {
    if (img.bufferView >= 0) {
      img.bufferView = new_view(img.bufferView);
    } else if (!img.image.empty()) {
      // A uri image (external or data uri): embed its original bytes.
      while (packed.size() % kAlign) packed.push_back(0);
      tinygltf::BufferView bv;
      bv.buffer = 0;
      bv.byteOffset = packed.size();
      bv.byteLength = img.image.size();
      packed.insert(packed.end(), img.image.begin(), img.image.end());
      views.push_back(bv);
      img.bufferView = static_cast<int>(views.size()) - 1;
      if (img.mimeType.empty()) img.mimeType = image_mime_type(img.image, img.uri);
      img.uri.clear();
    }
  }
  m.bufferViews = std::move(views);
  tinygltf::Buffer buf;
  buf.data = std::move(packed);
  if (!m.buffers.empty()) buf.name = m.buffers[0].name;
  // Not `m.buffers = {std::move(buf)}`: an initializer list is copied from
  // (the whole buffer again, issue 47).
  m.buffers.clear();
  m.buffers.push_back(std::move(buf));
  return Status::Ok();
}

// Animation samplers whose key times are not strictly increasing (as the
// floats we write) or whose accessors are strided or sparse are rewritten as
// tightly packed float accessors; of keys sharing a time the last is kept.
// Refused (kBadData) only where glTF itself sizes the output: a sampler of a
// translation, rotation, scale or weights channel whose output is not its
// input's keys; samplers nothing sizes (unused, KHR_animation_pointer) pass.
Status repair_samplers(tinygltf::Model& m, std::vector<std::string>& notes) {
  bool changed = false;
  for (auto& anim : m.animations) {
    size_t dropped = 0, repacked = 0, normalized = 0;
    std::set<int> rotation_samplers, trs_samplers, weights_samplers;
    for (const auto& ch : anim.channels) {
      if (ch.target_path == "rotation") rotation_samplers.insert(ch.sampler);
      if (ch.target_path == "translation" || ch.target_path == "rotation" ||
          ch.target_path == "scale")
        trs_samplers.insert(ch.sampler);
      if (ch.target_path == "weights") weights_samplers.insert(ch.sampler);
    }
    for (int si = 0; si < static_cast<int>(anim.samplers.size()); ++si) {
      auto& s = anim.samplers[si];
      auto messy = [&](int a) {
        if (a < 0 || a >= static_cast<int>(m.accessors.size())) return false;
        const auto& acc = m.accessors[a];
        if (acc.sparse.isSparse || acc.bufferView < 0) return true;
        if (acc.bufferView >= static_cast<int>(m.bufferViews.size())) return false;
        return m.bufferViews[acc.bufferView].byteStride != 0;
      };
      std::vector<double> times, values;
      int tc = 0, vc = 0;
      std::string err;
      if (!read_accessor(m, s.input, times, tc, err) ||
          !read_accessor(m, s.output, values, vc, err) || tc != 1 || times.empty())
        return Status::Error(Status::Code::kBadData, "animation '" + anim.name +
                                                         "': sampler accessors are unreadable" +
                                                         (err.empty() ? "" : " (" + err + ")"));
      const size_t per_key = s.interpolation == "CUBICSPLINE" ? 3 : 1;
      // The values of one key (x3 for CUBICSPLINE): a translation, rotation
      // or scale channel's components, as glTF checks them; one scalar per
      // morph target for weights (the output count is the input count x
      // targets). A sampler no such channel uses (unused, or driving a
      // KHR_animation_pointer channel) is sized by no rule of glTF: its keys
      // are its output split evenly, or unknown (0) when it does not split.
      const size_t whole = values.size() % times.size() == 0 ? values.size() / times.size() : 0;
      const size_t stride = trs_samplers.count(si) ? per_key * static_cast<size_t>(vc)
                            : whole % per_key == 0 ? whole
                                                   : 0;
      const bool sized = trs_samplers.count(si) || weights_samplers.count(si);
      if (sized && (stride == 0 || values.size() != times.size() * stride))
        return Status::Error(Status::Code::kBadData,
                             "animation '" + anim.name + "': output does not match input");
      // Rotation keys must be unit quaternions: normalised; a zero one takes
      // the previous key (identity for the first).
      size_t fixed_quats = 0;
      if (rotation_samplers.count(si) && vc == 4 && per_key == 1)
        for (size_t k = 0; k < times.size(); ++k) {
          double* q = &values[k * 4];
          const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
          if (std::abs(n - 1.0) <= 1e-5) continue;
          ++fixed_quats;
          if (n > 1e-6) {
            for (int c = 0; c < 4; ++c) q[c] /= n;
          } else if (k > 0) {
            std::copy_n(q - 4, 4, q);
          } else {
            q[0] = q[1] = q[2] = 0, q[3] = 1;
          }
        }
      normalized += fixed_quats;
      std::vector<float> t_out, v_out;
      size_t sampler_dropped = 0;
      for (size_t k = 0; k < times.size(); ++k) {
        const float t = static_cast<float>(times[k]);
        const auto first = values.begin() + static_cast<std::ptrdiff_t>(k * stride);
        if (!t_out.empty() && !(t > t_out.back())) {  // same (or earlier) time: keep the later key
          ++sampler_dropped;
          if (t == t_out.back())
            std::transform(first, first + stride, v_out.end() - stride,
                           [](double x) { return float(x); });
          continue;
        }
        t_out.push_back(t);
        for (auto it = first; it != first + stride; ++it) v_out.push_back(static_cast<float>(*it));
      }
      if (stride == 0) {  // keys unknown: the output is kept whole, so no key can be dropped
        if (sampler_dropped)
          return Status::Error(Status::Code::kBadData,
                               "animation '" + anim.name + "': sampler " + std::to_string(si) +
                                   " repeats key times and its output is no whole "
                                   "number of keys");
        v_out.assign(values.begin(), values.end());
      }
      dropped += sampler_dropped;
      const bool strided = messy(s.input) || messy(s.output);
      if (sampler_dropped == 0 && !strided && fixed_quats == 0) continue;
      if (strided) ++repacked;
      const int output_type = m.accessors[s.output].type;  // read above: the index is valid
      Writer w{m};
      s.input = w.add_accessor(t_out, static_cast<int>(t_out.size()), TINYGLTF_COMPONENT_TYPE_FLOAT,
                               TINYGLTF_TYPE_SCALAR, -1, true);
      s.output = w.add_accessor(v_out, static_cast<int>(v_out.size() / static_cast<size_t>(vc)),
                                TINYGLTF_COMPONENT_TYPE_FLOAT, output_type, -1, false);
      changed = true;
    }
    if (dropped)
      notes.push_back(
          "animation '" + anim.name + "': " + std::to_string(dropped) +
          " keys at a repeated time dropped (glTF needs strictly increasing key times)");
    if (normalized)
      notes.push_back("animation '" + anim.name + "': " + std::to_string(normalized) +
                      " rotation keys normalised (zero ones take the previous key)");
    if (repacked)
      notes.push_back("animation '" + anim.name + "': " + std::to_string(repacked) +
                      " samplers re-packed (strided or sparse accessors are not allowed there)");
  }
  if (changed) return prune_and_repack(m);
  return Status::Ok();
}

// skin.skeleton must be a common root of the skin's joints (an ancestor or
// one of them); an invalid one becomes the deepest common root, or is removed.
void repair_skin_skeletons(tinygltf::Model& m, std::vector<std::string>& notes) {
  const int n = static_cast<int>(m.nodes.size());
  std::vector<int> parent(n, -1);
  for (int i = 0; i < n; ++i)
    for (int c : m.nodes[i].children)
      if (c >= 0 && c < n) parent[c] = i;
  auto chain = [&](int node) {  // node, its parent, ... (bounded: the tree was checked on read)
    std::vector<int> up;
    for (int k = node; k >= 0 && static_cast<int>(up.size()) <= n; k = parent[k]) up.push_back(k);
    return up;
  };
  for (size_t si = 0; si < m.skins.size(); ++si) {
    tinygltf::Skin& skin = m.skins[si];
    if (skin.skeleton < 0 || skin.joints.empty()) continue;
    // Common roots = ancestors-or-self shared by every joint, deepest first.
    std::vector<int> common = chain(skin.joints[0]);
    for (size_t j = 1; j < skin.joints.size() && !common.empty(); ++j) {
      const std::vector<int> up = chain(skin.joints[j]);
      std::vector<int> keep;
      for (int c : common)
        if (std::find(up.begin(), up.end(), c) != up.end()) keep.push_back(c);
      common = std::move(keep);
    }
    if (std::find(common.begin(), common.end(), skin.skeleton) != common.end()) continue;
    const int was = skin.skeleton;
    skin.skeleton = common.empty() ? -1 : common.front();
    notes.push_back("skin " + std::to_string(si) + ": skeleton node " + std::to_string(was) +
                    " is not a common root of its joints; " +
                    (skin.skeleton < 0 ? std::string("removed")
                                       : "set to node " + std::to_string(skin.skeleton)));
  }
}

// Node rotations must be unit quaternions: normalised, a zero one dropped.
void repair_node_rotations(tinygltf::Model& m, std::vector<std::string>& notes) {
  int fixed = 0;
  for (auto& n : m.nodes) {
    if (n.rotation.size() != 4) continue;
    double len = 0;
    for (double c : n.rotation) len += c * c;
    len = std::sqrt(len);
    if (std::abs(len - 1.0) <= 1e-5) continue;
    ++fixed;
    if (len > 1e-6) {
      for (double& c : n.rotation) c /= len;
    } else {
      n.rotation.clear();
    }
  }
  if (fixed)
    notes.push_back(std::to_string(fixed) +
                    " node rotations were not unit quaternions: normalised (zero: identity)");
}
// An animated node must have TRS, not a matrix (glTF 2.0, 5.25: "When a node
// is targeted for animation, only TRS properties may be present"): the
// matrix of a node a channel targets (COLLADA2GLTF writes matrices on every
// joint; our clips key joints) is split into translation, rotation and scale.
// Shear, which TRS cannot hold, is dropped (the polar rotation is kept).
void repair_animated_matrices(tinygltf::Model& m, std::vector<std::string>& notes) {
  std::set<int> animated;
  for (const auto& anim : m.animations)
    for (const auto& ch : anim.channels)
      if (ch.target_path == "translation" || ch.target_path == "rotation" || ch.target_path == "scale")
        animated.insert(ch.target_node);
  int split = 0;
  for (int n : animated) {
    if (n < 0 || n >= static_cast<int>(m.nodes.size()) || m.nodes[n].matrix.size() != 16) continue;
    tinygltf::Node& node = m.nodes[n];
    const Eigen::Map<const Eigen::Matrix4d> mat(node.matrix.data());  // column-major, as glTF
    const Eigen::Matrix3d linear = mat.block<3, 3>(0, 0);
    Eigen::Vector3d scale(linear.col(0).norm(), linear.col(1).norm(), linear.col(2).norm());
    if (linear.determinant() < 0) scale.x() = -scale.x();
    Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
    if (scale.cwiseAbs().minCoeff() > 1e-12) {
      const Eigen::Matrix3d r = linear * scale.cwiseInverse().asDiagonal();
      Eigen::JacobiSVD<Eigen::Matrix3d> svd(r, Eigen::ComputeFullU | Eigen::ComputeFullV);
      q = Eigen::Quaterniond(Eigen::Matrix3d(svd.matrixU() * svd.matrixV().transpose())).normalized();
    }
    node.matrix.clear();
    node.translation = {mat(0, 3), mat(1, 3), mat(2, 3)};
    node.rotation = {q.x(), q.y(), q.z(), q.w()};
    node.scale = {scale.x(), scale.y(), scale.z()};
    ++split;
  }
  if (split)
    notes.push_back(std::to_string(split) +
                    " animated nodes had a matrix: written as translation, rotation and scale (glTF allows "
                    "only those on animated nodes)");
}

// An image whose bytes never loaded (a texture file missing beside a .gltf,
// a data uri of a type tinygltf does not decode) would be written as a
// dangling reference: it becomes a 1x1 grey PNG, so every texture and
// material index stays valid, and a note names it.
void repair_unreadable_images(tinygltf::Model& m, std::vector<std::string>& notes) {
  static const std::vector<unsigned char> kGreyPixel = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
      0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xde, 0x00, 0x00, 0x00,
      0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0x68, 0x68, 0x68, 0x00, 0x00, 0x03, 0x04, 0x01, 0x81, 0x75,
      0x2e, 0x01, 0xbc, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
  std::string names;
  int replaced = 0;
  for (size_t i = 0; i < m.images.size(); ++i) {
    tinygltf::Image& img = m.images[i];
    const bool has_view = img.bufferView >= 0 && img.bufferView < static_cast<int>(m.bufferViews.size());
    if (has_view) continue;
    if (m.buffers.empty()) m.buffers.emplace_back();
    Writer w{m};
    if (!img.image.empty()) {  // bytes read from a uri: embedded as they are
      img.bufferView = w.add_view(img.image.data(), img.image.size(), -1);
      if (img.mimeType.empty()) img.mimeType = image_mime_type(img.image, img.uri);
      img.uri.clear();
      continue;
    }
    img.bufferView = w.add_view(kGreyPixel.data(), kGreyPixel.size(), -1);
    img.mimeType = "image/png";
    if (replaced++ < 3) {
      const std::string shown = img.uri.rfind("data:", 0) == 0 ? img.uri.substr(0, img.uri.find(',')) : img.uri;
      names += (names.empty() ? "" : ", ") + (shown.empty() ? "image " + std::to_string(i) : "'" + shown + "'");
    }
    img.uri.clear();
  }
  if (replaced)
    notes.push_back(std::to_string(replaced) + " image(s) could not be read (" + names + (replaced > 3 ? ", ..." : "") +
                    "): written as a 1x1 grey placeholder so the file stays valid");
}

// A perspective camera without zfar (an infinite projection) cannot be
// written by tinygltf, which always writes zfar (0, invalid): its far plane
// goes 1e7 x znear away instead, and a note says so.
void repair_infinite_cameras(tinygltf::Model& m, std::vector<std::string>& notes) {
  int fixed = 0;
  for (tinygltf::Camera& cam : m.cameras) {
    if (cam.type != "perspective") continue;
    tinygltf::PerspectiveCamera& p = cam.perspective;
    if (p.zfar > p.znear && p.zfar > 0) continue;
    const double near = p.znear > 0 && std::isfinite(p.znear) ? p.znear : 0.01;
    p.znear = near;
    p.zfar = 1e7 * near;
    ++fixed;
  }
  if (fixed)
    notes.push_back(std::to_string(fixed) +
                    " perspective camera(s) had an infinite far plane, which this writer cannot express: written "
                    "with zfar = 1e7 x znear");
}

// POSITION accessors and animation key times must carry min and max (glTF
// 2.0, 3.6.2.5 and 5.23); an exporter that left them out had them copied
// into our writes. Float accessors get them computed; the rest keep theirs.
void repair_missing_bounds(tinygltf::Model& m, std::vector<std::string>& notes) {
  std::set<int> need;
  for (const auto& mesh : m.meshes)
    for (const auto& prim : mesh.primitives) {
      if (auto it = prim.attributes.find("POSITION"); it != prim.attributes.end()) need.insert(it->second);
      for (const auto& target : prim.targets)
        if (auto it = target.find("POSITION"); it != target.end()) need.insert(it->second);
    }
  for (const auto& anim : m.animations)
    for (const auto& s : anim.samplers) need.insert(s.input);
  int fixed = 0;
  for (int a : need) {
    if (a < 0 || a >= static_cast<int>(m.accessors.size())) continue;
    tinygltf::Accessor& acc = m.accessors[a];
    if (!acc.minValues.empty() && !acc.maxValues.empty()) continue;
    if (acc.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT || acc.count == 0) continue;
    std::vector<double> values;
    int comps = 0;
    std::string err;
    if (!read_accessor(m, a, values, comps, err) || comps <= 0) continue;
    acc.minValues.assign(comps, std::numeric_limits<double>::infinity());
    acc.maxValues.assign(comps, -std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < values.size(); ++i) {
      // As stored: float, so the bounds equal the float values exactly.
      const double v = static_cast<float>(values[i]);
      acc.minValues[i % comps] = std::min(acc.minValues[i % comps], v);
      acc.maxValues[i % comps] = std::max(acc.maxValues[i % comps], v);
    }
    ++fixed;
  }
  if (fixed) notes.push_back(std::to_string(fixed) + " accessors lacked the min/max glTF requires: computed");
}

}  // namespace rig::gltf_doc

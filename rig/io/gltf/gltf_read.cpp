// glTF/GLB reading with tinygltf. Accessors are decoded in gltf_accessor.cpp
// (normalized integers, byte strides, sparse) because Assimp 5.2 gets them
// wrong.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "rig/anatomy/roles.h"
#include "rig/io/gltf/gltf_colliders.h"
#include "rig/io/gltf/gltf_read_clips.h"
#include "rig/io/gltf/gltf_read_mesh.h"
#include "rig/io/gltf/gltf_source.h"
#include "rig/io/gltf/gltf_weights.h"
#include "rig/io/mapped_file.h"
#include "rig/io/read_checks.h"

namespace rig {
namespace {

// Keeps the raw bytes of uri images so writing can embed them unchanged.
// Images in a buffer view stay there (the writer keeps the view); tinygltf
// hands us a pointer into the buffer without checking the view's range, so
// the range is checked here against the model being loaded (`user`).
bool keep_image_bytes(tinygltf::Image* image, const int index, std::string* err, std::string*, int, int,
                      const unsigned char* bytes, int size, void* user) {
  image->width = image->height = -1;
  if (image->bufferView >= 0) {
    const auto* m = static_cast<const tinygltf::Model*>(user);
    const auto& views = m->bufferViews;
    bool fits = static_cast<size_t>(image->bufferView) < views.size();
    if (fits) {
      const tinygltf::BufferView& v = views[image->bufferView];
      fits = v.buffer >= 0 && static_cast<size_t>(v.buffer) < m->buffers.size() &&
             v.byteOffset <= m->buffers[v.buffer].data.size() &&
             v.byteLength <= m->buffers[v.buffer].data.size() - v.byteOffset;
    }
    if (!fits && err)
      *err += "image " + std::to_string(index) + ": bufferView " + std::to_string(image->bufferView) +
              " runs past its buffer";
    return fits;
  }
  if (size < 0) return false;
  image->image.assign(bytes, bytes + size);
  return true;
}

// Node TRS or matrix values: finite and within kMaxCoordinate.
bool node_values_ok(const tinygltf::Node& n) {
  for (const auto* v : {&n.matrix, &n.translation, &n.rotation, &n.scale})
    for (double x : *v)
      if (!std::isfinite(x) || std::abs(x) > kMaxCoordinate) return false;
  return true;
}

bool matrix_ok(const Mat4& m) { return m.allFinite() && m.cwiseAbs().maxCoeff() <= kMaxCoordinate; }

// True when `a` turns space more than 1 deg away from `b` at the same scale
// (within 1e-3; translations are not compared). Smaller turns are an
// exporter's rounding or a frame at rest (the Wolf's root is stored 0.34 deg
// off its bind), read as the bind as they always were; another scale is an
// exporter's mesh-to-armature offset baked into the IBMs (Blender writes the
// Quaternius meshes' 100 against their armature's 39.5 there), not a pose.
bool turned_at_same_scale(const Mat4& a, const Mat4& b) {
  const Eigen::Matrix3d la = a.block<3, 3>(0, 0), lb = b.block<3, 3>(0, 0);
  const double sa = std::cbrt(std::abs(la.determinant())), sb = std::cbrt(std::abs(lb.determinant()));
  if (!(sa > 0.0) || !(sb > 0.0) || !std::isfinite(sa) || !std::isfinite(sb)) return false;
  if (std::abs(sa / sb - 1.0) > 1e-3) return false;
  const Eigen::Matrix3d r = (la / sa).transpose() * (lb / sb);
  const double cos_angle = std::clamp(0.5 * (r.trace() - 1.0), -1.0, 1.0);
  constexpr double kMaxRestTurn = 1.0 * 3.14159265358979323846 / 180.0;
  return std::acos(cos_angle) > kMaxRestTurn;
}

// True when the linear parts of `a` and `b` agree within 1e-6 of b's size.
bool same_linear(const Mat4& a, const Mat4& b) {
  return (a.block<3, 3>(0, 0) - b.block<3, 3>(0, 0)).norm() <= 1e-6 * b.block<3, 3>(0, 0).norm();
}

Transform node_local(const tinygltf::Node& n) {
  if (n.matrix.size() == 16) {
    Mat4 m;
    for (int i = 0; i < 16; ++i) m(i % 4, i / 4) = n.matrix[i];  // column major
    return Transform::from_matrix(m);
  }
  Transform t;
  if (n.translation.size() == 3) t.translation = Vec3(n.translation[0], n.translation[1], n.translation[2]);
  if (n.rotation.size() == 4) {
    const Quat q(n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]);
    if (q.norm() > 1e-6) t.rotation = q.normalized();  // a zero quaternion reads as identity (noted)
  }
  if (n.scale.size() == 3) t.scale = Vec3(n.scale[0], n.scale[1], n.scale[2]);
  return t;
}

// Per node of the document: parent, world matrix in the stored pose, depth.
struct NodeTree {
  std::vector<int> parent;  // -1 at a scene root
  std::vector<Mat4> world;
  std::vector<int> depth;  // 0 at a scene root
};

// The nodes that become joints, in the order first met, with their IBMs.
struct JointNodes {
  std::vector<int> used_skins;  // the skins whose joints were read, first use first
  std::map<int, int> joint_of_node;  // node -> position in `joint_node_list`
  std::vector<int> joint_node_list;
  std::vector<Mat4> joint_ibm;
};

// Step: tinygltf's parse of the file (of `glb` when given: a GLB in
// memory, `path` naming it), images kept as raw bytes, warnings dropped;
// notes the animation channels it did not keep.
Status parse_document(const std::string& path, const bool binary, const std::string_view* glb, tinygltf::Model& m,
                      std::vector<std::string>& notes) {
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(keep_image_bytes, &m);
  std::string err, warn;
  bool ok = false;
  try {
    if (glb) {
      ok = loader.LoadBinaryFromMemory(&m, &err, &warn, reinterpret_cast<const unsigned char*>(glb->data()),
                                       static_cast<unsigned int>(glb->size()), std::string());
    } else if (!binary) {
      ok = loader.LoadASCIIFromFile(&m, &err, &warn, path);
    } else if (const MappedFile file(path); file.size() > 0) {
      // The file's pages mapped, not read into a fresh vector: tinygltf
      // copies the binary chunk out anyway (issue 47: 50 MB less memory
      // for the kernel to zero at 1 M vertices). The base folder of
      // external uris as LoadBinaryFromFile gives it.
      const size_t slash = path.find_last_of("/\\");
      ok = loader.LoadBinaryFromMemory(&m, &err, &warn, file.data(), static_cast<unsigned int>(file.size()),
                                       slash == std::string::npos ? std::string() : path.substr(0, slash));
    } else {  // empty, or not mappable: tinygltf's own read and messages
      ok = loader.LoadBinaryFromFile(&m, &err, &warn, path);
    }
  } catch (const std::exception& e) {
    err = e.what();
  }
  if (!ok) {
    std::string first = err.substr(0, err.find('\n'));
    return bad_data(path, "not a readable glTF file" + (first.empty() ? "" : " (" + first + ")"));
  }
  // tinygltf skips a channel without a target node (glTF: one to ignore, or
  // a KHR_animation_pointer channel) and says so, once per channel, in `err`.
  static const std::string kNoNode = "`node` field is missing in animation.channels.target";
  int no_node = 0;
  for (size_t at = err.find(kNoNode); at != std::string::npos;
       at = err.find(kNoNode, at + kNoNode.size()))
    ++no_node;
  if (no_node)
    notes.push_back(
        path + ": " + std::to_string(no_node) +
        " animation channels without a target node (ignored by glTF, or KHR_animation_pointer's) "
        "not read and not written");
  return Status::Ok();
}

// Step: every buffer view, accessor and node value in range; notes zero quaternions.
Status check_document(const std::string& path, const tinygltf::Model& m, std::vector<std::string>& notes) {
  // Even the accessors and views we never read: the writer copies them.
  for (size_t v = 0; v < m.bufferViews.size(); ++v) {
    const tinygltf::BufferView& bv = m.bufferViews[v];
    if (!valid_index(bv.buffer, m.buffers) || bv.byteOffset > m.buffers[bv.buffer].data.size() ||
        bv.byteLength > m.buffers[bv.buffer].data.size() - bv.byteOffset)
      return bad_data(path, "bufferView " + std::to_string(v) + " runs past its buffer");
  }
  for (size_t a = 0; a < m.accessors.size(); ++a) {
    const tinygltf::Accessor& acc = m.accessors[a];
    const bool views_ok = (acc.bufferView < 0 || valid_index(acc.bufferView, m.bufferViews)) &&
                          (!acc.sparse.isSparse || (valid_index(acc.sparse.indices.bufferView, m.bufferViews) &&
                                                    valid_index(acc.sparse.values.bufferView, m.bufferViews)));
    if (!views_ok) return bad_data(path, "accessor " + std::to_string(a) + " names a missing bufferView");
    if (acc.count > kMaxAccessorElements)
      return bad_data(path, "accessor " + std::to_string(a) + " count " + std::to_string(acc.count) +
                           " is over the limit of " + std::to_string(kMaxAccessorElements));
  }
  for (size_t n = 0; n < m.nodes.size(); ++n)
    if (!node_values_ok(m.nodes[n]))
      return bad_data(path, "node " + std::to_string(n) + " has a NaN, infinite or implausibly large transform value");
  int zero_rotations = 0;
  for (auto& n : m.nodes)
    if (n.rotation.size() == 4 && Quat(n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]).norm() <= 1e-6)
      ++zero_rotations;
  if (zero_rotations)
    notes.push_back(path + ": " + std::to_string(zero_rotations) + " nodes have a zero rotation quaternion; read as identity");
  return Status::Ok();
}

// Step: node parents, world matrices and depths; refuses cycles and shared children.
Status read_node_tree(const std::string& path, const tinygltf::Model& m, NodeTree& tree) {
  const int node_count = static_cast<int>(m.nodes.size());
  std::vector<int>& parent = tree.parent;
  parent.assign(node_count, -1);
  for (int n = 0; n < node_count; ++n)
    for (int c : m.nodes[n].children) {
      if (!valid_index(c, m.nodes) || parent[c] >= 0 || c == n)
        return bad_data(path, "node hierarchy is not a tree (node " + std::to_string(n) + ")");
      parent[c] = n;
    }
  // World matrices and depths without recursion (a file may nest nodes
  // arbitrarily deep): walk up to a done ancestor, then fill in downwards.
  std::vector<Mat4>& world = tree.world;
  std::vector<int>& node_depth = tree.depth;
  world.resize(node_count);
  node_depth.assign(node_count, -1);  // -1 todo
  std::vector<int> path_up;
  for (int n = 0; n < node_count; ++n) {
    path_up.clear();
    for (int k = n; k >= 0 && node_depth[k] < 0; k = parent[k]) {
      path_up.push_back(k);
      if (static_cast<int>(path_up.size()) > node_count) return bad_data(path, "node hierarchy has a cycle");
    }
    for (auto it = path_up.rbegin(); it != path_up.rend(); ++it) {
      const int k = *it, p = parent[k];
      node_depth[k] = p >= 0 ? node_depth[p] + 1 : 0;
      if (node_depth[k] > kMaxNodeDepth)
        return bad_data(path, "node " + std::to_string(k) + " is nested deeper than " + std::to_string(kMaxNodeDepth) +
                             " levels");
      world[k] = (p >= 0 ? world[p] : Mat4::Identity()) * node_local(m.nodes[k]).matrix();
    }
  }
  return Status::Ok();
}

// Step: the skinned mesh nodes and the union of their skins' joints with their IBMs.
Status read_skin_joints(const std::string& path, GltfSource& src, JointNodes& joints) {
  const tinygltf::Model& m = src.model;
  const int node_count = static_cast<int>(m.nodes.size());
  for (int n = 0; n < node_count; ++n) {
    const tinygltf::Node& node = m.nodes[n];
    if (node.mesh < 0 || node.skin < 0) continue;
    if (!valid_index(node.mesh, m.meshes) || !valid_index(node.skin, m.skins))
      return bad_data(path, "node " + std::to_string(n) + " names a missing mesh or skin");
    src.skinned_nodes.push_back(n);
  }
  std::vector<int>& used_skins = joints.used_skins;
  for (int n : src.skinned_nodes)
    if (std::find(used_skins.begin(), used_skins.end(), m.nodes[n].skin) == used_skins.end())
      used_skins.push_back(m.nodes[n].skin);
  // A file with no skinned mesh still yields its skins' joints (or none).
  if (used_skins.empty())
    for (int s = 0; s < static_cast<int>(m.skins.size()); ++s) used_skins.push_back(s);
  std::string err;
  for (int s : used_skins) {
    const tinygltf::Skin& skin = m.skins[s];
    std::vector<double> ibm;
    int comps = 0;
    if (skin.inverseBindMatrices >= 0) {
      if (!read_accessor(m, skin.inverseBindMatrices, ibm, comps, err) || comps != 16 ||
          ibm.size() < skin.joints.size() * 16)
        return bad_data(path, "skin " + std::to_string(s) + " inverse bind matrices: " +
                             (err.empty() ? "wrong size" : err));
    }
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      const int node = skin.joints[j];
      if (!valid_index(node, m.nodes)) return bad_data(path, "skin joint names a missing node");
      if (joints.joint_of_node.count(node)) continue;
      Mat4 b = Mat4::Identity();
      if (!ibm.empty())
        for (int i = 0; i < 16; ++i) b(i % 4, i / 4) = ibm[j * 16 + i];
      if (std::abs(b.determinant()) < 1e-30 || !matrix_ok(b) || !matrix_ok(Mat4(b.inverse())))
        return bad_data(path, "skin " + std::to_string(s) + " joint " + std::to_string(j) +
                             ": singular or implausible inverse bind matrix");
      if (static_cast<int>(joints.joint_node_list.size()) >= kMaxJoints)
        return bad_data(path, "more than " + std::to_string(kMaxJoints) + " joints");
      joints.joint_of_node[node] = static_cast<int>(joints.joint_node_list.size());
      joints.joint_node_list.push_back(node);
      joints.joint_ibm.push_back(b);
    }
  }
  return Status::Ok();
}

// Step, for a clip source (no skin at all): joints from the animated nodes.
Status read_animated_joints(const std::string& path, const tinygltf::Model& m, const NodeTree& tree,
                            JointNodes& joints) {
  // The animated nodes and their ancestors, bind = the stored node pose.
  const int node_count = static_cast<int>(m.nodes.size());
  const std::vector<Mat4>& world = tree.world;
  std::vector<char> take(node_count, 0);
  for (const auto& anim : m.animations)
    for (const auto& ch : anim.channels)
      for (int n = ch.target_node; valid_index(n, m.nodes) && !take[n]; n = tree.parent[n]) take[n] = 1;
  for (int n = 0; n < node_count; ++n)
    if (take[n] && m.nodes[n].mesh < 0) {
      if (static_cast<int>(joints.joint_node_list.size()) >= kMaxJoints)
        return bad_data(path, "more than " + std::to_string(kMaxJoints) + " animated nodes");
      if (!matrix_ok(world[n]) || std::abs(world[n].determinant()) < 1e-30)
        return bad_data(path, "node " + std::to_string(n) + " has a singular or implausible world transform");
      joints.joint_of_node[n] = static_cast<int>(joints.joint_node_list.size());
      joints.joint_node_list.push_back(n);
      joints.joint_ibm.push_back(world[n].inverse());
    }
  return Status::Ok();
}

// Step: the skeleton, binds as stored, in topological order; returns node -> joint.
std::map<int, int> build_skeleton(const tinygltf::Model& m, const NodeTree& tree, const JointNodes& joints,
                                  std::vector<int>& joint_nodes, Skeleton& sk) {
  const std::vector<int>& parent = tree.parent;
  const std::vector<Mat4>& world = tree.world;
  const std::vector<int>& joint_node_list = joints.joint_node_list;
  const std::vector<Mat4>& joint_ibm = joints.joint_ibm;
  // Topological order: by depth in the node tree, then by first appearance.
  std::vector<int> order(joint_node_list.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return tree.depth[joint_node_list[a]] < tree.depth[joint_node_list[b]];
  });
  std::map<int, int> skeleton_index_of_node;
  for (int i : order) {
    const int node = joint_node_list[i];
    const int idx = sk.size();
    skeleton_index_of_node[node] = idx;
    joint_nodes.push_back(node);
    sk.names.push_back(m.nodes[node].name.empty() ? "node_" + std::to_string(node)
                                                  : m.nodes[node].name);
    int p = parent[node];
    while (p >= 0 && !skeleton_index_of_node.count(p)) p = parent[p];
    sk.parents.push_back(p >= 0 ? skeleton_index_of_node[p] : -1);
    sk.inverse_bind.push_back(joint_ibm[i]);
    sk.bind_world.push_back(joint_ibm[i].inverse());
    const Mat4 parent_world = p >= 0 ? world[p] : (parent[node] >= 0 ? world[parent[node]] : Mat4::Identity());
    sk.root_parent_world.push_back(p >= 0 ? Mat4::Identity() : parent_world);
    // Stored pose relative to the parent joint; the node's own TRS when the
    // parent node is that joint (exact), composed through helpers otherwise.
    sk.stored_local.push_back(parent[node] == p ? node_local(m.nodes[node])
                                                : Transform::from_matrix(parent_world.inverse() * world[node]));
  }
  return skeleton_index_of_node;
}

// Mesh space -> world at bind (A), from the root joint or the skinned mesh node.
Mat4 mesh_to_world_at_bind(const GltfSource& src, const NodeTree& tree, const std::vector<int>& used_skins,
                           const Skeleton& sk) {
  // Skinned vertices land at world_j * IBM_j * v, so rest world = A v with
  // A = N_root * IBM_root for a root joint at rest (an exporter's Armature
  // scale lives here: Quaternius files are 0.3 units in mesh space, 15 in
  // the scene). Model positions and bind_world are world.
  const tinygltf::Model& m = src.model;
  const std::vector<int>& parent = tree.parent;
  const std::vector<Mat4>& world = tree.world;
  Mat4 A = Mat4::Identity();
  if (sk.size() > 0) {
    A = world[src.joint_nodes[0]] * sk.inverse_bind[0];
    // That root's stored pose may be a posed frame (an exporter that saved
    // the current frame: a Mixamo hips tilted mid-walk), which would tilt
    // the whole bind pose. When the skinned mesh node sits where the root's
    // parent (its armature) does, and the root's stored pose turns the rest
    // mesh away from that placement at the same scale, the root is posed
    // and the mesh node's placement is the bind's (SPEC §4).
    const int root_node = src.joint_nodes[0];
    const Mat4 root_parent = parent[root_node] >= 0 ? world[parent[root_node]] : Mat4::Identity();
    int mesh_node = -1;  // the first node skinned by the first skin (A's skin)
    for (int n : src.skinned_nodes)
      if (!used_skins.empty() && m.nodes[n].skin == used_skins.front()) {
        mesh_node = n;
        break;
      }
    if (mesh_node >= 0 && same_linear(world[mesh_node], root_parent) && turned_at_same_scale(A, root_parent) &&
        matrix_ok(world[mesh_node]) && std::abs(world[mesh_node].determinant()) > 1e-30)
      A = world[mesh_node];
    if ((A - Mat4::Identity()).cwiseAbs().maxCoeff() < 1e-6) A = Mat4::Identity();
  }
  return A;
}

// Each skin's own mesh space -> world (src.skin_mesh_to_world) where it differs from A.
void read_skin_offsets(const JointNodes& joints, const Mat4& A, GltfSource& src) {
  // Skins after the first may bake another mesh offset into their IBMs:
  // A_s = A * IBM_first(j)^-1 * IBM_s(j) for a joint j they share, so every
  // primitive lands in the same bind space (else a body skinned by another
  // skin than a sword's is displaced by the sword's offset).
  const tinygltf::Model& m = src.model;
  std::string err;
  for (int s : joints.used_skins) {
    const tinygltf::Skin& skin = m.skins[s];
    if (skin.inverseBindMatrices < 0 || skin.joints.empty()) continue;
    std::vector<double> ibm;
    int comps = 0;
    if (!read_accessor(m, skin.inverseBindMatrices, ibm, comps, err) || comps != 16 || ibm.size() < 16) continue;
    const auto it = joints.joint_of_node.find(skin.joints[0]);
    if (it == joints.joint_of_node.end()) continue;
    Mat4 b = Mat4::Identity();
    for (int i = 0; i < 16; ++i) b(i % 4, i / 4) = ibm[i];
    const Mat4 As = A * joints.joint_ibm[it->second].inverse() * b;
    if (As.allFinite() && (As - A).cwiseAbs().maxCoeff() > 1e-9 * std::max(1.0, A.cwiseAbs().maxCoeff()))
      src.skin_mesh_to_world[s] = As;
  }
}

// Step: the skeleton's bind moved from mesh space to world, and its neutral locals.
Status place_bind_in_world(const std::string& path, const NodeTree& tree, const JointNodes& joints,
                           GltfSource& src, Skeleton& sk) {
  const Mat4 A = mesh_to_world_at_bind(src, tree, joints.used_skins, sk);
  src.mesh_to_world = A;
  if (!matrix_ok(A) || std::abs(A.determinant()) < 1e-30)
    return bad_data(path, "the skeleton's root transform is singular or implausible");
  read_skin_offsets(joints, A, src);
  for (int i = 0; i < sk.size(); ++i) {
    sk.bind_world[i] = A * sk.bind_world[i];
    sk.inverse_bind[i] = sk.bind_world[i].inverse();
    if (!matrix_ok(sk.bind_world[i]) || !matrix_ok(sk.inverse_bind[i]) || !matrix_ok(sk.root_parent_world[i]))
      return bad_data(path, "joint '" + sk.names[i] + "': bind transform is singular or implausible");
  }
  for (int i = 0; i < sk.size(); ++i) {
    const int p = sk.parents[i];
    const Mat4 pw = p >= 0 ? sk.bind_world[p] : sk.root_parent_world[i];
    sk.neutral_local.push_back(Transform::from_matrix(pw.inverse() * sk.bind_world[i]));
  }
  return Status::Ok();
}

std::string sum_text(const double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}

// What settling the file's weights did, for the notes and the writer.
struct Settled {
  int unweighted = 0;     // no positive weight: given to the nearest joint
  int changed = 0;        // settling changed a float32 weight (the writer puts back the file's own)
  int renormalised = 0;   // of those, ones the validator refuses as they are: written settled
  double worst_sum_error = 0.0;
};

// The common vertex, its joints ascending and each once, whose float32
// weights settling leaves as they are: settled here (gltf_weights::settle
// then only divides by the same sum), true. False, and `infl` untouched,
// for any other (issue 47: no copy and compare per vertex at 1 M vertices).
bool settles_in_place(std::vector<Influence>& infl) {
  double sum = 0;
  for (size_t i = 0; i < infl.size(); ++i) {
    if (i > 0 && !(infl[i - 1].joint < infl[i].joint)) return false;
    sum += infl[i].weight;
  }
  if (!(sum > 0)) return false;
  for (const Influence& in : infl)
    if (static_cast<float>(in.weight / sum) != static_cast<float>(in.weight)) return false;
  for (Influence& in : infl) in.weight /= sum;
  return true;
}

// Step: weights merged per joint and summing to 1 (gltf_weights::settle);
// the vertices whose float32 weights that changed, with the file's own, into
// `settled_out`.
Settled settle_weights(const Skeleton& sk, const Mesh& mesh, Skin& skin,
                       std::vector<GltfSource::SettledVertex>& settled_out) {
  Settled out;
  std::vector<Influence> as_read;  // reused: no allocation per vertex
  for (size_t v = 0; v < skin.influences.size(); ++v) {
    auto& infl = skin.influences[v];
    if (infl.empty()) {
      // A vertex with no positive weight (glTF needs weights summing to 1)
      // goes to its nearest joint, as a rigger would have done.
      if (sk.size() == 0) continue;
      int best = 0;
      double best_d = INFINITY;
      for (int j = 0; j < sk.size(); ++j) {
        const double d = (sk.bind_world[j].block<3, 1>(0, 3) - mesh.positions[v]).squaredNorm();
        if (d < best_d) best_d = d, best = j;
      }
      infl.push_back({best, 1.0});
      ++out.unweighted;
      settled_out.push_back({static_cast<int>(v), {}});
      continue;
    }
    if (settles_in_place(infl)) continue;
    as_read.assign(infl.begin(), infl.end());
    gltf_weights::settle(infl);
    if (gltf_weights::settling_changes_floats(as_read, infl)) {
      ++out.changed;
      if (!gltf_weights::valid_as_written(as_read)) {
        ++out.renormalised;
        out.worst_sum_error = std::max(out.worst_sum_error, gltf_weights::sum_error(as_read));
      }
      settled_out.push_back({static_cast<int>(v), as_read});
    }
  }
  return out;
}

}  // namespace

namespace {

// load_gltf of the file at `path`, or of `glb` when given (`path` naming it).
Status load_gltf_from(const std::string& path, const bool binary, const std::string_view* glb, Character& out) {
  auto src = std::make_shared<GltfSource>();
  const tinygltf::Model& m = src->model;
  std::vector<std::string> notes;
  if (Status s = parse_document(path, binary, glb, src->model, notes); !s.ok()) return s;
  // Required compression extensions were refused before the parse
  // (check_gltf_compression, in load()).
  if (Status s = check_document(path, m, notes); !s.ok()) return s;
  out = Character{};
  out.source_path = path;
  out.format = binary ? FileFormat::kGlb : FileFormat::kGltf;

  NodeTree tree;
  if (Status s = read_node_tree(path, m, tree); !s.ok()) return s;
  JointNodes joints;
  if (Status s = read_skin_joints(path, *src, joints); !s.ok()) return s;
  if (joints.joint_node_list.empty())
    if (Status s = read_animated_joints(path, m, tree, joints); !s.ok()) return s;
  Skeleton& sk = out.skeleton;
  const std::map<int, int> skeleton_index_of_node = build_skeleton(m, tree, joints, src->joint_nodes, sk);
  if (Status s = place_bind_in_world(path, tree, joints, *src, sk); !s.ok()) return s;

  if (Status s = read_skinned_primitives(path, skeleton_index_of_node, *src, out); !s.ok()) return s;
  const Settled settled = settle_weights(sk, out.mesh, out.skin, src->settled);
  if (settled.unweighted)
    notes.push_back(path + ": " + std::to_string(settled.unweighted) +
                    " vertices have no weight; given to their nearest joint");
  if (settled.renormalised)
    notes.push_back(path + ": " + std::to_string(settled.renormalised) +
                    " vertices' weights do not sum to 1 or name a joint twice (sum off by up to " +
                    sum_text(settled.worst_sum_error) + "); a written file holds them renormalised");
  if (Status s = read_gltf_clips(path, m, skeleton_index_of_node, out.clips, notes); !s.ok()) return s;

  out.colliders = read_collider_extras(path, m, src->joint_nodes, sk, notes);
  src->animation_count = static_cast<int>(m.animations.size());
  out.meters_per_unit = 1.0;  // glTF is metres by specification
  out.gltf = std::move(src);
  if (out.has_skin()) assign_roles(out.skeleton, out.mesh, out.skin);
  else assign_roles(out.skeleton);
  Status done = Status::Ok();
  done.notes = std::move(notes);
  return done;
}

}  // namespace

Status load_gltf(const std::string& path, Character& out) {
  const bool binary = path.size() >= 4 && (path.substr(path.size() - 4) == ".glb" ||
                                           path.substr(path.size() - 4) == ".GLB");
  return load_gltf_from(path, binary, nullptr, out);
}

Status load_gltf_bytes(std::string_view glb, const std::string& name, Character& out) {
  return load_gltf_from(name, true, &glb, out);
}

}  // namespace rig
